//! `pyramidion analyse RECORD`: for every decision of every seat, the expected final points
//! of the move played and of the best candidate, from that seat's information only, and the
//! points lost with their 95% interval (`pyramidion_ai::analysis`, which the server's
//! "Analyse" uses too). Flags (`inaccuracy` from 2 points lost, `mistake` from 5, `blunder`
//! from 10) only where the interval's lower end passes the threshold.
use crate::replay::read_record;
use anyhow::{Context, Result};
use clap::Args;
use pyramidion_ai::analysis::{AnalysisConfig, Totals};
use pyramidion_core::record::Record;
use pyramidion_games::GameKind;
use pyramidion_games::analysis::{analyse_record, analyse_record_seeing};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// Record file, text or JSON form (`-` for standard input).
    pub file: PathBuf,
    /// Playouts per decision; default: the judge's, 4 times the game's `max` level.
    #[arg(long)]
    pub budget: Option<u32>,
    /// Seed of the analysis (the same seed gives the same report).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// What a future is worth to the seat judged: `margin` (its points minus the best other
    /// seat's, the judge's) or `points` (its own final points, for comparison).
    #[arg(long, default_value = "margin")]
    pub measure: pyramidion_ai::analysis::Measure,
    /// Also write the report as JSON into this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Futures per candidate at the most (default: the judge's); more only to study the judge,
    /// with `--values`.
    #[arg(long)]
    pub max_futures: Option<u32>,
    /// Also write every decision's candidates' values into this file, one JSON line per
    /// decision (`ply`, `seat`, `played`: the index of the move played among the candidates,
    /// `values[c][i]`: candidate c's points in future i; the candidates kept to the end of the
    /// futures' race, on the same futures), to study the judge's estimates
    /// (`scripts/judge-estimates`, docs/analysis.md).
    #[arg(long)]
    pub values: Option<PathBuf>,
}

pub fn run(args: AnalyseArgs) -> Result<()> {
    let record = read_record(&args.file)?;
    let config = config_for(&record, &args)?;
    let analysis = match &args.values {
        None => analyse_record(&record, config),
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            let mut written = Ok(());
            let analysis = analyse_record_seeing(&record, config, |d, played, values| {
                let line = serde_json::json!({"ply": d.ply, "seat": d.seat, "played": played, "values": values});
                if written.is_ok() {
                    written = writeln!(out, "{line}");
                }
            });
            written
                .and_then(|()| out.flush())
                .with_context(|| format!("cannot write {}", path.display()))?;
            analysis
        }
    }
    .with_context(|| format!("{}", args.file.display()))?;
    outln!(
        "{:>5} {:>4}  {:<16}{:>8}  {:<16}{:>8}{:>7}  {:<15} flag",
        "ply",
        "seat",
        "played",
        "points",
        "best",
        "points",
        "lost",
        "95% interval"
    )?;
    for d in &analysis.decisions {
        outln!(
            "{:>5} {:>4}  {:<16}{:>8.1}  {:<16}{:>8.1}{:>7.1}  {:<15} {}",
            d.ply + 1,
            d.seat,
            d.played,
            d.played_points,
            d.best,
            d.best_points,
            d.lost,
            format!("{:.1}..{:.1}", d.lost_low, d.lost_high),
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

/// The judge's config for `record`'s game, with the arguments' seed and measure, and their
/// playouts per decision when given.
fn config_for(record: &Record, args: &AnalyseArgs) -> Result<AnalysisConfig> {
    let kind: GameKind = record.game.parse()?;
    let judge = AnalysisConfig::judge(kind.descriptor(), args.seed);
    if args.budget == Some(0) {
        anyhow::bail!("--budget must be at least 1");
    }
    if args.max_futures == Some(0) {
        anyhow::bail!("--max-futures must be at least 1");
    }
    Ok(AnalysisConfig {
        budget: args.budget.unwrap_or(judge.budget),
        measure: args.measure,
        max_futures: args.max_futures.unwrap_or(judge.max_futures),
        ..judge
    })
}
