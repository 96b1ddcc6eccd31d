//! The example game's tutorial: two steps that prove the platform's generic path (a game
//! teaches itself from its own crate, the shell names no game). One lesson: complete your
//! line, then stop the opponent's. The figures a wrong move is answered with are computed
//! here, by play (the score a move makes now) and by a full search (the result under best
//! play from both sides), never typed.
use crate::state::Game;
use crate::{Move, Options};
use pyramidion_core::tutorial::{Gain, Lesson, Step, Tutorial, Tutorials};
use pyramidion_core::{Rules, Seat};

/// The points `seat` has once the move is played: 1 for a completed line, else 0.
fn score_now(game: &Game, seat: Seat) -> i32 {
    game.outcome().map_or(0, |o| o.scores[seat.index()])
}

/// The result for `seat` under best play from both sides: its points minus its opponent's
/// (1 won, 0 drawn, -1 lost). Nine cells at most: the whole tree is searched.
fn best_play(game: &Game, seat: Seat) -> i32 {
    if let Some(o) = game.outcome() {
        let other = 1 - seat.index();
        return o.scores[seat.index()] - o.scores[other];
    }
    let mover = match game.to_move() {
        pyramidion_core::ToMove::Seat(s) => s,
        pyramidion_core::ToMove::Over => return 0,
    };
    let mut moves: Vec<Move> = Vec::new();
    game.legal_moves(&mut moves);
    let values = moves.iter().map(|m| {
        let mut next = game.clone();
        next.play_unchecked(m);
        best_play(&next, seat)
    });
    // The seat to move picks what is best for it, the other seat what is worst for `seat`.
    let best = if mover == seat {
        values.max()
    } else {
        values.min()
    };
    best.unwrap_or(0)
}

const SCORE_NOW: Gain<Game> = Gain {
    key: "score_now",
    measure: score_now,
};

const BEST_PLAY: Gain<Game> = Gain {
    key: "best_play",
    measure: best_play,
};

impl Tutorials for Game {
    fn tutorial() -> Option<Tutorial<Game>> {
        let options = Options { players: 2 };
        Some(Tutorial {
            lessons: vec![Lesson {
                key: "lines",
                steps: vec![
                    // X (the learner) holds a1 and b1, O holds a2 and b2: c1 wins now.
                    Step {
                        key: "complete",
                        options: options.clone(),
                        seed: 1,
                        prefix: vec!["a1", "a2", "b1", "b2"],
                        seat: Seat(SEED_1_FIRST),
                        accepted: vec!["c1"],
                        wrong: vec!["c2", "a1"],
                        gain: Some(SCORE_NOW),
                    },
                    // O (the learner) must stop X's top row at c1.
                    Step {
                        key: "block",
                        options,
                        seed: 1,
                        prefix: vec!["a1", "b2", "b1"],
                        seat: Seat(1 - SEED_1_FIRST),
                        accepted: vec!["c1"],
                        wrong: vec!["a3", "b1"],
                        gain: Some(BEST_PLAY),
                    },
                ],
            }],
            final_table: Options { players: 2 },
            final_solo: false,
        })
    }
}

/// The seat that plays X with seed 1 (the tests check it against the rules' deal).
const SEED_1_FIRST: u8 = 1;
