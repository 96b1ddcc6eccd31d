//! How noisy the judge's futures are, with and without random moves in their playouts (not
//! part of the tests): `cargo run --release -p pyramidion-ai --example judge_futures --
//! RECORD FUTURES`. For the decisions at plies 0, 20, 40… of a recorded game, it plays the
//! first three legal moves out on the same FUTURES futures (common random numbers, as the
//! judge does) with 0, 2% and 10% of the playouts' moves random, and prints the share of
//! futures in which a seat was eliminated (Pyramido) and the spread (standard deviation) of
//! the paired differences between the first move and each other: the noise a decision's loss
//! is measured through. docs/analysis.md ("Futures without random moves") has what it showed.
use pyramidion_ai::analysis::Measure;
use pyramidion_ai::search::{Playout, Search, SearchConfig};
use pyramidion_core::record::Record;
use pyramidion_core::{Outcome, Rules, ToMove};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(futures)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok()))
    else {
        eprintln!("usage: judge_futures RECORD FUTURES");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).expect("a readable record");
    let record = Record::parse(&text).expect("a record");
    match record.game.as_str() {
        "pyramido" => run::<pyramidion_pyramido::Game>(&record, futures),
        "forgotten-treasures" => run::<pyramidion_treasures::Game>(&record, futures),
        "pyramids" => run::<pyramidion_pyramids::Game>(&record, futures),
        other => eprintln!("unknown game {other}"),
    }
}

/// Whether some seat ranks below another before the points are compared (an elimination).
fn eliminated(outcome: &Outcome) -> bool {
    let seats = outcome.scores.len();
    (0..seats).any(|s| (0..seats).any(|o| o != s && outcome.behind_before_score(s, o)))
}

fn spread(a: &[f64], b: &[f64]) -> f64 {
    let diffs: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let mean = diffs.iter().sum::<f64>() / diffs.len() as f64;
    (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / diffs.len() as f64).sqrt()
}

fn run<G: Rules>(record: &Record, futures: u32) {
    let mut legal = Vec::new();
    for ply in (0..record.moves.len()).step_by(20) {
        let game: G = record.replay_prefix(Some(ply)).expect("the record replays");
        if !matches!(game.to_move(), ToMove::Seat(_)) {
            continue;
        }
        game.legal_moves(&mut legal);
        if legal.len() < 2 {
            continue;
        }
        for random_per_mille in [0, 20, 100] {
            let config = SearchConfig {
                playout: Playout::Greedy { random_per_mille },
                ..SearchConfig::default()
            };
            let mut search = Search::<G>::new(config, 7);
            let moves = &legal[..legal.len().min(3)];
            let values: Vec<Vec<f64>> = moves
                .iter()
                .map(|&m| {
                    search.playout_values(&game, m, 0..futures, 99, |o, s| {
                        Measure::Margin.of(o, s, G::DESCRIPTOR.forfeit_points)
                    })
                })
                .collect();
            let ended = search.playout_values(&game, moves[0], 0..futures, 99, |o, _| {
                f64::from(u8::from(eliminated(o)))
            });
            let share = ended.iter().sum::<f64>() / f64::from(futures);
            let spreads: Vec<String> = values[1..]
                .iter()
                .map(|v| format!("{:.1}", spread(&values[0], v)))
                .collect();
            println!(
                "ply {ply:3} ({} legal moves), {:4.1}% random: eliminated in {:3.0}% of \
                 futures, spread of the differences {}",
                legal.len(),
                f64::from(random_per_mille) / 10.0,
                share * 100.0,
                spreads.join(", ")
            );
        }
    }
}
