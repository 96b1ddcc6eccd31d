//! `pyramidion sim`: many seeded bot games, in parallel, with per-seat statistics.
use crate::bots::parse_bots;
use crate::game_args::GameChoice;
use anyhow::{Context, Result, bail};
use clap::Args;
use pyramidion_ai::Bot;
use pyramidion_ai::level::BotLevel;
use pyramidion_ai::seed::seat_seed;
use pyramidion_core::record::Record;
use pyramidion_core::{Rules, Seed, ToMove};
use pyramidion_games::dispatch;
use rayon::prelude::*;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
#[command(after_help = format!("Games:\n{}", crate::game_args::games_help()))]
pub struct SimArgs {
    #[command(flatten)]
    pub choice: GameChoice,
    /// Bots per seat, comma separated: a game's bot levels (listed below), search:N
    /// (iterations per decision) or reference-2026-11, each with optional `+` options
    /// (docs/bots.md, "Search specs"); one name applies to every seat.
    #[arg(long, default_value = "random")]
    pub bots: String,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: Seed,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write every game's record (text form) into this directory as `<game>-<seed>.txt`.
    #[arg(long)]
    pub records: Option<std::path::PathBuf>,
}

#[derive(Default, Clone)]
pub struct Stats {
    pub games: u64,
    pub plies: u64,
    pub score_sum: Vec<i64>,
    /// Rank 0, shared or not.
    pub wins: Vec<u64>,
    /// Rank 0 shared with another seat.
    pub shared: Vec<u64>,
    pub automa_sum: i64,
    pub automa_wins: u64,
    /// Each seat's bot thinking.
    pub thinking: Vec<Thinking>,
}

/// A bot's decisions, their total and their longest thinking time.
#[derive(Default, Clone, Copy)]
pub struct Thinking {
    pub decisions: u64,
    pub total: Duration,
    pub slowest: Duration,
}

impl Thinking {
    fn record(&mut self, spent: Duration) {
        self.decisions += 1;
        self.total += spent;
        self.slowest = self.slowest.max(spent);
    }

    fn add(&mut self, other: &Thinking) {
        self.decisions += other.decisions;
        self.total += other.total;
        self.slowest = self.slowest.max(other.slowest);
    }
}

impl Stats {
    fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.plies += other.plies;
        self.automa_sum += other.automa_sum;
        self.automa_wins += other.automa_wins;
        for (a, b) in self.score_sum.iter_mut().zip(&other.score_sum) {
            *a += b;
        }
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        for (a, b) in self.shared.iter_mut().zip(&other.shared) {
            *a += b;
        }
        self.add_thinking(&other.thinking);
    }

    fn add_thinking(&mut self, thinking: &[Thinking]) {
        for (a, b) in self.thinking.iter_mut().zip(thinking) {
            a.add(b);
        }
    }
}

/// One game's result: its plies, outcome, and each seat's bot thinking (decisions with a
/// choice, total time, longest decision).
pub struct GamePlayed {
    pub plies: u32,
    pub outcome: pyramidion_core::Outcome,
    pub thinking: Vec<Thinking>,
}

/// Plays one game with the given bots, timing every decision, and appends the moves to
/// `record` when given.
pub fn play_game<G: Rules>(
    options: &G::Options,
    seed: Seed,
    bots: &[BotLevel],
    mut record: Option<&mut Record>,
) -> Result<GamePlayed> {
    let mut game = G::new(options, seed).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut players: Vec<Box<dyn Bot<G>>> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| b.make::<G>(seat_seed(seed, i)))
        .collect();
    let mut thinking = vec![Thinking::default(); bots.len()];
    while let ToMove::Seat(s) = game.to_move() {
        let start = Instant::now();
        let m = players[s.index()].choose(&game);
        thinking[s.index()].record(start.elapsed());
        game.play(&m)
            .map_err(|e| anyhow::anyhow!("seed {seed}: bot move '{m}' refused: {e}"))?;
        if let Some(r) = record.as_deref_mut() {
            r.push(&m);
        }
    }
    let outcome = game.outcome().context("finished game without outcome")?;
    Ok(GamePlayed {
        plies: game.ply(),
        outcome,
        thinking,
    })
}

fn run_batch<G: Rules>(
    options: &G::Options,
    bots: &[BotLevel],
    args: &SimArgs,
    threads: usize,
) -> Result<(Stats, Duration)> {
    let seats = bots.len();
    let empty = Stats {
        score_sum: vec![0; seats],
        wins: vec![0; seats],
        shared: vec![0; seats],
        thinking: vec![Thinking::default(); seats],
        ..Default::default()
    };
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let show_progress = std::io::stderr().is_terminal();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let play_one = |mut stats: Stats, i: u64| -> Result<Stats> {
        let seed = args.seed + i;
        let mut record = args
            .records
            .as_ref()
            .map(|_| Record::new(G::DESCRIPTOR.key, options, seed));
        let played = play_game::<G>(options, seed, bots, record.as_mut())?;
        let (plies, outcome) = (played.plies, played.outcome);
        stats.add_thinking(&played.thinking);
        if let (Some(dir), Some(mut record)) = (&args.records, record) {
            record.result = Some(outcome.scores.clone());
            let path = dir.join(format!("{}-{seed}.txt", G::DESCRIPTOR.key));
            let bots: Vec<String> = bots.iter().map(|b| b.name().into_owned()).collect();
            let text = format!("# bots: {}\n{}", bots.join(","), record.to_text());
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        stats.games += 1;
        stats.plies += plies as u64;
        let winners = outcome.ranks.iter().filter(|&&r| r == 0).count();
        for (s, (&score, &rank)) in outcome.scores.iter().zip(&outcome.ranks).enumerate() {
            stats.score_sum[s] += score as i64;
            if rank == 0 {
                stats.wins[s] += 1;
                if winners > 1 {
                    stats.shared[s] += 1;
                }
            }
        }
        if let Some(a) = outcome.automa {
            stats.automa_sum += a as i64;
            stats.automa_wins += u64::from(outcome.ranks[0] != 0);
        }
        done.fetch_add(1, Ordering::Relaxed);
        Ok(stats)
    };
    // The games run on a rayon pool of `threads` threads (each game's seed is fixed, so the
    // totals do not depend on which thread played what); this thread draws the progress bar.
    let total: Result<Stats> = std::thread::scope(|scope| {
        let batch = scope.spawn(|| {
            pool.install(|| {
                (0..args.games)
                    .into_par_iter()
                    .try_fold(|| empty.clone(), play_one)
                    .try_reduce(
                        || empty.clone(),
                        |mut a, b| {
                            a.merge(&b);
                            Ok(a)
                        },
                    )
            })
        });
        if show_progress {
            while !batch.is_finished() {
                let n = done.load(Ordering::Relaxed);
                let filled = (n * 30 / args.games.max(1)) as usize;
                eprint!(
                    "\r[{}{}] {n}/{} games",
                    "#".repeat(filled),
                    " ".repeat(30 - filled),
                    args.games
                );
                std::thread::sleep(Duration::from_millis(100));
            }
            eprintln!("\r[{}] {}/{} games", "#".repeat(30), args.games, args.games);
        }
        batch.join().expect("the batch panicked")
    });
    let elapsed = start.elapsed();
    Ok((total?, elapsed))
}

fn report(
    args: &SimArgs,
    bots: &[BotLevel],
    stats: &Stats,
    elapsed: Duration,
    threads: usize,
) -> Result<()> {
    let n = stats.games.max(1) as f64;
    outln!(
        "{}: {} games (seeds {}..={}), {} thread{}",
        args.choice.game,
        stats.games,
        args.seed,
        args.seed + stats.games.saturating_sub(1),
        threads,
        if threads == 1 { "" } else { "s" }
    )?;
    if let Some(mode) = &args.choice.solo {
        outln!("solo mode: {mode}")?;
        outln!(
            "player ({}) mean score: {:.2}",
            bots[0].name(),
            stats.score_sum[0] as f64 / n
        )?;
        outln!("automa mean score: {:.2}", stats.automa_sum as f64 / n)?;
        let (low, high) = pyramidion_ai::arena::wilson(stats.wins[0] as f64, n);
        outln!(
            "player win rate: {:.2}% ({} of {}; Wilson 95%: {:.1}–{:.1}%)",
            100.0 * stats.wins[0] as f64 / n,
            stats.wins[0],
            stats.games,
            100.0 * low,
            100.0 * high
        )?;
    } else {
        outln!(
            "{:<6}{:<8}{:>12}{:>11}{:>13}",
            "seat",
            "bot",
            "mean score",
            "win rate",
            "shared wins"
        )?;
        for (s, bot) in bots.iter().enumerate() {
            outln!(
                "{:<6}{:<8}{:>12.2}{:>10.2}%{:>12.2}%",
                s,
                bot.name(),
                stats.score_sum[s] as f64 / n,
                100.0 * stats.wins[s] as f64 / n,
                100.0 * stats.shared[s] as f64 / n
            )?;
        }
    }
    outln!("mean game length: {:.1} moves", stats.plies as f64 / n)?;
    for (s, bot) in bots.iter().enumerate() {
        let d = stats.thinking[s].decisions.max(1) as f64;
        outln!(
            "seat {s} ({}) thinking: {:.1} ms per move on average, slowest move {:.0} ms ({} moves)",
            bot.name(),
            stats.thinking[s].total.as_secs_f64() * 1000.0 / d,
            stats.thinking[s].slowest.as_secs_f64() * 1000.0,
            stats.thinking[s].decisions
        )?;
    }
    outln!(
        "speed: {:.0} games/s ({:.2} s)",
        stats.games as f64 / elapsed.as_secs_f64(),
        elapsed.as_secs_f64()
    )?;
    Ok(())
}

pub fn run(args: SimArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let seats = args.choice.players() as usize;
    let bots = parse_bots(&args.bots, seats)?;
    // Ladder levels (and specs built on one) must be the game's (its descriptor); `search:N`
    // and the reference fit any game.
    let ladder: Vec<&str> = bots.iter().filter_map(|b| b.rung()).collect();
    crate::game_args::check_bot_levels(args.choice.game, &ladder)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let options_value = args.choice.options_json()?;
    dispatch!(args.choice.game, G => {
        let options: <G as Rules>::Options = serde_json::from_value(options_value)
            .with_context(|| format!("options for {}", args.choice.game))?;
        G::new(&options, args.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        let (stats, elapsed) = run_batch::<G>(&options, &bots, &args, threads)?;
        report(&args, &bots, &stats, elapsed, threads)
    })
}
