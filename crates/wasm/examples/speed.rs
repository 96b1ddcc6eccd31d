//! The native half of the WebAssembly speed figures (docs/performance.md, "The engines in
//! WebAssembly"): the same work as `node crates/wasm/node/speed.mjs` times in the module, built
//! with the module's own profile.
//!
//!     cargo run --profile wasm -p pyramidion-wasm --example speed -- [SECONDS] [POSITIONS]
//!
//! Per game: random 2-player games per second (best and median of 5 rounds sharing SECONDS,
//! default 5) and `max`'s mean time per move over POSITIONS positions (default 6; the moves it
//! chose are printed so that both sides can be seen to have timed the same work).
use pyramidion_games::GameKind;
use pyramidion_wasm::speed::{positions, random_games};
use std::time::Instant;

const ROUNDS: u32 = 5;

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
                let start = Instant::now();
                let mut games = 0u64;
                while start.elapsed().as_secs_f64() < seconds / f64::from(ROUNDS) {
                    random_games(
                        kind.key(),
                        &options,
                        1 + u64::from(round) * 1_000_000 + games,
                        20,
                    )
                    .expect("random games play");
                    games += 20;
                }
                games as f64 / start.elapsed().as_secs_f64()
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        let positions = positions(kind.key(), 11, count).expect("positions");
        let start = Instant::now();
        let chosen: Vec<String> = positions
            .iter()
            .map(|p| p.bot_move("max", 5).expect("a seat to move"))
            .collect();
        let per_move = start.elapsed().as_secs_f64() * 1000.0 / positions.len() as f64;
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
