//! `pyramidion analyse RECORD`: for every decision of every seat, the expected final points
//! of the move played and of the best move the search finds, from that seat's information
//! only, and the points lost (`pyramidion_ai::analysis`, which the server's "Analyse" uses
//! too). Flags: `inaccuracy` from 2 points lost, `mistake` from 5, `blunder` from 10.
use crate::replay::read_record;
use anyhow::{Context, Result};
use clap::Args;
use pyramidion_ai::analysis::{AnalysisConfig, Totals, analyse_record};
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

pub fn run(args: AnalyseArgs) -> Result<()> {
    let record = read_record(&args.file)?;
    let config = AnalysisConfig {
        iterations: args.iterations,
        samples: args.samples,
        seed: args.seed,
    };
    let analysis =
        analyse_record(&record, config).with_context(|| format!("{}", args.file.display()))?;
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
        let line = |t: &Totals| {
            format!(
                "{} decisions, {:.1} points lost, {} inaccuracies, {} mistakes, {} blunders",
                t.decisions, t.lost, t.inaccuracies, t.mistakes, t.blunders
            )
        };
        outln!("seat {}: {}", s.seat, line(&s.game))?;
        for stage in &s.stages {
            outln!(
                "  {} {}: {}",
                analysis.stage_name,
                stage.stage,
                line(&stage.totals)
            )?;
        }
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&analysis)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
