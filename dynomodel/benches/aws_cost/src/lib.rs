//! The AWS-path benches (`benches/`), and what they share that can be tested: the statistics of the
//! interleaved mode.

pub mod interleave;
