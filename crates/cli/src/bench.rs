//! `pyramidion bench`: engine speed, single thread, one figure per line as `name: value unit`.
//! Like shakmaty's benches, it first asserts the counts it is about to time.
use crate::game_args::{game_parser, options_json};
use anyhow::{Result, ensure};
use clap::Args;
use pyramidion_ai::search::{Playout, Search, SearchConfig};
use pyramidion_ai::seed::seat_seed;
use pyramidion_ai::{Bot, Greedy, RandomBot};
use pyramidion_core::{BotHooks, Rules, ToMove};
use pyramidion_games::{GameKind, dispatch};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game.
    #[arg(long, value_parser = game_parser(), default_value_t = GameKind::ALL[0])]
    pub game: GameKind,
    /// Seconds spent on each figure, split into rounds.
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
}

/// Rounds per figure. Other work on the machine (a neighbour on a shared host, a build) only
/// ever slows a round down, so the best round is the engine's speed and the median shows the
/// spread: on the 2-core build machine, back-to-back runs of one binary differ by up to 15%.
const ROUNDS: u32 = 5;

/// A figure's best and median round, in operations per second.
struct Rate {
    best: f64,
    median: f64,
}

/// Runs `f` (which returns how many operations it did) for `ROUNDS` rounds sharing `budget`.
fn rate(budget: Duration, mut f: impl FnMut() -> u64) -> Rate {
    let round = budget / ROUNDS;
    let mut rates: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let mut ops = 0;
            while start.elapsed() < round {
                ops += f();
            }
            ops as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    Rate {
        best: rates[rates.len() - 1],
        median: rates[rates.len() / 2],
    }
}

/// Complete games (setup to final ranking), every decision by the uniform random bot.
fn random_games_per_second<G: Rules>(options: &G::Options, budget: Duration) -> Rate {
    let mut seed = 0;
    let mut bot = RandomBot::<G::Move>::new(7);
    rate(budget, || {
        seed += 1;
        let mut game = G::new(options, seed).expect("valid options");
        while let ToMove::Seat(_) = game.to_move() {
            let m = bot.choose(&game);
            game.play(&m).expect("legal");
        }
        black_box(game.outcome());
        1
    })
}

/// Complete 2-player games with every decision by the greedy bot (the search bot's playout
/// policy, so its speed bounds the guided search's).
fn greedy_games_per_second<G: Rules>(options: &G::Options, budget: Duration) -> Rate {
    let mut seed = 0;
    let mut bot = Greedy::new(7);
    rate(budget, || {
        seed += 1;
        let mut game = G::new(options, seed).expect("valid options");
        while let ToMove::Seat(_) = game.to_move() {
            let m = bot.choose(&game);
            game.play(&m).expect("legal");
        }
        black_box(game.outcome());
        1
    })
}

/// Search iterations per second from the first position of 2-player games (new seed each
/// search), with uniform or greedy-guided playouts. The iterations counted are those the
/// search ran (its root's visits): the move cap can stop a search before its budget.
fn search_iterations<G: Rules>(options: &G::Options, playout: Playout, budget: Duration) -> Rate {
    const ITERATIONS: u32 = 100;
    let mut seed = 0;
    rate(budget, || {
        seed += 1;
        let game = G::new(options, seed).expect("valid options");
        let config = SearchConfig {
            iterations: ITERATIONS,
            playout,
            ..SearchConfig::default()
        };
        let stats = black_box(Search::<G>::new(config, seat_seed(seed, 0)).analyse(&game));
        stats.iter().map(|s| u64::from(s.visits)).sum::<u64>()
    })
}

/// Prints the search speed figures of 2-player games.
fn print_search<G: Rules>(options: &G::Options, budget: Duration) -> Result<()> {
    print_games(
        "greedy 2-player games",
        greedy_games_per_second::<G>(options, budget),
    )?;
    let uniform = search_iterations::<G>(options, Playout::Uniform, budget);
    outln!(
        "search, 2-player, uniform playouts: {:.0} iterations/s",
        uniform.best
    )?;
    let guided = Playout::Greedy {
        random_per_mille: 100,
    };
    let guided = search_iterations::<G>(options, guided, budget);
    outln!(
        "search, 2-player, greedy playouts: {:.0} iterations/s",
        guided.best
    )?;
    Ok(())
}

/// Prints a games-per-second figure: the best round, then the median round.
fn print_games(name: &str, rate: Rate) -> Result<()> {
    outln!("{name}: {:.0} games/s", rate.best)?;
    outln!("{name}, median round: {:.0} games/s", rate.median)?;
    Ok(())
}

pub fn run(args: BenchArgs) -> Result<()> {
    ensure!(args.seconds > 0.0, "--seconds must be positive");
    let budget = Duration::from_secs_f64(args.seconds);
    let d = args.game.descriptor();
    dispatch!(args.game, G => {
        // Random games at every table size, most players first.
        for players in (d.seats.min..=d.seats.max).rev() {
            let options: <G as Rules>::Options =
                serde_json::from_value(options_json(args.game, players, &[])?)?;
            let solo: Vec<String> = d
                .options
                .iter()
                .filter(|o| !o.players.is_empty() && o.applies_to(players))
                .map(|o| format!("{}={}", o.key, o.default))
                .collect();
            let name = if solo.is_empty() {
                format!("random {players}-player games")
            } else {
                format!("random {players}-player games ({})", solo.join(", "))
            };
            print_games(&name, random_games_per_second::<G>(&options, budget))?;
        }
        // Search speed at a 2-player table (or the fewest seats the game has).
        let players = d.seats.min.max(2).min(d.seats.max);
        let options: <G as Rules>::Options =
            serde_json::from_value(options_json(args.game, players, &[])?)?;
        print_search::<G>(&options, budget)?;
        for mut case in G::bench_cases() {
            let per_second = rate(budget, &mut case.run);
            outln!("{}: {:.0} ns", case.name, 1e9 / per_second.best)?;
        }
        Ok(())
    })
}
