//! `pyramidion-chaos`: several `pyramidion serve` instances on one PostgreSQL database behind
//! HAProxy, killed and restarted under load; a binary of its own, beside `pyramidion` (whose
//! instances it starts), so that the binary a server operator deploys does not carry it.
#![forbid(unsafe_code)]

#[macro_use]
#[path = "../output.rs"]
mod output;
#[path = "../chaos/mod.rs"]
mod chaos;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "pyramidion-chaos",
    version,
    about = "Kill and restart instances behind HAProxy under load; check no acknowledged move is lost"
)]
struct Cli {
    #[command(flatten)]
    args: chaos::ChaosArgs,
}

fn main() -> std::process::ExitCode {
    match chaos::run(Cli::parse().args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
