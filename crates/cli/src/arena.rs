//! `pyramidion arena`: two bots play seeded paired games; score, win rate and Elo difference
//! with 95% intervals, optionally an SPRT that stops the match once it is decided.
//!
//! Pair `i` uses seed `seed + i` and is played once per seat: in game `r` of the pair the
//! first bot sits at seat `r` and the second bot fills every other seat, so both bots see the
//! same deals from every seat. Results are taken in pair order (never completion order), so a
//! run is reproducible whatever the thread count, SPRT stop included.
use crate::bots::parse_bots;
use crate::game_args::{game_parser, options_json};
use anyhow::{Context, Result, bail};
use clap::Args;
use pyramidion_ai::Bot;
use pyramidion_ai::arena::{EloEstimate, Sprt, SprtDecision, elo_estimate, game_score};
use pyramidion_ai::level::BotLevel;
use pyramidion_ai::seed::seat_seed;
use pyramidion_core::{Rules, Seed, ToMove};
use pyramidion_games::{GameKind, dispatch};
use rayon::prelude::*;
use serde::Serialize;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The game (a registered key, listed by `--help`).
    #[arg(long, value_parser = game_parser(), default_value_t = GameKind::ALL[0])]
    pub game: GameKind,
    /// Number of players (seats): the first bot takes one seat, the second every other.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// The two bots, `A,B` (level names, search:N or reference-2026-11, each with optional
    /// `+` options: docs/bots.md, "Search specs"): A is the bot under test.
    #[arg(long)]
    pub bots: String,
    /// Number of pairs (games are pairs × players). With --sprt: the most pairs to play.
    #[arg(long, default_value_t = 100)]
    pub pairs: u64,
    /// Seed of the first pair; pair i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: Seed,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also write the result as JSON into this file (rewritten each minute with the pairs
    /// completed so far, `"complete": false`, until the final report).
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
    /// Sequential test `elo0,elo1,alpha,beta` (e.g. 0,50,0.05,0.05): stop when decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Seconds between two rewrites of the --json file with the pairs completed so far
    /// (scripts/bots-figures stops each match at a time slice and keeps its last rewrite).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_seconds: u64,
}

/// One finished pair.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairResult {
    /// Mean score of bot A over the pair's games.
    score: f64,
    games: u32,
    /// Games where A ranked first (shared or not), and where a B seat did.
    a_wins: u32,
    b_wins: u32,
    a_points: i64,
    b_points: i64,
    b_seats: u32,
    /// Decisions and thinking time of each bot.
    a_moves: u64,
    a_time: Duration,
    b_moves: u64,
    b_time: Duration,
    /// Each bot's longest decision.
    a_slowest: Duration,
    b_slowest: Duration,
}

fn play_pair<G: Rules>(
    options: &G::Options,
    seed: Seed,
    bots: [BotLevel; 2],
) -> Result<PairResult> {
    let mut result = PairResult::default();
    let seats = G::new(options, seed)
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .seats() as usize;
    for a_seat in 0..seats {
        let mut game = G::new(options, seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut players: Vec<Box<dyn Bot<G>>> = (0..seats)
            .map(|s| {
                let level = if s == a_seat { bots[0] } else { bots[1] };
                level.make::<G>(seat_seed(seed, s))
            })
            .collect();
        while let ToMove::Seat(s) = game.to_move() {
            let start = Instant::now();
            let m = players[s.index()].choose(&game);
            let spent = start.elapsed();
            if s.index() == a_seat {
                result.a_moves += 1;
                result.a_time += spent;
                result.a_slowest = result.a_slowest.max(spent);
            } else {
                result.b_moves += 1;
                result.b_time += spent;
                result.b_slowest = result.b_slowest.max(spent);
            }
            game.play(&m)
                .map_err(|e| anyhow::anyhow!("seed {seed}: bot move '{m}' refused: {e}"))?;
        }
        let outcome = game.outcome().context("finished game without outcome")?;
        result.games += 1;
        result.score += game_score(&outcome.ranks, a_seat);
        result.a_wins += u32::from(outcome.ranks[a_seat] == 0);
        result.b_wins += u32::from((0..seats).any(|s| s != a_seat && outcome.ranks[s] == 0));
        for (s, &points) in outcome.scores.iter().enumerate() {
            if s == a_seat {
                result.a_points += points as i64;
            } else {
                result.b_points += points as i64;
                result.b_seats += 1;
            }
        }
    }
    result.score /= result.games as f64;
    Ok(result)
}

#[derive(Serialize)]
pub(crate) struct BotReport {
    pub(crate) bot: String,
    pub(crate) games: u32,
    /// Its mean score against the other bot (win 1, tie ½, loss 0) and the Elo difference
    /// over it, with 95% intervals (the match's one estimate, seen from this bot).
    pub(crate) against_the_other: EloEstimate,
    /// Share of games it ranked first in (shared or not), with a 95% interval.
    pub(crate) win_rate: f64,
    pub(crate) win_rate_low: f64,
    pub(crate) win_rate_high: f64,
    pub(crate) mean_points: f64,
    /// Mean thinking time per decision, in milliseconds.
    pub(crate) ms_per_move: f64,
    /// The longest decision, in milliseconds.
    pub(crate) slowest_ms: f64,
}

#[derive(Serialize)]
pub(crate) struct Report {
    pub(crate) game: GameKind,
    pub(crate) players: u8,
    pub(crate) seed: Seed,
    pub(crate) pairs: usize,
    pub(crate) games: u32,
    /// A's mean score (win 1, tie ½, loss 0) and its Elo difference over B, 95% intervals.
    pub(crate) a_over_b: EloEstimate,
    pub(crate) bots: [BotReport; 2],
    pub(crate) sprt: Option<SprtReport>,
    /// False in the checkpoints a running match writes (the pairs completed so far).
    pub(crate) complete: bool,
}

#[derive(Serialize)]
pub(crate) struct SprtReport {
    #[serde(flatten)]
    test: Sprt,
    llr: f64,
    lower_bound: f64,
    upper_bound: f64,
    decision: SprtDecision,
}

fn wilson(k: u32, n: u32) -> (f64, f64) {
    pyramidion_ai::arena::wilson(k as f64, n as f64)
}

/// What one match plays: `pairs` pairs from `seed`, bot A against bot B.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatchSpec {
    pub game: GameKind,
    pub players: u8,
    pub bots: [BotLevel; 2],
    pub pairs: u64,
    pub seed: Seed,
    pub sprt: Option<Sprt>,
    pub threads: usize,
}

/// Called every `every` with the pairs completed so far (in pair order): a long run in the
/// background saves how far it is (`arena --json`, once a minute), so that stopping it loses
/// little.
#[derive(Copy, Clone)]
pub(crate) struct Checkpoint<'a> {
    pub every: Duration,
    pub save: &'a (dyn Fn(&[PairResult]) + Sync),
}

pub(crate) fn run_match<G: Rules>(
    options: &G::Options,
    spec: &MatchSpec,
    checkpoint: Option<Checkpoint>,
) -> Result<Vec<PairResult>> {
    let MatchSpec {
        bots,
        sprt,
        threads,
        ..
    } = *spec;
    let slots: Mutex<Vec<Option<PairResult>>> = Mutex::new(vec![None; spec.pairs as usize]);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let progress = std::io::stderr().is_terminal();
    // The decided prefix: pairs 0..decided_at, when the SPRT stops.
    let mut decided_at = None;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    std::thread::scope(|scope| {
        // Pairs are handed out in order (`par_bridge` pulls from the sequential range), so the
        // completed prefix the SPRT reads grows steadily whatever the thread count.
        scope.spawn(|| {
            pool.install(|| {
                (0..spec.pairs).par_bridge().for_each(|i| {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    match play_pair::<G>(options, spec.seed + i, bots) {
                        Ok(r) => slots.lock().expect("no poisoned lock")[i as usize] = Some(r),
                        Err(e) => {
                            *failure.lock().expect("no poisoned lock") = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                })
            })
        });
        let mut checked = 0usize;
        let mut last_line = Instant::now();
        let mut last_checkpoint = Instant::now();
        loop {
            let finished =
                done.load(Ordering::Relaxed) >= spec.pairs || stop.load(Ordering::Relaxed);
            if let Some(sprt) = sprt {
                // Only the completed prefix counts, so the stop is the same whatever the
                // threads.
                let slots = slots.lock().expect("no poisoned lock");
                let prefix = slots.iter().take_while(|s| s.is_some()).count();
                let scores: Vec<f64> = slots[..prefix]
                    .iter()
                    .map(|s| s.as_ref().expect("prefix").score)
                    .collect();
                for n in checked.max(2)..=prefix {
                    if sprt.decide(&scores[..n]) != SprtDecision::Continue {
                        decided_at = Some(n);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                checked = prefix.max(checked);
            }
            if last_line.elapsed() >= Duration::from_secs(60) {
                last_line = Instant::now();
                if !progress {
                    // Not a terminal (a long run in the background): a line a minute, so
                    // that its log says how far it is.
                    let n = done.load(Ordering::Relaxed).min(spec.pairs);
                    eprintln!("{n}/{} pairs", spec.pairs);
                }
            }
            if let Some(checkpoint) = checkpoint
                && last_checkpoint.elapsed() >= checkpoint.every
            {
                last_checkpoint = Instant::now();
                let slots = slots.lock().expect("no poisoned lock");
                let prefix: Vec<PairResult> = slots.iter().map_while(|s| s.clone()).collect();
                drop(slots);
                (checkpoint.save)(&prefix);
            }
            if progress {
                let n = done.load(Ordering::Relaxed).min(spec.pairs);
                let filled = (n * 30 / spec.pairs.max(1)) as usize;
                eprint!(
                    "\r[{}{}] {n}/{} pairs",
                    "#".repeat(filled),
                    " ".repeat(30 - filled),
                    spec.pairs
                );
            }
            if finished || decided_at.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        if progress {
            eprintln!();
        }
    });
    if let Some(e) = failure.into_inner().expect("no poisoned lock") {
        return Err(e);
    }
    let slots = slots.into_inner().expect("no poisoned lock");
    let prefix = slots.iter().take_while(|s| s.is_some()).count();
    let take = decided_at.unwrap_or(prefix);
    Ok(slots
        .into_iter()
        .take(take)
        .map(|s| s.expect("prefix"))
        .collect())
}

pub(crate) fn report(spec: &MatchSpec, pairs: &[PairResult]) -> Report {
    let (bots, sprt) = (spec.bots, spec.sprt);
    let scores: Vec<f64> = pairs.iter().map(|p| p.score).collect();
    let games: u32 = pairs.iter().map(|p| p.games).sum();
    let sum = |f: fn(&PairResult) -> u64| pairs.iter().map(f).sum::<u64>();
    let a_wins = sum(|p| p.a_wins as u64) as u32;
    let b_wins = sum(|p| p.b_wins as u64) as u32;
    let a_ms = pairs
        .iter()
        .map(|p| p.a_time)
        .sum::<Duration>()
        .as_secs_f64()
        * 1000.0;
    let b_ms = pairs
        .iter()
        .map(|p| p.b_time)
        .sum::<Duration>()
        .as_secs_f64()
        * 1000.0;
    let b_seats = sum(|p| p.b_seats as u64).max(1) as f64;
    let slowest = |f: fn(&PairResult) -> Duration| {
        pairs.iter().map(f).max().unwrap_or_default().as_secs_f64() * 1000.0
    };
    let (aw_low, aw_high) = wilson(a_wins, games);
    let (bw_low, bw_high) = wilson(b_wins, games);
    let g = games.max(1) as f64;
    Report {
        game: spec.game,
        players: spec.players,
        seed: spec.seed,
        pairs: pairs.len(),
        games,
        a_over_b: elo_estimate(&scores),
        bots: [
            BotReport {
                bot: bots[0].name().into_owned(),
                games,
                against_the_other: elo_estimate(&scores),
                win_rate: a_wins as f64 / g,
                win_rate_low: aw_low,
                win_rate_high: aw_high,
                mean_points: pairs.iter().map(|p| p.a_points).sum::<i64>() as f64 / g,
                ms_per_move: a_ms / sum(|p| p.a_moves).max(1) as f64,
                slowest_ms: slowest(|p| p.a_slowest),
            },
            BotReport {
                bot: bots[1].name().into_owned(),
                games,
                against_the_other: elo_estimate(&scores).for_the_other(),
                win_rate: b_wins as f64 / g,
                win_rate_low: bw_low,
                win_rate_high: bw_high,
                mean_points: pairs.iter().map(|p| p.b_points).sum::<i64>() as f64 / b_seats,
                ms_per_move: b_ms / sum(|p| p.b_moves).max(1) as f64,
                slowest_ms: slowest(|p| p.b_slowest),
            },
        ],
        sprt: sprt.map(|test| {
            let (lower_bound, upper_bound) = test.bounds();
            SprtReport {
                test,
                llr: test.llr(&scores),
                lower_bound,
                upper_bound,
                decision: test.decide(&scores),
            }
        }),
        complete: true,
    }
}

fn print(r: &Report) -> Result<()> {
    outln!(
        "{} {} players: {} pairs, {} games (seeds {}..={})",
        r.game,
        r.players,
        r.pairs,
        r.games,
        r.seed,
        r.seed + (r.pairs as u64).saturating_sub(1)
    )?;
    outln!(
        "{:<14}{:>10}{:>20}{:>13}{:>13}{:>13}",
        "bot",
        "win rate",
        "95% interval",
        "mean points",
        "ms/move",
        "slowest ms"
    )?;
    for b in &r.bots {
        outln!(
            "{:<14}{:>9.1}%{:>11.1}–{:<7.1}{:>13.1}{:>13.2}{:>13.0}",
            b.bot,
            100.0 * b.win_rate,
            100.0 * b.win_rate_low,
            100.0 * b.win_rate_high,
            b.mean_points,
            b.ms_per_move,
            b.slowest_ms
        )?;
    }
    let e = &r.a_over_b;
    // A score of 0 or 1 has an infinite Elo difference.
    let elo = |x: f64, s: f64| {
        if s >= 1.0 {
            "+inf".to_string()
        } else if s <= 0.0 {
            "-inf".to_string()
        } else {
            format!("{x:+.0}")
        }
    };
    outln!(
        "{} over {}: score {:.3} ({:.3}–{:.3}), Elo {} ({} to {}), 95%",
        r.bots[0].bot,
        r.bots[1].bot,
        e.score,
        e.score_low,
        e.score_high,
        elo(e.elo, e.score),
        elo(e.elo_low, e.score_low),
        elo(e.elo_high, e.score_high)
    )?;
    if let Some(s) = &r.sprt {
        outln!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} in ({:.2}, {:.2}): {}",
            s.test.elo0,
            s.test.elo1,
            s.test.alpha,
            s.test.beta,
            s.llr,
            s.lower_bound,
            s.upper_bound,
            match s.decision {
                SprtDecision::AcceptH1 => "H1 accepted (the change is better)",
                SprtDecision::AcceptH0 => "H0 accepted (the change is rejected)",
                SprtDecision::Continue => "undecided",
            }
        )?;
    }
    Ok(())
}

/// Plays `spec`'s match in its game.
pub(crate) fn play_match(
    spec: &MatchSpec,
    checkpoint: Option<Checkpoint>,
) -> Result<Vec<PairResult>> {
    let options_value = options_json(spec.game, spec.players, &[])?;
    Ok(dispatch!(spec.game, G => {
        let options: <G as Rules>::Options = serde_json::from_value(options_value)
            .with_context(|| format!("options for {}", spec.game))?;
        G::new(&options, spec.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        run_match::<G>(&options, spec, checkpoint)?
    }))
}

pub fn run(args: ArenaArgs) -> Result<()> {
    if args.pairs == 0 {
        bail!("--pairs must be at least 1");
    }
    if args.players < 2 {
        bail!("an arena needs at least 2 players (use `sim --solo` against an automa)");
    }
    let list = parse_bots(&args.bots, 2)?;
    if args.bots.split(',').count() != 2 {
        bail!("--bots takes exactly two bots, A,B");
    }
    let bots = [list[0], list[1]];
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!(e))?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let spec = MatchSpec {
        game: args.game,
        players: args.players,
        bots,
        pairs: args.pairs,
        seed: args.seed,
        sprt,
        threads,
    };
    // The JSON file holds the completed pairs so far, rewritten each minute (its `pairs` and
    // `complete` say how far), then the final report.
    let save = |pairs: &[PairResult], complete: bool| -> Result<()> {
        let Some(path) = &args.json else {
            return Ok(());
        };
        let mut report = report(&spec, pairs);
        report.complete = complete;
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))
    };
    let checkpoint = |pairs: &[PairResult]| {
        if let Err(e) = save(pairs, false) {
            eprintln!("{e:#}");
        }
    };
    let checkpoint = Checkpoint {
        every: Duration::from_secs(args.checkpoint_seconds),
        save: &checkpoint,
    };
    let pairs = play_match(&spec, Some(checkpoint))?;
    let report = report(&spec, &pairs);
    print(&report)?;
    save(&pairs, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_known_values() {
        let (low, high) = wilson(50, 100);
        assert!((low - 0.4038).abs() < 1e-3 && (high - 0.5962).abs() < 1e-3);
        let (low, high) = wilson(100, 100);
        assert!(low > 0.96 && (high - 1.0).abs() < 1e-9);
    }

    /// The checkpoint sees the completed pairs in pair order, never fewer than the time
    /// before, each exactly the pair the final result has at that place.
    #[test]
    fn checkpoints_save_the_completed_prefix_in_pair_order() {
        let spec = MatchSpec {
            game: GameKind::ALL[0],
            players: 2,
            bots: [BotLevel::Random, BotLevel::Greedy],
            pairs: 12,
            seed: 3,
            sprt: None,
            threads: 2,
        };
        let seen: Mutex<Vec<Vec<f64>>> = Mutex::new(Vec::new());
        let save = |pairs: &[PairResult]| {
            let scores = pairs.iter().map(|p| p.score).collect();
            seen.lock().expect("no poisoned lock").push(scores);
        };
        let checkpoint = Checkpoint {
            every: Duration::ZERO,
            save: &save,
        };
        let pairs = play_match(&spec, Some(checkpoint)).expect("the match runs");
        let scores: Vec<f64> = pairs.iter().map(|p| p.score).collect();
        let seen = seen.into_inner().expect("no poisoned lock");
        assert!(!seen.is_empty(), "no checkpoint was taken");
        let mut before = 0;
        for prefix in &seen {
            assert!(prefix.len() >= before, "a checkpoint lost pairs");
            assert_eq!(prefix[..], scores[..prefix.len()]);
            before = prefix.len();
        }
    }
}
