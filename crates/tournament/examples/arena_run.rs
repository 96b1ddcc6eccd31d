//! Plays a simulated Arena and measures its pool: `cargo run --release -p
//! pyramidion-tournament --example arena-run [PLAYERS...]`. Prints a Markdown table of
//! docs/tournaments.md.
//!
//! Every player joins at the start; each game lasts a random 3 to 9 minutes; the server's
//! pairing runs every 2 seconds of simulated clock for an hour, with a patience of 20 s, then
//! of 60 s. It
//! reports the tables formed, the share of tables that repeat a pair from the players' last
//! game and of the very same table again, the mean and longest wait between tables, and the
//! time of `Arena::pair` (mean / slowest, wall clock).
use pyramidion_core::GameRng;
use pyramidion_tournament::{Arena, ArenaConfig, ArenaState, PlayerId, TableFormat, TableResult};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const TICK: u64 = 2_000;
const HOUR: u64 = 3_600_000;
/// Patience values compared, in milliseconds.
const PATIENCES: [u64; 2] = [20_000, 60_000];

fn random_result(rng: &mut GameRng, seats: usize) -> TableResult {
    let scores: Vec<i64> = (0..seats).map(|_| i64::from(rng.below(4))).collect();
    let places = scores
        .iter()
        .map(|s| scores.iter().filter(|t| *t > s).count() as u8)
        .collect();
    TableResult { places, scores }
}

fn main() {
    let fields: Vec<usize> = {
        let args: Vec<usize> = std::env::args()
            .skip(1)
            .map(|a| a.parse().expect("a player count"))
            .collect();
        if args.is_empty() { vec![30, 300] } else { args }
    };
    println!(
        "| seats | players | patience s | tables | with a last-game pair | same table again \
         | mean / longest wait s | mean / slowest pair ms |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for seats in 2..=5u8 {
        for (&players, patience) in fields
            .iter()
            .flat_map(|p| PATIENCES.iter().map(move |&t| (p, t)))
        {
            let format = TableFormat::new(seats, true).expect("2 to 5 seats");
            let config = ArenaConfig {
                format,
                starts_at: 0,
                duration: HOUR,
                patience,
                seed: 1,
            };
            let mut arena = Arena::new(config).expect("a valid arena");
            for i in 0..players {
                arena
                    .join(PlayerId::new(format!("p{i}")), 0)
                    .expect("a new player");
            }
            let mut rng = GameRng::from_seed(seats as u64 * 1000 + players as u64);
            let mut ends: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
            let (mut rematch, mut same, mut waits, mut waited, mut longest) =
                (0, 0, 0u64, 0u64, 0u64);
            let (mut time, mut slowest, mut calls) = (Duration::ZERO, Duration::ZERO, 0u32);
            let mut now = 0;
            while now < HOUR {
                // Tables ending by now.
                let due: Vec<u64> = ends.range(..=now).map(|(&t, _)| t).collect();
                for t in due {
                    for table in ends.remove(&t).unwrap_or_default() {
                        let size = arena.tables[table].players.len();
                        let result = random_result(&mut rng, size);
                        arena.record(table, result, now).expect("a valid result");
                    }
                }
                let before = arena.clone();
                let start = Instant::now();
                let formed = arena.pair(now).expect("the arena runs");
                let took = start.elapsed();
                time += took;
                slowest = slowest.max(took);
                calls += 1;
                for table in formed {
                    let ids = &arena.tables[table].players;
                    let lasts: Vec<Option<usize>> = ids
                        .iter()
                        .map(|id| {
                            let p = before
                                .players
                                .iter()
                                .find(|p| &p.id == id)
                                .expect("a player");
                            if let ArenaState::Waiting { since } = p.state {
                                let w = now - since;
                                waits += 1;
                                waited += w;
                                longest = longest.max(w);
                            }
                            p.last_table
                        })
                        .collect();
                    let pairs = (0..lasts.len()).any(|a| {
                        (a + 1..lasts.len()).any(|b| lasts[a].is_some() && lasts[a] == lasts[b])
                    });
                    rematch += u32::from(pairs);
                    same += u32::from(
                        lasts[0].is_some()
                            && lasts.iter().all(|l| *l == lasts[0])
                            && before.tables[lasts[0].unwrap_or(0)].players.len() == ids.len(),
                    );
                    let length = 180_000 + u64::from(rng.below(360_000));
                    ends.entry(now + length).or_default().push(table);
                }
                now += TICK;
            }
            let tables = arena.tables.len() as f64;
            println!(
                "| {seats} | {players} | {} | {} | {:.1} % | {:.1} % | {:.1} / {:.0} | {:.2} / {:.1} |",
                patience / 1000,
                arena.tables.len(),
                100.0 * f64::from(rematch) / tables,
                100.0 * f64::from(same) / tables,
                waited as f64 / waits.max(1) as f64 / 1000.0,
                longest as f64 / 1000.0,
                time.as_secs_f64() * 1000.0 / f64::from(calls),
                slowest.as_secs_f64() * 1000.0,
            );
        }
    }
}
