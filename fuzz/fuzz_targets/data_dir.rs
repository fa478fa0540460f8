//! `data_dir`: see `dynomodel_mem::fuzzing::data_dir`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dynomodel_mem::fuzzing::data_dir(data));
