//! `pyramidion puzzles --game G --games N`: plays N seeded bot games and mines their decisions
//! for puzzles (`pyramidion_ai::puzzle`: the judge's best move clear of every other candidate
//! by 3 points at the lower end of its interval, confirmed by a second run with another seed
//! and twice the budget). Writes one JSON line per puzzle: the seed data the server loads
//! (`crates/server/puzzles/<game>.jsonl`, docs/puzzles.md gives the command that made it).
use crate::bots::parse_bots;
use crate::game_args::GameChoice;
use crate::sim::play_game;
use anyhow::{Context, Result};
use clap::Args;
use pyramidion_ai::puzzle::{Mined, PuzzleConfig};
use pyramidion_core::Rules;
use pyramidion_core::record::Record;
use pyramidion_games::dispatch;
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

mod remine;

#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(flatten)]
    pub choice: GameChoice,
    /// Bot games played and mined.
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// Seed of the first game; game i has seed SEED + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The bots that play the games (a game's levels, comma separated, or one for all).
    #[arg(long, default_value = "greedy")]
    pub bots: String,
    /// The judge's playouts per decision; default: the analysis judge's (4 × `max`).
    #[arg(long)]
    pub budget: Option<u32>,
    /// Seed of the judge's first run.
    #[arg(long, default_value_t = 1)]
    pub judge_seed: u64,
    /// Games mined at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Appends the puzzles here (JSON lines) instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Plays nothing: judges the first `--sample` puzzles of this file again, each by a fresh
    /// run (a seed the miner did not use, twice the judge's budget), and prints the share
    /// whose solutions and clear margin it confirms.
    #[arg(long)]
    pub check: Option<PathBuf>,
    /// Plays no new game: mines this file's positions again by this build's miner (both runs,
    /// its rule) and writes the lines it keeps (to `--out`, else standard output).
    #[arg(long, conflicts_with = "check")]
    pub remine: Option<PathBuf>,
    /// Puzzles checked (the file's first ones).
    #[arg(long, default_value_t = 100)]
    pub sample: usize,
}

/// One puzzle line: the game, its options, the record up to the decision (kept by the
/// server, never sent: it holds the deal's seed), and what the solver is shown.
#[derive(Serialize)]
pub struct PuzzleLine<'a> {
    pub game: &'a str,
    pub options: &'a serde_json::Value,
    /// Where it comes from: `bot:<seed>` for the seed data, a game id on the server.
    pub source: String,
    pub record: Record,
    #[serde(flatten)]
    pub mined: &'a Mined,
}

/// The record of `record`'s first `ply` moves (the position of a puzzle).
pub fn prefix(record: &Record, ply: usize) -> Record {
    Record {
        result: None,
        moves: record.moves[..ply].to_vec(),
        move_lines: Vec::new(),
        ..record.clone()
    }
}

pub fn run(args: PuzzlesArgs) -> Result<()> {
    if let Some(path) = &args.check {
        return check(&args, path);
    }
    if let Some(path) = &args.remine {
        return remine::remine(&args, path);
    }
    dispatch!(args.choice.game, G => run_game::<G>(&args))
}

/// `--check FILE`: the share of a file's puzzles a fresh judge run confirms.
fn check(args: &PuzzlesArgs, path: &std::path::Path) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut puzzles = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(args.sample)
    {
        let p: serde_json::Value = serde_json::from_str(line)?;
        let record: Record = serde_json::from_value(p["record"].clone())?;
        let solutions: Vec<String> = serde_json::from_value(p["solutions"].clone())?;
        puzzles.push((record, solutions));
    }
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build()?;
    let confirmed: Vec<bool> = pool.install(|| {
        puzzles
            .par_iter()
            .map(|(record, solutions)| {
                let kind: pyramidion_games::GameKind =
                    record.game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
                let judge = PuzzleConfig::judge(kind.descriptor(), args.judge_seed);
                let fresh = PuzzleConfig {
                    budget: 2 * args.budget.unwrap_or(judge.budget),
                    // Neither of the miner's seeds (its first run's and the one derived from it).
                    seed: args.judge_seed.wrapping_add(0x5eed_c4ec),
                };
                let again = pyramidion_games::analysis::rejudge(record, solutions, fresh)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                let ok = again.confirms(solutions);
                // Why not, when not: other solutions, or the same by too thin a margin.
                let why = match (&again.margin_low, again.solutions == *solutions) {
                    _ if ok => String::new(),
                    (_, false) => format!(
                        " (solutions {:?}, the puzzle's {:?})",
                        again.solutions, solutions
                    ),
                    (Some(m), true) => {
                        format!(" (margin {m:.2} under {})", pyramidion_ai::puzzle::MARGIN)
                    }
                    (None, true) => " (no margin)".into(),
                };
                eprintln!(
                    "{} after {} moves: {}{why}",
                    record.game,
                    record.moves.len(),
                    if ok { "confirmed" } else { "not confirmed" }
                );
                anyhow::Ok(ok)
            })
            .collect::<Result<Vec<bool>>>()
    })?;
    let yes = confirmed.iter().filter(|&&c| c).count();
    println!(
        "{yes} of {} puzzles confirmed by a fresh judge run ({:.1}%); {:.0} s",
        confirmed.len(),
        100.0 * yes as f64 / confirmed.len().max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Where the lines go: appended to `--out`, else standard output.
fn output(args: &PuzzlesArgs) -> Result<Box<dyn std::io::Write + Send>> {
    Ok(match &args.out {
        Some(path) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?,
        ),
        None => Box::new(std::io::stdout()),
    })
}

fn run_game<G: Rules>(args: &PuzzlesArgs) -> Result<()> {
    let options_json = args.choice.options_json()?;
    let options: G::Options =
        serde_json::from_value(options_json.clone()).context("options do not fit the game")?;
    let bots = parse_bots(&args.bots, usize::from(args.choice.players()))?;
    let config = PuzzleConfig {
        budget: args
            .budget
            .unwrap_or_else(|| PuzzleConfig::judge(G::DESCRIPTOR, args.judge_seed).budget),
        seed: args.judge_seed,
    };
    let mut out = output(args)?;
    let started = Instant::now();
    let totals = Mutex::new((0usize, 0usize, 0usize));
    let writer = Mutex::new(&mut out);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build()?;
    pool.install(|| {
        (0..args.games).into_par_iter().try_for_each(|i| {
            let seed = args.seed + i;
            let mut record = Record::new(G::DESCRIPTOR.key, &options, seed);
            play_game::<G>(&options, seed, &bots, Some(&mut record))?;
            let mut dropped = 0;
            // Through the registry: the judge's generic code is compiled (and optimised, even in
            // a test build) in the games' crate.
            let mined = pyramidion_games::analysis::mine_plies(
                &record,
                config,
                0..record.moves.len(),
                &mut dropped,
            )
            .map_err(|e| anyhow::anyhow!("seed {seed}: {e}"))?;
            let decisions = pyramidion_games::analysis::decision_count(&record)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let mut w = writer.lock().expect("writer");
            for m in &mined {
                let line = PuzzleLine {
                    game: G::DESCRIPTOR.key,
                    options: &options_json,
                    source: format!("bot:{seed}"),
                    record: prefix(&record, m.ply),
                    mined: m,
                };
                writeln!(w, "{}", serde_json::to_string(&line)?)?;
            }
            w.flush()?;
            let mut t = totals.lock().expect("totals");
            t.0 += decisions;
            t.1 += mined.len();
            t.2 += dropped;
            eprintln!(
                "game seed {seed}: {} decisions, {} puzzles, {dropped} dropped by the confirming run ({:.0} s so far)",
                decisions,
                mined.len(),
                started.elapsed().as_secs_f64()
            );
            anyhow::Ok(())
        })
    })?;
    let (decisions, puzzles, dropped) = *totals.lock().expect("totals");
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{} games, {decisions} decisions, {puzzles} puzzles, {dropped} dropped; {secs:.0} s ({} s a puzzle, {} thread(s))",
        args.games,
        if puzzles > 0 {
            format!("{:.1}", secs / puzzles as f64)
        } else {
            "-".into()
        },
        args.threads.max(1)
    );
    Ok(())
}
