//! Complete random games per second, single thread: every decision is uniform among
//! `legal_moves`. Run with `cargo run --release -p pyramidion-pyramido --example pyramido_speed [games] [players]`.
//!
//! Uniform players resurface almost every time they may (48 resurfacing moves against one
//! `pass`), so they run out of cards early and most are eliminated at their first hole on
//! stage 1: such games are short. A second run keeps every other decision uniform but always
//! passes on resurfacing, which keeps the cards for holes and makes longer games.
use pyramidion_core::rules::{Rules, ToMove};
use pyramidion_core::{GameRng, Seat};
use pyramidion_pyramido::{Game, Move, Options, Status};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let players: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    run(games, players, false);
    run(games, players, true);
}

fn run(games: u64, players: u8, keep_cards: bool) {
    let options = Options::players(players);
    let mut rng = GameRng::from_seed(2023);
    let mut moves = Vec::with_capacity(128);
    let mut plies = 0u64;
    let mut eliminated = 0u64;
    let mut went_the_distance = 0u64;
    let mut score_sum = 0i64;
    let start = Instant::now();
    for seed in 0..games {
        let mut game = Game::new(&options, seed).expect("setup");
        while let ToMove::Seat(_) = game.to_move() {
            game.legal_moves(&mut moves);
            let m = if keep_cards && moves[0] == Move::Pass {
                Move::Pass
            } else {
                moves[rng.below(moves.len() as u32) as usize]
            };
            game.play_unchecked(&m);
        }
        plies += game.ply() as u64;
        let out = game.outcome().expect("over");
        score_sum += out.scores.iter().map(|&s| s as i64).sum::<i64>();
        let dead = (0..players)
            .filter(|&s| game.player(Seat(s)).status() == Status::Eliminated)
            .count();
        eliminated += dead as u64;
        if game.players().iter().all(|p| p.scores().len() == 4) {
            went_the_distance += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let policy = if keep_cards {
        "uniform but never resurfacing"
    } else {
        "uniform"
    };
    println!(
        "{games} {players}-player games ({policy}) in {secs:.2} s: {:.0} games/s, {:.1} M plies/s",
        games as f64 / secs,
        plies as f64 / secs / 1e6
    );
    println!(
        "  {:.1} plies per game; {:.2} eliminations per game; {:.1}% of games with all players through stage 4; mean score {:.1}",
        plies as f64 / games as f64,
        eliminated as f64 / games as f64,
        100.0 * went_the_distance as f64 / games as f64,
        score_sum as f64 / (games * players as u64) as f64
    );
}
