//! `pyramidion bench`: engine speed, single thread, one figure per line as `name: value unit`.
//! Like shakmaty's benches, it first asserts the counts it is about to time.
use anyhow::{Result, ensure};
use clap::Args;
use pyramidion_ai::search::{Playout, Search, SearchConfig};
use pyramidion_ai::{Bot, Greedy, RandomBot};
use pyramidion_core::geometry::{Dir, Placement, Pyramid};
use pyramidion_core::{GameKind, Rules, ToMove};
use pyramidion_games::treasures::{self, Game as Treasures, Options, SoloMode};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[arg(long, default_value = "forgotten-treasures")]
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

/// Search iterations per second from the first position of 2-player games (new seed each
/// search), with uniform or greedy-guided playouts.
fn search_iterations<G: Rules>(options: &G::Options, playout: Playout, budget: Duration) -> Rate
where
    Greedy: Bot<G>,
{
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
        black_box(Search::<G>::new(config, seed).analyse(&game));
        ITERATIONS as u64
    })
}

/// Prints the search speed figures of 2-player games.
fn print_search<G: Rules>(options: &G::Options, budget: Duration) -> Result<()>
where
    Greedy: Bot<G>,
{
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

/// Stage-1 pyramids at every fill level, and stage-end (pyramid, gems) pairs, from random games.
fn sample_positions() -> (Vec<Pyramid>, Vec<(Pyramid, treasures::Gems)>) {
    let mut stage_one = Vec::new();
    let mut scoring = Vec::new();
    let mut bot = RandomBot::<treasures::Move>::new(3);
    for seed in 0..200 {
        let mut game = Treasures::new(&Options::multiplayer(4), seed).expect("valid");
        while let ToMove::Seat(s) = game.to_move() {
            let p = game.player(s);
            match game.phase() {
                treasures::Phase::Place if p.pyramid().stage() == 0 => {
                    stage_one.push(p.pyramid().clone())
                }
                treasures::Phase::Activate
                    if game.scoring().is_some_and(|s| s.activations().is_empty()) =>
                {
                    scoring.push((p.pyramid().clone(), p.gems()))
                }
                _ => {}
            }
            let m = bot.choose(&game);
            game.play(&m).expect("legal");
        }
    }
    (stage_one, scoring)
}

fn placements(p: &Pyramid) -> u64 {
    let mut n = 0;
    p.legal(|_| n += 1);
    n
}

fn check_counts() -> Result<()> {
    let mut p = Pyramid::default();
    ensure!(placements(&p) == 4, "empty stage 1 must have 4 moves");
    p.place(&Placement::new(4, 4, Dir::E), [Default::default(); 2]);
    ensure!(
        placements(&p) == 32,
        "one horizontal domino must leave 32 moves"
    );
    Ok(())
}

fn treasures_bench(budget: Duration) -> Result<()> {
    check_counts()?;
    print_games(
        "random 4-player games",
        random_games_per_second::<Treasures>(&Options::multiplayer(4), budget),
    )?;
    print_games(
        "random 2-player games",
        random_games_per_second::<Treasures>(&Options::multiplayer(2), budget),
    )?;
    print_games(
        "random solo games (Become THE Legend)",
        random_games_per_second::<Treasures>(&Options::solo(SoloMode::TheLegend), budget),
    )?;
    let (stage_one, scoring) = sample_positions();
    let expected: u64 = stage_one.iter().map(placements).sum();
    let per_second = rate(budget, || {
        let mut total = 0;
        for p in &stage_one {
            total += placements(black_box(p));
        }
        assert_eq!(total, expected);
        stage_one.len() as u64
    });
    outln!(
        "stage-1 legal placement generation: {:.0} ns",
        1e9 / per_second.best
    )?;
    let per_second = rate(budget, || {
        for (p, gems) in &scoring {
            let areas = treasures::scoring::scorable_areas(black_box(p));
            black_box(treasures::allocation::best_plan(
                areas.areas(),
                u128::MAX,
                *gems,
            ));
        }
        scoring.len() as u64
    });
    outln!(
        "stage scoring (top view, areas, exact gem allocation): {:.0} ns",
        1e9 / per_second.best
    )?;
    let per_second = rate(budget, || {
        for (p, _) in &scoring {
            black_box(black_box(p).top_view().areas());
        }
        scoring.len() as u64
    });
    outln!("top-view areas: {:.0} ns", 1e9 / per_second.best)?;
    Ok(())
}

pub fn run(args: BenchArgs) -> Result<()> {
    ensure!(args.seconds > 0.0, "--seconds must be positive");
    let budget = Duration::from_secs_f64(args.seconds);
    match args.game {
        GameKind::ForgottenTreasures => {
            treasures_bench(budget)?;
            print_search::<Treasures>(&Options::multiplayer(2), budget)
        }
        GameKind::Pyramido => {
            use pyramidion_games::pyramido::{Game, Options};
            for players in [4, 2, 3] {
                let rate = random_games_per_second::<Game>(&Options { players }, budget);
                print_games(&format!("random {players}-player games"), rate)?;
            }
            print_search::<Game>(&Options { players: 2 }, budget)
        }
        GameKind::Pyramids => {
            use pyramidion_games::pyramids::{Game, Options};
            for players in [4, 2, 5] {
                let rate = random_games_per_second::<Game>(&Options { players }, budget);
                print_games(&format!("random {players}-player games"), rate)?;
            }
            print_search::<Game>(&Options { players: 2 }, budget)
        }
    }
}
