//! The native half of the WebAssembly speed figures (docs/performance.md, "The engines in
//! WebAssembly"): the same work as `node crates/wasm/node/speed.mjs` times in the module, built
//! with the module's own profile.
//!
//!     cargo run --profile wasm -p pyramidion-wasm --features speed --example speed -- [SECONDS] [POSITIONS]
//!
//! Per game: random 2-player games per second (best and median of 5 rounds sharing SECONDS,
//! default 5) and `max`'s mean time per move over POSITIONS positions (default 6; the moves it
//! chose are printed so that both sides can be seen to have timed the same work). Seconds are
//! the thread's own time on a processor (Linux's `/proc/thread-self/schedstat`), not the wall
//! clock's: on a shared machine other work stretches the wall time of both sides unequally.
use pyramidion_games::GameKind;
use pyramidion_wasm::speed::{positions, random_games};
const ROUNDS: u32 = 5;

/// Seconds this thread has run on a processor (the first field of its schedstat, in ns).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux's schedstat");
    let ns: u64 = stat
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("run time");
    ns as f64 / 1e9
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    for &kind in GameKind::ALL {
        let d = kind.descriptor();
        let players = d.seats.min.max(2).min(d.seats.max);
        let options = format!(r#"{{"players":{players}}}"#);
        // Rounds of whole batches of 20 games, each round about SECONDS / ROUNDS long.
        let mut rates: Vec<f64> = (0..ROUNDS)
            .map(|round| {
                let start = cpu_seconds();
                let mut games = 0u64;
                while cpu_seconds() - start < seconds / f64::from(ROUNDS) {
                    random_games(
                        kind.key(),
                        &options,
                        1 + u64::from(round) * 1_000_000 + games,
                        20,
                    )
                    .expect("random games play");
                    games += 20;
                }
                games as f64 / (cpu_seconds() - start)
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        let positions = positions(kind.key(), 11, count).expect("positions");
        let start = cpu_seconds();
        let chosen: Vec<String> = positions
            .iter()
            .map(|p| p.bot_move("max", 5).expect("a seat to move"))
            .collect();
        let per_move = (cpu_seconds() - start) * 1000.0 / positions.len() as f64;
        println!(
            "{}: random {players}-player games/s best {:.0} median {:.0}; max {:.1} ms/move over {} positions ({})",
            kind.key(),
            rates[rates.len() - 1],
            rates[rates.len() / 2],
            per_move,
            positions.len(),
            chosen.join(" | ")
        );
    }
}
