//! Complete random games per second, single thread: every decision uniform among
//! `legal_moves`, from setup to the final ranking.
//!
//! `cargo run --release -p pyramidion-pyramids --example pyramids_speed [-- PLAYERS [SECONDS]]`
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_pyramids::{Game, Options};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3.0);
    let options = Options { players };
    let mut rng = GameRng::from_seed(1);
    let mut moves = Vec::new();
    let (mut games, mut plies, mut points, mut winners) = (0u64, 0u64, 0i64, 0u64);
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    while start.elapsed() < budget {
        for _ in 0..1000 {
            let mut game = Game::new(&options, games).expect("valid options");
            while let ToMove::Seat(_) = game.to_move() {
                game.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u32) as usize];
                game.play(&m).expect("legal move");
            }
            let outcome = game.outcome().expect("game over");
            points += outcome.scores.iter().map(|&s| s as i64).sum::<i64>();
            winners += outcome.ranks.iter().filter(|&&r| r == 0).count() as u64;
            plies += game.ply() as u64;
            games += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{players} players: {games} games in {secs:.2} s = {:.0} games/s \
         ({:.1} plies/game, {:.1} M plies/s, mean score {:.1}, {:.3} winners/game)",
        games as f64 / secs,
        plies as f64 / games as f64,
        plies as f64 / secs / 1e6,
        points as f64 / (games * players as u64) as f64,
        winners as f64 / games as f64,
    );
}
