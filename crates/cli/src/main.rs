//! `pyramidion`: the command-line face of the platform.
#[macro_use]
mod output;

/// jemalloc, not glibc's allocator: a server's memory comes and goes in many small blocks
/// (sockets, messages, requests), and glibc keeps what was freed, fragmented, for good; jemalloc
/// returns it to the system after a few seconds. Measured per live game with
/// `pyramidion-loadtest` in docs/performance.md ("Memory per live game"). Only this binary
/// (the server's): the library crates leave the choice to their users. CI's test build sets
/// `--cfg pyramidion_system_allocator` to skip compiling jemalloc (crates/cli/Cargo.toml).
#[cfg(not(pyramidion_system_allocator))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod analyse;
mod analyse_check;
mod arena;
mod bench;
mod bots;
mod game_args;
mod ladder;
mod moderation;
mod perft;
mod puzzles;
mod replay;
mod serve;
mod sim;

use clap::{Parser, Subcommand};

/// Whether `e` comes from writing to a pipe whose reader has gone: not worth a message.
fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[derive(Parser)]
#[command(
    name = "pyramidion",
    version,
    about = "Pyramido family games: simulate, benchmark, verify"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    // Boxed: its many flags make it far larger than the other commands.
    /// Run the game server (HTTP API, WebSocket play, the browser client).
    Serve(Box<serve::ServeArgs>),
    /// Play many seeded bot games and print per-seat statistics.
    Sim(sim::SimArgs),
    /// Two bots play seeded paired games: score, win rate, Elo with 95% intervals, SPRT.
    Arena(arena::ArenaArgs),
    /// Each bot level plays the one below it: the Elo steps of a game's ladder, time per move.
    Ladder(ladder::LadderArgs),
    /// Expected final points of every decision of a record against the search's best move.
    Analyse(analyse::AnalyseArgs),
    /// Whether the analysis can be trusted: max against greedy (sanity), two seeds (agreement).
    AnalyseCheck(analyse_check::AnalyseCheckArgs),
    /// Play seeded bot games and mine them for puzzles the judge proves (JSON lines).
    Puzzles(puzzles::PuzzlesArgs),
    /// Print the engine speed figures, one per line as `name: value unit`.
    Bench(bench::BenchArgs),
    /// Count legal moves (and move sequences to a depth) after a record prefix.
    Perft(perft::PerftArgs),
    /// Re-play a game record, verifying every move, and print the final scores.
    Replay(replay::ReplayArgs),
    /// List the chat messages players reported (newest first), for the server's operator.
    Moderation(moderation::ModerationArgs),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve::run(*args),
        Command::Sim(args) => sim::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Ladder(args) => ladder::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::AnalyseCheck(args) => analyse_check::run(args),
        Command::Puzzles(args) => puzzles::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Moderation(args) => moderation::run(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) if is_closed_pipe(&e) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
