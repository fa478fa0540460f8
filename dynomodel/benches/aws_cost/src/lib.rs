//! Nothing: this crate only holds the AWS-path benches (`benches/`).
