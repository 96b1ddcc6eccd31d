//! Tuning runs of the search bot (not part of the tests): `cargo run --release -p
//! pyramidion-ai --example tune -- GAME PLAYERS ITER PLAYOUT EPS MARGIN_W C GAMES [OPP]`.
//! Environment: `WIDEN` (progressive widening), `HORIZON` (stage ends a playout looks ahead;
//! 0 plays to the end).
use pyramidion_ai::search::{Playout, Search, SearchConfig};
use pyramidion_ai::seed::seat_seed;
use pyramidion_ai::{Bot, Greedy};
use pyramidion_core::{Rules, ToMove};
use std::time::Instant;

fn run<G: Rules>(options: G::Options, config: SearchConfig, games: u64, seats: usize) {
    let start = Instant::now();
    let (mut wins, mut score, mut opp, mut decisions) = (0.0, 0.0, 0.0, 0u64);
    for seed in 1..=games {
        let mut game = G::new(&options, seed).unwrap();
        let search_seat = (seed as usize) % seats;
        let mut bots: Vec<Box<dyn Bot<G>>> = (0..seats)
            .map(|s| -> Box<dyn Bot<G>> {
                if s == search_seat {
                    Box::new(Search::<G>::new(config, seat_seed(seed, s)))
                } else {
                    Box::new(Greedy::new(seat_seed(seed, s)))
                }
            })
            .collect();
        while let ToMove::Seat(s) = game.to_move() {
            if s.index() == search_seat {
                decisions += 1;
            }
            let m = bots[s.index()].choose(&game);
            game.play(&m).unwrap();
        }
        let o = game.outcome().unwrap();
        if o.ranks[search_seat] == 0 {
            wins += 1.0;
        }
        score += o.scores[search_seat] as f64;
        if seed % 10 == 0 {
            eprintln!("after {seed}: {wins} wins");
        }
        opp += o.automa.map(|a| a as f64).unwrap_or_else(|| {
            o.scores
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != search_seat)
                .map(|(_, s)| *s as f64)
                .sum::<f64>()
                / (seats - 1) as f64
        });
    }
    let n = games as f64;
    println!(
        "{config:?}: win {:.1}% score {:.1} opp {:.1} ms/decision {:.1}",
        100.0 * wins / n,
        score / n,
        opp / n,
        start.elapsed().as_secs_f64() * 1000.0 / decisions as f64
    );
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let game = a[0].as_str();
    let players: u8 = a[1].parse().unwrap();
    let iterations: u32 = a[2].parse().unwrap();
    let eps: u32 = a[4].parse().unwrap();
    let playout = if a[3] == "uniform" {
        Playout::Uniform
    } else {
        Playout::Greedy {
            random_per_mille: eps,
        }
    };
    let config = SearchConfig {
        iterations,
        playout,
        margin_weight: a[5].parse().unwrap(),
        exploration: a[6].parse().unwrap(),
        widening: std::env::var("WIDEN")
            .map(|w| w.parse().unwrap())
            .unwrap_or(1.0),
        horizon_stages: std::env::var("HORIZON")
            .map(|w| w.parse().unwrap())
            .unwrap_or(SearchConfig::default().horizon_stages),
        ..SearchConfig::default()
    };
    let games: u64 = a[7].parse().unwrap();
    let json = if players == 1 {
        serde_json::json!({"players": 1, "solo": a.get(8).map(String::as_str).unwrap_or("the-legend")})
    } else {
        serde_json::json!({ "players": players })
    };
    let seats = players as usize;
    match game {
        "ft" => run::<pyramidion_treasures::Game>(
            serde_json::from_value(json).unwrap(),
            config,
            games,
            seats,
        ),
        "pyramido" => run::<pyramidion_pyramido::Game>(
            serde_json::from_value(json).unwrap(),
            config,
            games,
            seats,
        ),
        _ => run::<pyramidion_pyramids::Game>(
            serde_json::from_value(json).unwrap(),
            config,
            games,
            seats,
        ),
    }
}
