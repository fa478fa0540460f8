//! Runnable examples live beside this file; run them with `cargo run -p dynomodel-examples --example quickstart`.
