//! `pyramidion analyse-check --game G --games N`: whether the analysis can be trusted, on
//! seeded 2-player games of a search level (`max` unless `--level` says otherwise) against
//! `greedy`, seats alternating:
//! - sane: the share of games in which the search level loses fewer points than greedy
//!   (target: at least 90%);
//! - stable: on the first `--agreement-games` of them, analysed again with a second seed, the
//!   share of decisions whose flag both seeds agree on (target: at least 90%) and of seats
//!   whose totals agree within 15% or 2 points.
//!
//! docs/analysis.md gives the figures and the exact commands.
use crate::game_args::options_json;
use crate::sim::play_game;
use anyhow::{Context, Result};
use clap::Args;
use pyramidion_ai::analysis::{Analysis, AnalysisConfig, analyse_record};
use pyramidion_ai::any::BotLevel;
use pyramidion_core::Rules;
use pyramidion_core::record::Record;
use pyramidion_games::{GameKind, dispatch};
use rayon::prelude::*;

#[derive(Args, Debug)]
pub struct AnalyseCheckArgs {
    /// The game.
    #[arg(long, value_parser = crate::game_args::game_parser())]
    pub game: GameKind,
    /// Games played and analysed (the sanity figure).
    #[arg(long, default_value_t = 50)]
    pub games: u32,
    /// Of those, how many are analysed with a second seed too (the agreement figures).
    #[arg(long, default_value_t = 20)]
    pub agreement_games: u32,
    /// The level that plays `greedy`.
    #[arg(long, default_value = "max")]
    pub level: String,
    /// Playouts per decision of the analysis; default: the judge's (4 × `max`).
    #[arg(long)]
    pub budget: Option<u32>,
    /// First game seed (game i has seed SEED + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The two analysis seeds compared.
    #[arg(long, default_value_t = 1)]
    pub analysis_seed: u64,
    #[arg(long, default_value_t = 2)]
    pub second_seed: u64,
    /// Games checked at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// One game's figures.
#[derive(Default, Clone)]
struct Checked {
    /// Points lost by the search level and by greedy (first seed).
    level_lost: f64,
    greedy_lost: f64,
    /// Decisions, and those whose flag both seeds agree on (when compared).
    decisions: usize,
    agreeing: usize,
    /// Seats compared, and those whose totals agree within 15% or 2 points.
    seats: usize,
    seats_agreeing: usize,
    compared: bool,
}

/// Totals agree within 15% of the larger, or 2 points.
pub fn totals_agree(a: f64, b: f64) -> bool {
    (a - b).abs() <= 2.0_f64.max(0.15 * a.abs().max(b.abs()))
}

/// The share of decisions whose flag agrees, and whether each seat's total agrees.
pub fn agreement(a: &Analysis, b: &Analysis) -> (usize, usize, Vec<bool>) {
    let agreeing = a
        .decisions
        .iter()
        .zip(&b.decisions)
        .filter(|(x, y)| x.ply == y.ply && x.flag == y.flag)
        .count();
    let seats = a
        .seats
        .iter()
        .zip(&b.seats)
        .map(|(x, y)| totals_agree(x.game.lost, y.game.lost))
        .collect();
    (a.decisions.len(), agreeing, seats)
}

fn check_game<G: Rules>(args: &AnalyseCheckArgs, level: BotLevel, i: u32) -> Result<Checked> {
    let options: G::Options = serde_json::from_value(options_json(args.game, 2, &[])?)?;
    let seed = args.seed + u64::from(i);
    // Seats alternate, so neither side always moves first.
    let level_seat = (i % 2) as usize;
    let mut bots = [BotLevel::Greedy, BotLevel::Greedy];
    bots[level_seat] = level;
    let mut record = Record::new(G::DESCRIPTOR.key, &options, seed);
    play_game::<G>(&options, seed, &bots, Some(&mut record))?;
    let config = |s: u64| match args.budget {
        Some(budget) => AnalysisConfig { budget, seed: s },
        None => AnalysisConfig::judge(G::DESCRIPTOR, s),
    };
    let first = analyse_record(&record, config(args.analysis_seed))
        .with_context(|| format!("game seed {seed}"))?;
    let mut out = Checked {
        level_lost: first.seats[level_seat].game.lost,
        greedy_lost: first.seats[1 - level_seat].game.lost,
        ..Checked::default()
    };
    if i < args.agreement_games {
        let second = analyse_record(&record, config(args.second_seed))
            .with_context(|| format!("game seed {seed}"))?;
        let (decisions, agreeing, seats) = agreement(&first, &second);
        out.decisions = decisions;
        out.agreeing = agreeing;
        out.seats = seats.len();
        out.seats_agreeing = seats.iter().filter(|s| **s).count();
        out.compared = true;
    }
    Ok(out)
}

pub fn run(args: AnalyseCheckArgs) -> Result<()> {
    let level: BotLevel = args.level.parse()?;
    // The games run on a rayon pool of `threads` threads; each game's seeds are fixed, so the
    // figures do not depend on which thread checked what.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build()
        .context("cannot start the worker threads")?;
    let mut all: Vec<(u32, Checked)> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|i| {
                let checked = dispatch!(args.game, G => check_game::<G>(&args, level, i))?;
                eprintln!(
                    "game {}: {} lost {:.1}, greedy lost {:.1}{}",
                    i + 1,
                    args.level,
                    checked.level_lost,
                    checked.greedy_lost,
                    if checked.compared {
                        format!(
                            "; flags agree {}/{}, seat totals agree {}/{}",
                            checked.agreeing,
                            checked.decisions,
                            checked.seats_agreeing,
                            checked.seats
                        )
                    } else {
                        String::new()
                    }
                );
                Ok((i, checked))
            })
            .collect::<Result<Vec<_>>>()
    })?;
    all.sort_by_key(|(i, _)| *i);
    let games = all.len().max(1) as f64;
    let sane = all
        .iter()
        .filter(|(_, c)| c.level_lost < c.greedy_lost)
        .count();
    let mean = |f: fn(&Checked) -> f64| all.iter().map(|(_, c)| f(c)).sum::<f64>() / games;
    let budget = args.budget.map_or_else(
        || {
            AnalysisConfig::judge(args.game.descriptor(), 0)
                .budget
                .to_string()
        },
        |b| b.to_string(),
    );
    outln!(
        "{}, 2 players, {} vs greedy, {} playouts per decision, analysis seeds {} and {}",
        args.game,
        args.level,
        budget,
        args.analysis_seed,
        args.second_seed
    )?;
    outln!(
        "sanity: {} lost fewer points than greedy in {sane} of {} games ({:.0}%); mean points lost: {} {:.1}, greedy {:.1}",
        args.level,
        all.len(),
        100.0 * sane as f64 / games,
        args.level,
        mean(|c| c.level_lost),
        mean(|c| c.greedy_lost)
    )?;
    let compared: Vec<&Checked> = all.iter().map(|(_, c)| c).filter(|c| c.compared).collect();
    let sum = |f: fn(&Checked) -> usize| compared.iter().map(|c| f(c)).sum::<usize>();
    let (decisions, agreeing) = (sum(|c| c.decisions), sum(|c| c.agreeing));
    let (seats, seats_agreeing) = (sum(|c| c.seats), sum(|c| c.seats_agreeing));
    outln!(
        "agreement over {} games: flags agree on {agreeing} of {decisions} decisions ({:.1}%); seat totals within 15% or 2 points: {seats_agreeing} of {seats} ({:.0}%)",
        compared.len(),
        100.0 * agreeing as f64 / decisions.max(1) as f64,
        100.0 * seats_agreeing as f64 / seats.max(1) as f64
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_agree_within_15_percent_or_2_points() {
        assert!(totals_agree(0.0, 2.0));
        assert!(!totals_agree(0.0, 2.1));
        assert!(totals_agree(100.0, 86.0));
        assert!(!totals_agree(100.0, 84.0));
    }
}
