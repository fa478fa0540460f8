//! The standalone `dynomodel` command (`cargo install dynomodel --features cli`): what needs no
//! models, such as `dynomodel describe --endpoint http://127.0.0.1:8000` or `dynomodel generate
//! --table users --endpoint http://127.0.0.1:8000`. An application's own
//! schema command (plan, apply, export) is `dynomodel::cli::run` in a binary naming its models.

use std::process::ExitCode;

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(dynomodel::cli::run_tool())
}
