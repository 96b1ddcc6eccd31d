//! `pyramidion analyse-check --game G --games N`: whether the analysis can be trusted, on
//! seeded 2-player games of a search level (`max` unless `--level` says otherwise) against
//! `greedy`, seats alternating:
//! - sane: the share of games in which the search level loses fewer points than greedy
//!   (target: at least 90%);
//! - stable: on the first `--agreement-games` of them, analysed again with a second seed, the
//!   share of decisions whose flag both seeds agree on (target: at least 90%) and of seats
//!   whose totals agree within 15% or 2 points.
//!
//! A game's figures depend only on its seed (the search level sits in seat 0 in odd seeds, 1
//! in even ones) and the analysis seeds, so a check can be run in parts: each part appends
//! its games to a results file (`--results`), and `--from FILE` adds up what files hold
//! without playing anything.
//!
//! docs/analysis.md gives the figures and the exact commands.
use crate::game_args::options_json;
use crate::sim::play_game;
use anyhow::{Context, Result, bail};
use clap::Args;
use pyramidion_ai::analysis::{Analysis, AnalysisConfig, MAX_FUTURES, Measure};
use pyramidion_ai::level::BotLevel;
use pyramidion_core::Rules;
use pyramidion_core::record::Record;
use pyramidion_games::analysis::analyse_record;
use pyramidion_games::{GameKind, dispatch};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;

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
    /// What the judge measures: `margin` (points ahead of the other seat, the judge's) or
    /// `points` (own points, for comparison).
    #[arg(long, default_value = "margin")]
    pub measure: Measure,
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
    /// Appends each game's figures to this file (one JSON line per game) as soon as it is
    /// checked, so that a long check can be run in parts and stopped without losing them;
    /// the games the file already holds are not played again (the same command resumes).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Plays nothing: adds up the games of these results files (the same seed twice counts
    /// once; its figures must be the same).
    #[arg(long, num_args = 1..)]
    pub from: Vec<PathBuf>,
}

/// One game's figures, as a results file holds them.
#[derive(Default, Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Checked {
    game: String,
    /// The game's seed.
    seed: u64,
    /// The search level, the analysis budget per decision and the two analysis seeds: what
    /// must be the same for games to be added up.
    level: String,
    budget: u32,
    analysis_seeds: [u64; 2],
    /// What the judge measured (lines written before the margin have none: own points).
    #[serde(default = "own_points")]
    measure: Measure,
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
    /// Each seat's total by the two seeds, seat by seat (when compared): what says by how much
    /// a seat's totals disagree. Lines written before it have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seat_totals: Vec<[f64; 2]>,
}

/// The same figures, whether or not both lines hold the seat totals (older lines do not).
fn same_figures(a: &Checked, b: &Checked) -> bool {
    if a.seat_totals.is_empty() || b.seat_totals.is_empty() {
        let strip = |c: &Checked| Checked {
            seat_totals: Vec::new(),
            ..c.clone()
        };
        strip(a) == strip(b)
    } else {
        a == b
    }
}

fn own_points() -> Measure {
    Measure::Points
}

impl Checked {
    /// The same game's figures without the second seed's comparison.
    fn uncompared(self) -> Checked {
        Checked {
            decisions: 0,
            agreeing: 0,
            seats: 0,
            seats_agreeing: 0,
            compared: false,
            seat_totals: Vec::new(),
            ..self
        }
    }
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

/// The analysis budget per decision: `--budget`, or the judge's.
fn budget(args: &AnalyseCheckArgs) -> u32 {
    args.budget
        .unwrap_or_else(|| AnalysisConfig::judge(args.game.descriptor(), 0).budget)
}

/// Plays game `seed` and analyses it; with the second analysis seed too when it `compares`.
fn check_game<G: Rules>(
    args: &AnalyseCheckArgs,
    level: BotLevel,
    seed: u64,
    compares: bool,
) -> Result<Checked> {
    let options: G::Options = serde_json::from_value(options_json(args.game, 2, &[])?)?;
    // Seats alternate with the seed, so neither side always moves first and a game is the
    // same whichever part of a check plays it.
    let level_seat = ((seed + 1) % 2) as usize;
    let mut bots = [BotLevel::Greedy, BotLevel::Greedy];
    bots[level_seat] = level;
    let mut record = Record::new(G::DESCRIPTOR.key, &options, seed);
    play_game::<G>(&options, seed, &bots, Some(&mut record))?;
    let config = |seed: u64| AnalysisConfig {
        budget: budget(args),
        seed,
        measure: args.measure,
        max_futures: MAX_FUTURES,
    };
    let first = analyse_record(&record, config(args.analysis_seed))
        .with_context(|| format!("game seed {seed}"))?;
    let mut out = Checked {
        game: args.game.key().to_string(),
        seed,
        level: args.level.clone(),
        budget: budget(args),
        analysis_seeds: [args.analysis_seed, args.second_seed],
        measure: args.measure,
        level_lost: first.seats[level_seat].game.lost,
        greedy_lost: first.seats[1 - level_seat].game.lost,
        ..Checked::default()
    };
    if compares {
        let second = analyse_record(&record, config(args.second_seed))
            .with_context(|| format!("game seed {seed}"))?;
        let (decisions, agreeing, seats) = agreement(&first, &second);
        out.decisions = decisions;
        out.agreeing = agreeing;
        out.seats = seats.len();
        out.seats_agreeing = seats.iter().filter(|s| **s).count();
        out.compared = true;
        out.seat_totals = first
            .seats
            .iter()
            .zip(&second.seats)
            .map(|(a, b)| [a.game.lost, b.game.lost])
            .collect();
    }
    Ok(out)
}

pub fn run(args: AnalyseCheckArgs) -> Result<()> {
    let all = if args.from.is_empty() {
        play(&args)?
    } else {
        read_results(&args, &args.from)?.into_values().collect()
    };
    summarise(&args, &all)
}

/// Plays and analyses the games, appending each to the results file when asked. A game the
/// results file already holds (compared with the second seed, where this run compares it) is
/// taken from it, not played again: the same command resumes a stopped check.
fn play(args: &AnalyseCheckArgs) -> Result<Vec<Checked>> {
    let level: BotLevel = args.level.parse()?;
    let done = match &args.results {
        Some(path) if path.exists() => read_results(args, std::slice::from_ref(path))?,
        _ => BTreeMap::new(),
    };
    let results = match &args.results {
        Some(path) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?,
        )),
        None => None,
    };
    // The games run on a rayon pool of `threads` threads; each game's seeds are fixed, so the
    // figures do not depend on which thread checked what.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build()
        .context("cannot start the worker threads")?;
    let mut all: Vec<Checked> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|i| {
                let seed = args.seed + u64::from(i);
                let compares = i < args.agreement_games;
                if let Some(known) = done.get(&seed).filter(|c| c.compared || !compares) {
                    // Counted as this run would count it: compared only where it compares.
                    let known = if compares {
                        known.clone()
                    } else {
                        known.clone().uncompared()
                    };
                    eprintln!("{} (already in the results file)", game_line(&known));
                    return Ok(known);
                }
                let checked =
                    dispatch!(args.game, G => check_game::<G>(args, level, seed, compares))?;
                eprintln!("{}", game_line(&checked));
                if let Some(file) = &results {
                    let line = serde_json::to_string(&checked)?;
                    let mut file = file.lock().expect("no writer panics holding the file");
                    writeln!(file, "{line}").context("cannot append to the results file")?;
                }
                Ok(checked)
            })
            .collect::<Result<Vec<_>>>()
    })?;
    all.sort_by_key(|c| c.seed);
    Ok(all)
}

fn game_line(c: &Checked) -> String {
    format!(
        "game seed {}: {} lost {:.1}, greedy lost {:.1}{}",
        c.seed,
        c.level,
        c.level_lost,
        c.greedy_lost,
        if c.compared {
            format!(
                "; flags agree {}/{}, seat totals agree {}/{}{}",
                c.agreeing,
                c.decisions,
                c.seats_agreeing,
                c.seats,
                c.seat_totals
                    .iter()
                    .map(|[a, b]| format!(" {a:.1}|{b:.1}"))
                    .collect::<String>()
            )
        } else {
            String::new()
        }
    )
}

/// The games of the results files `paths`, one per seed, checked against the arguments.
fn read_results(args: &AnalyseCheckArgs, paths: &[PathBuf]) -> Result<BTreeMap<u64, Checked>> {
    let mut by_seed: BTreeMap<u64, Checked> = BTreeMap::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let place = || format!("{}:{}", path.display(), n + 1);
            let c: Checked = serde_json::from_str(line).with_context(place)?;
            let wanted = (
                args.game.key(),
                args.level.as_str(),
                budget(args),
                [args.analysis_seed, args.second_seed],
                args.measure,
            );
            if (
                c.game.as_str(),
                c.level.as_str(),
                c.budget,
                c.analysis_seeds,
                c.measure,
            ) != wanted
            {
                bail!(
                    "{}: a game of {} ({} at {} playouts, analysis seeds {:?}, measure {:?}), not of {:?}",
                    place(),
                    c.game,
                    c.level,
                    c.budget,
                    c.analysis_seeds,
                    c.measure,
                    wanted
                );
            }
            match by_seed.get_mut(&c.seed) {
                None => {
                    by_seed.insert(c.seed, c);
                }
                Some(known) => {
                    // The same game twice: its first analysis must be the same (the runs are
                    // deterministic); keep the one compared with the second seed.
                    if (known.level_lost, known.greedy_lost) != (c.level_lost, c.greedy_lost)
                        || (known.compared && c.compared && !same_figures(known, &c))
                    {
                        bail!("{}: seed {} differs from an earlier line", place(), c.seed);
                    }
                    if c.compared {
                        *known = c;
                    }
                }
            }
        }
    }
    Ok(by_seed)
}

/// Seeds as ranges: "1–5, 11–25".
fn seed_ranges(seeds: impl IntoIterator<Item = u64>) -> String {
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for s in seeds {
        match ranges.last_mut() {
            Some((_, end)) if *end + 1 == s => *end = s,
            _ => ranges.push((s, s)),
        }
    }
    let text: Vec<String> = ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}–{b}")
            }
        })
        .collect();
    if text.is_empty() {
        "none".into()
    } else {
        text.join(", ")
    }
}

fn summarise(args: &AnalyseCheckArgs, all: &[Checked]) -> Result<()> {
    let games = all.len().max(1) as f64;
    let sane = all.iter().filter(|c| c.level_lost < c.greedy_lost).count();
    let mean = |f: fn(&Checked) -> f64| all.iter().map(f).sum::<f64>() / games;
    outln!(
        "{}, 2 players, {} vs greedy, {} playouts per decision, measure {:?}, analysis seeds {} and {}",
        args.game,
        args.level,
        budget(args),
        args.measure,
        args.analysis_seed,
        args.second_seed
    )?;
    outln!(
        "sanity: {} lost fewer points than greedy in {sane} of {} games ({:.0}%); mean points lost: {} {:.1}, greedy {:.1} (game seeds {})",
        args.level,
        all.len(),
        100.0 * sane as f64 / games,
        args.level,
        mean(|c| c.level_lost),
        mean(|c| c.greedy_lost),
        seed_ranges(all.iter().map(|c| c.seed))
    )?;
    let compared: Vec<&Checked> = all.iter().filter(|c| c.compared).collect();
    let sum = |f: fn(&Checked) -> usize| compared.iter().map(|c| f(c)).sum::<usize>();
    let (decisions, agreeing) = (sum(|c| c.decisions), sum(|c| c.agreeing));
    let (seats, seats_agreeing) = (sum(|c| c.seats), sum(|c| c.seats_agreeing));
    outln!(
        "agreement over {} games: flags agree on {agreeing} of {decisions} decisions ({:.1}%); seat totals within 15% or 2 points: {seats_agreeing} of {seats} ({:.0}%) (game seeds {})",
        compared.len(),
        100.0 * agreeing as f64 / decisions.max(1) as f64,
        100.0 * seats_agreeing as f64 / seats.max(1) as f64,
        seed_ranges(compared.iter().map(|c| c.seed))
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

    #[test]
    fn seeds_read_as_ranges() {
        assert_eq!(seed_ranges([1, 2, 3, 5, 11, 12]), "1–3, 5, 11–12");
        assert_eq!(seed_ranges([7]), "7");
        assert_eq!(seed_ranges([]), "none");
    }
}
