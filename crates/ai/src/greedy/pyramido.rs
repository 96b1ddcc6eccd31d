//! Greedy Pyramido (2023): the move with the best immediate gain.
//!
//! A move is judged by the position it leads to for the mover, looking through the rest of
//! the same decision where it has no value of its own (a `take` by the best placement of that
//! domino, a placement by its best marker). The key, compared in order:
//! 1. not eliminated;
//! 2. not doomed: no more dead cells (free cells no domino can reach) than unused cards;
//! 3. points: stage totals so far plus what the current stage would score now (marked areas
//!    and the Mino bonus);
//! 4. fewer dead cells;
//! 5. more unused resurfacing cards (so a card is only spent for points).
//!
//! Equal keys are broken with `self.rng`; refilling the quarry is therefore a coin toss.
use super::Greedy;
use crate::Bot;
use pyramidion_core::{Rules, Seat, ToMove};
use pyramidion_pyramido::{Game, Move, Status, Step, dead_cells};

type Key = (bool, bool, u16, i8, u8);

fn key(game: &Game, seat: Seat) -> Key {
    let player = game.player(seat);
    if player.status() == Status::Eliminated {
        return (false, false, 0, 0, 0);
    }
    let cards = player.unused_cards() as u8;
    // Dead cells only matter on the stage being built (a finished stage is covered).
    let dead = if player.status() == Status::Building {
        dead_cells(player.pyramid()) as u8
    } else {
        0
    };
    let points = player.total() + player.stage_value();
    (true, dead <= cards, points, -(dead as i8), cards)
}

/// The best key reachable by the mover from `game` through the current decision chain.
fn evaluate(game: &Game, seat: Seat, m: Move, buf: &mut Vec<Move>) -> Key {
    let mut next = game.clone();
    next.play_unchecked(&m);
    let still_ours = next.to_move() == ToMove::Seat(seat);
    match (m, next.step()) {
        (Move::Take(_), Step::Place) if still_ours => best_of(&next, seat, buf),
        (Move::Place(_), Step::Mark) if still_ours => best_of(&next, seat, buf),
        _ => key(&next, seat),
    }
}

fn best_of(game: &Game, seat: Seat, buf: &mut Vec<Move>) -> Key {
    game.legal_moves(buf);
    let moves = std::mem::take(buf);
    let mut inner = Vec::new();
    let best = moves
        .iter()
        .map(|&m| evaluate(game, seat, m, &mut inner))
        .max()
        .expect("a decision has a legal move");
    *buf = moves;
    best
}

impl Bot<Game> for Greedy {
    fn choose(&mut self, game: &Game) -> Move {
        let ToMove::Seat(seat) = game.to_move() else {
            panic!("Greedy asked to move in a finished game");
        };
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "Greedy asked to move with no legal move");
        if moves.len() == 1 || game.step() == Step::Refill {
            return moves[self.rng.below(moves.len() as u32) as usize];
        }
        let mut buf = Vec::new();
        let mut best: Vec<Move> = Vec::new();
        let mut best_key = None;
        for &m in &moves {
            let k = evaluate(game, seat, m, &mut buf);
            if best_key.is_none_or(|b| k > b) {
                best_key = Some(k);
                best.clear();
            }
            if best_key == Some(k) {
                best.push(m);
            }
        }
        best[self.rng.below(best.len() as u32) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomBot;
    use pyramidion_pyramido::Options;

    fn play(options: &Options, seed: u64, greedy_seats: &[u8]) -> Game {
        let mut game = Game::new(options, seed).unwrap();
        let mut greedy = Greedy::new(seed);
        let mut random = RandomBot::<Move>::new(seed);
        while let ToMove::Seat(s) = game.to_move() {
            let m = if greedy_seats.contains(&s.0) {
                greedy.choose(&game)
            } else {
                random.choose(&game)
            };
            game.play(&m).unwrap_or_else(|e| panic!("seed {seed}: {m}: {e}"));
        }
        game
    }

    #[test]
    fn greedy_plays_legal_moves_and_beats_random() {
        let options = Options::players(2);
        let mut wins = 0;
        for seed in 0..40 {
            let game = play(&options, seed, &[seed as u8 % 2]);
            let outcome = game.outcome().unwrap();
            if outcome.ranks[(seed % 2) as usize] == 0 {
                wins += 1;
            }
        }
        assert!(wins >= 36, "greedy won {wins} of 40");
    }

    #[test]
    fn greedy_games_reach_the_end_and_score() {
        let options = Options::players(4);
        let mut complete = 0;
        let mut scores = 0;
        for seed in 0..12 {
            let game = play(&options, seed, &[0, 1, 2, 3]);
            if game.players().iter().all(|p| p.scores().len() == 4) {
                complete += 1;
            }
            scores += game.outcome().unwrap().scores.iter().sum::<i32>();
        }
        assert!(complete >= 6, "{complete} of 12 greedy games went the distance");
        assert!(scores / 48 > 40, "mean score {}", scores / 48);
    }

    #[test]
    fn greedy_is_reproducible() {
        let options = Options::players(3);
        let a = play(&options, 5, &[0, 1, 2]);
        let b = play(&options, 5, &[0, 1, 2]);
        assert_eq!(a, b);
    }

    /// `cargo test --release -p pyramidion-ai greedy_speed -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn greedy_speed() {
        let games: u64 = std::env::var("GREEDY_GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(1000);
        let start = std::time::Instant::now();
        let mut complete = 0;
        let mut total = 0i64;
        for seed in 0..games {
            let players = 2 + (seed % 3) as u8;
            let game = play(&Options::players(players), seed, &[0, 1, 2, 3]);
            complete += game.players().iter().all(|p| p.scores().len() == 4) as u32;
            total += game.outcome().unwrap().scores.iter().map(|&s| s as i64).sum::<i64>();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{games} all-greedy games (2, 3, 4 players in turn) in {secs:.1} s ({:.0} games/s); {complete} complete; mean score {:.1}",
            games as f64 / secs,
            total as f64 / (games as f64 * 3.0)
        );
    }
}
