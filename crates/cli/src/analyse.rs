//! `pyramidion analyse RECORD`: for every decision of every seat, the expected final points
//! of the move played and of the best move the search finds, from that seat's information
//! only, and the points lost.
//!
//! At each decision with more than one legal move, the search bot runs from the seat's
//! information and proposes its move; then both the played move and the proposed one are
//! evaluated on the same sampled futures (common random numbers: the same determinisations
//! and the same playout seeds), so their difference is not noise of two different samples.
//! Flags: `inaccuracy` from 2 points lost, `mistake` from 5, `blunder` from 10.
use crate::replay::read_record;
use anyhow::{Context, Result};
use clap::Args;
use pyramidion_ai::search::{Search, SearchConfig};
use pyramidion_ai::{Bot, Greedy};
use pyramidion_core::{Rules, ToMove};
use pyramidion_games::dispatch;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// Record file, text or JSON form (`-` for standard input).
    pub file: PathBuf,
    /// Search iterations per decision.
    #[arg(long, default_value_t = 200)]
    pub iterations: u32,
    /// Sampled futures on which the played and the best move are compared.
    #[arg(long, default_value_t = 64)]
    pub samples: u32,
    /// Seed of the analysis (the same seed gives the same report).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write the report as JSON into this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Points lost from which a decision is flagged.
const FLAGS: [(f64, &str); 3] = [(10.0, "blunder"), (5.0, "mistake"), (2.0, "inaccuracy")];

#[derive(Serialize)]
struct Decision {
    /// Index of the move in the record (0-based).
    ply: usize,
    seat: u8,
    played: String,
    best: String,
    played_points: f64,
    best_points: f64,
    /// `best_points − played_points`, at least 0.
    lost: f64,
    flag: Option<&'static str>,
}

#[derive(Serialize)]
struct SeatTotal {
    seat: u8,
    decisions: usize,
    lost: f64,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
}

#[derive(Serialize)]
struct Analysis {
    game: String,
    iterations: u32,
    samples: u32,
    decisions: Vec<Decision>,
    seats: Vec<SeatTotal>,
}

fn analyse<G: Rules>(
    record: &pyramidion_core::record::Record,
    args: &AnalyseArgs,
) -> Result<Analysis>
where
    Greedy: Bot<G>,
{
    let mut game: G = record.replay_prefix(Some(0)).context("record setup")?;
    let mut decisions = Vec::new();
    let mut legal = Vec::new();
    for (ply, text) in record.moves.iter().enumerate() {
        let played: G::Move = text
            .parse()
            .map_err(|e| anyhow::anyhow!("{}: {e}", record.place_of(ply)))?;
        if let ToMove::Seat(seat) = game.to_move() {
            game.legal_moves(&mut legal);
            if legal.len() > 1 {
                let seed = args.seed ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let mut search =
                    Search::<G>::new(SearchConfig::with_iterations(args.iterations), seed);
                let best = search.choose(&game);
                let (played_points, _) = search.evaluate_move(&game, played, args.samples, seed);
                let best_points = if best == played {
                    played_points
                } else {
                    search.evaluate_move(&game, best, args.samples, seed).0
                };
                // The search's move may evaluate worse than the played one on these
                // futures: then the played move is the best known.
                let (best, best_points) = if best_points >= played_points {
                    (best, best_points)
                } else {
                    (played, played_points)
                };
                let lost = best_points - played_points;
                decisions.push(Decision {
                    ply,
                    seat: seat.0,
                    played: played.to_string(),
                    best: best.to_string(),
                    played_points,
                    best_points,
                    lost,
                    flag: FLAGS.iter().find(|(t, _)| lost >= *t).map(|(_, f)| *f),
                });
            }
        }
        game.play(&played)
            .map_err(|e| anyhow::anyhow!("{}: {e}", record.place_of(ply)))?;
    }
    let seats = (0..game.seats())
        .map(|s| {
            let mine: Vec<&Decision> = decisions.iter().filter(|d| d.seat == s).collect();
            let count = |f: &str| mine.iter().filter(|d| d.flag == Some(f)).count();
            SeatTotal {
                seat: s,
                decisions: mine.len(),
                lost: mine.iter().map(|d| d.lost).sum(),
                inaccuracies: count("inaccuracy"),
                mistakes: count("mistake"),
                blunders: count("blunder"),
            }
        })
        .collect();
    Ok(Analysis {
        game: record.game.to_string(),
        iterations: args.iterations,
        samples: args.samples,
        decisions,
        seats,
    })
}

pub fn run(args: AnalyseArgs) -> Result<()> {
    let record = read_record(&args.file)?;
    let kind: pyramidion_games::GameKind = record.game.parse()?;
    let analysis = dispatch!(kind, G => analyse::<G>(&record, &args)?);
    outln!(
        "{:>5} {:>4}  {:<16}{:>8}  {:<16}{:>8}{:>7}  flag",
        "ply",
        "seat",
        "played",
        "points",
        "best",
        "points",
        "lost"
    )?;
    for d in &analysis.decisions {
        outln!(
            "{:>5} {:>4}  {:<16}{:>8.1}  {:<16}{:>8.1}{:>7.1}  {}",
            d.ply + 1,
            d.seat,
            d.played,
            d.played_points,
            d.best,
            d.best_points,
            d.lost,
            d.flag.unwrap_or("")
        )?;
    }
    for s in &analysis.seats {
        outln!(
            "seat {}: {} decisions, {:.1} points lost, {} inaccuracies, {} mistakes, {} blunders",
            s.seat,
            s.decisions,
            s.lost,
            s.inaccuracies,
            s.mistakes,
            s.blunders
        )?;
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&analysis)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
