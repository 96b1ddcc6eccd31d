//! `pyramidion-loadtest`: the load generator, a binary of its own so that the `pyramidion`
//! binary a server operator deploys does not carry it.
#![forbid(unsafe_code)]

// The option parsing it shares with `pyramidion` (game keys, options from descriptors); this
// binary uses part of it only.
#[allow(dead_code)]
#[path = "../game_args.rs"]
mod game_args;
#[path = "../loadtest.rs"]
mod loadtest;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "pyramidion-loadtest",
    version,
    about = "Play N concurrent games against a running Pyramidion server (loopback only) and report latency"
)]
struct Cli {
    #[command(flatten)]
    args: loadtest::LoadtestArgs,
}

fn main() -> std::process::ExitCode {
    match loadtest::run(Cli::parse().args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
