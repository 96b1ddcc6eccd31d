//! Measures how often Swiss pairing seats players who met before, and how long a pairing
//! takes: `cargo run --release -p pyramidion-tournament --example repeat-rates`. Prints the
//! Markdown table of docs/tournaments.md.
//!
//! For each table size, leftover policy and field size it plays seeded tournaments of
//! `ROUNDS` rounds with random results (ties included), then reports per round: the repeated
//! pairs, the share of rounds with at least one, and, where the field is small enough for the
//! exhaustive oracle (at most `ORACLE_MAX` seated), how many rounds kept a repeat the oracle
//! avoids.
use pyramidion_core::GameRng;
use pyramidion_tournament::oracle::fewest_repeats;
use pyramidion_tournament::{PlayerId, Swiss, SwissConfig, TableFormat, TableResult};
use std::time::{Duration, Instant};

const ROUNDS: u32 = 7;
const ORACLE_MAX: usize = 14;

#[derive(Default)]
struct Tally {
    rounds: u32,
    repeats: u32,
    rounds_with_repeats: u32,
    oracle_checked: u32,
    avoidable: u32,
    time: Duration,
    slowest: Duration,
}

fn random_result(rng: &mut GameRng, seats: usize) -> TableResult {
    let scores: Vec<i64> = (0..seats).map(|_| i64::from(rng.below(4))).collect();
    let places = scores
        .iter()
        .map(|s| scores.iter().filter(|t| *t > s).count() as u8)
        .collect();
    TableResult { places, scores }
}

fn play(format: TableFormat, players: usize, seed: u64, tally: &mut Tally) {
    let ids = (0..players).map(|i| PlayerId::new(format!("p{i}")));
    let config = SwissConfig {
        format,
        rounds: ROUNDS,
        seed,
    };
    let mut swiss = Swiss::new(config, ids).expect("a valid tournament");
    let mut rng = GameRng::from_seed(seed.wrapping_add(1));
    for _ in 0..ROUNDS {
        let meetings = swiss.meetings();
        let start = Instant::now();
        let pairing = swiss.pair_next_round().expect("a round").clone();
        let took = start.elapsed();
        tally.time += took;
        tally.slowest = tally.slowest.max(took);
        let repeats: u32 = pairing.tables.iter().map(|t| meetings.repeats(t)).sum();
        tally.rounds += 1;
        tally.repeats += repeats;
        tally.rounds_with_repeats += u32::from(repeats > 0);
        let seated: Vec<PlayerId> = pairing.tables.iter().flatten().cloned().collect();
        if repeats > 0 && seated.len() <= ORACLE_MAX {
            let sizes: Vec<usize> = pairing.tables.iter().map(Vec::len).collect();
            tally.oracle_checked += 1;
            tally.avoidable += u32::from(fewest_repeats(&seated, &sizes, &meetings) < repeats);
        }
        for (table, players) in pairing.tables.iter().enumerate() {
            let result = random_result(&mut rng, players.len());
            swiss
                .record(pairing.round, table, result)
                .expect("a valid result");
        }
    }
}

fn main() {
    let fields: [(usize, u64); 7] = [
        (7, 200),
        (10, 200),
        (13, 200),
        (24, 100),
        (50, 30),
        (100, 10),
        (300, 2),
    ];
    // Optional arguments: only these field sizes (e.g. `-- 300`).
    let only: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a field size"))
        .collect();
    println!(
        "| seats | leftover | players | rounds | repeated pairs / round | rounds with a repeat \
         | avoidable (checked) | mean / max pairing ms |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for seats in 2..=5u8 {
        for short in [false, true] {
            let format = TableFormat::new(seats, short).expect("2 to 5 seats");
            if short && !format.allows_short() {
                continue;
            }
            for &(players, tournaments) in &fields {
                if players < usize::from(seats) || !(only.is_empty() || only.contains(&players)) {
                    continue;
                }
                let mut tally = Tally::default();
                for seed in 0..tournaments {
                    play(format, players, seed, &mut tally);
                }
                let rounds = f64::from(tally.rounds);
                let checked = if tally.oracle_checked == 0 {
                    "-".to_string()
                } else {
                    format!("{} ({})", tally.avoidable, tally.oracle_checked)
                };
                println!(
                    "| {seats} | {} | {players} | {} | {:.3} | {:.1} % | {checked} | {:.2} / {:.1} |",
                    if short { "short tables" } else { "byes" },
                    tally.rounds,
                    f64::from(tally.repeats) / rounds,
                    100.0 * f64::from(tally.rounds_with_repeats) / rounds,
                    tally.time.as_secs_f64() * 1000.0 / rounds,
                    tally.slowest.as_secs_f64() * 1000.0,
                );
            }
        }
    }
}
