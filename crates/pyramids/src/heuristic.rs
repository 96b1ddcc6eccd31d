//! Greedy Pyramids: the move giving the mover the best score right after it.
//!
//! The bot never peeks: Tomb majorities depend on the others' hidden Tombs, so it scores moves
//! in a copy determinised for its seat (the others' hands and Tombs and the deck resampled).
//! Taking a pair scores nothing by itself, so a pair is valued by the best Pyramid card it
//! allows right after (the mover's next decision). Ties are broken uniformly with the caller's RNG.
use crate::{Game, Move};
use pyramidion_core::{GameRng, Rules, Seat, ToMove};

fn score(game: &Game, seat: Seat) -> i32 {
    game.score(seat).total as i32
}

/// The move of `moves` (legal, not empty) with the best score for the mover right after
/// it, in a world determinised for the mover; ties uniformly.
fn best_move(game: &Game, me: Seat, moves: &[Move], rng: &mut GameRng) -> Move {
    let world = game.determinize(me, rng);
    let mut follow = Vec::new();
    let (mut best, mut ties, mut choice) = (i32::MIN, 0, moves[0]);
    for &m in moves {
        let mut after = world.clone();
        after.play_unchecked(&m);
        let mut value = score(&after, me);
        if matches!(m, Move::Pair(_)) && after.to_move() == ToMove::Seat(me) {
            after.legal_moves(&mut follow);
            for f in &follow {
                let mut next = after.clone();
                next.play_unchecked(f);
                value = value.max(score(&next, me));
            }
        }
        if value > best {
            (best, ties, choice) = (value, 1, m);
        } else if value == best {
            ties += 1;
            if rng.below(ties) == 0 {
                choice = m;
            }
        }
    }
    choice
}

/// The move of `candidates` with the best score right after it
/// ([`pyramidion_core::BotHooks::favourite_move`]).
pub(crate) fn favourite(game: &Game, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
    let ToMove::Seat(me) = game.to_move() else {
        return None;
    };
    Some(best_move(game, me, candidates, rng))
}

/// The greedy policy's move for the seat to move ([`pyramidion_core::BotHooks::greedy_move`]);
/// `None` when the game is over.
pub(crate) fn greedy_move(game: &Game, rng: &mut GameRng) -> Option<Move> {
    let ToMove::Seat(me) = game.to_move() else {
        return None;
    };
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.len() == 1 {
        return Some(moves[0]);
    }
    Some(best_move(game, me, &moves, rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use pyramidion_testkit::players::{GreedyPlayer as Greedy, RandomPlayer};

    /// Plays one game; `greedy_seats` are played by Greedy, the others by RandomBot.
    fn play(players: u8, seed: u64, greedy_seats: &[u8]) -> pyramidion_core::Outcome {
        let mut game = Game::new(&Options { players }, seed).unwrap();
        let mut greedy = Greedy::new(seed);
        let mut random = RandomPlayer::<Move>::new(seed);
        while let ToMove::Seat(seat) = game.to_move() {
            let m = if greedy_seats.contains(&seat.0) {
                greedy.choose(&game)
            } else {
                random.choose(&game)
            };
            game.play(&m).expect("bots play legal moves");
        }
        game.outcome().unwrap()
    }

    #[test]
    fn greedy_beats_random() {
        let (mut wins, mut greedy_total, mut random_total) = (0, 0, 0);
        let games = 100;
        for seed in 0..games {
            let greedy_seat = (seed % 2) as usize;
            let o = play(2, seed, &[greedy_seat as u8]);
            wins += (o.ranks[greedy_seat] == 0) as u32;
            greedy_total += o.scores[greedy_seat];
            random_total += o.scores[1 - greedy_seat];
        }
        assert!(wins > 75, "greedy won only {wins} of {games}");
        assert!(
            greedy_total > random_total + 10 * games as i32,
            "{greedy_total} vs {random_total}"
        );
    }

    #[test]
    fn greedy_tables_finish() {
        for players in 2..=5u8 {
            let all: Vec<u8> = (0..players).collect();
            let o = play(players, 1, &all);
            assert_eq!(o.scores.len(), players as usize);
        }
    }

    #[test]
    fn greedy_is_reproducible() {
        assert_eq!(play(3, 9, &[0, 1, 2]), play(3, 9, &[0, 1, 2]));
    }
}
