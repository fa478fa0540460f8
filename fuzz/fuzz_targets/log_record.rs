//! `log_record`: see `dynomodel_mem::fuzzing::log_record`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dynomodel_mem::fuzzing::log_record(data));
