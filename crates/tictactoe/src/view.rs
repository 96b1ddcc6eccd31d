//! What every seat and spectator sees (nothing is hidden), in the platform's view vocabulary:
//! `seats`, `to_move`, `phase`, `stage`, `stages`, `first_player`, `outcome`; cells as arrays.
use crate::state::{Game, Mark};
use pyramidion_core::{Outcome, Rules, ToMove};
use serde::Serialize;

#[derive(Debug, PartialEq, Serialize)]
pub struct SeatView {
    pub seat: u8,
    pub mark: Mark,
    pub score: i32,
}

#[derive(Debug, PartialEq, Serialize)]
pub struct View {
    pub seats: Vec<SeatView>,
    pub to_move: Option<u8>,
    pub phase: &'static str,
    pub stage: u8,
    /// Stages in a game (1).
    pub stages: u8,
    pub first_player: u8,
    /// Rows of cells, top row first.
    pub board: [[Option<Mark>; 3]; 3],
    pub outcome: Option<Outcome>,
}

impl View {
    pub(crate) fn of(game: &Game) -> View {
        let outcome = game.outcome();
        let board = std::array::from_fn(|r| std::array::from_fn(|c| game.board()[r * 3 + c]));
        View {
            seats: (0..2)
                .map(|seat| SeatView {
                    seat,
                    mark: game.mark_of(seat),
                    score: outcome.as_ref().map_or(0, |o| o.scores[usize::from(seat)]),
                })
                .collect(),
            to_move: match game.to_move() {
                ToMove::Seat(s) => Some(s.0),
                ToMove::Over => None,
            },
            phase: if game.is_over() { "over" } else { "play" },
            stage: 1,
            stages: 1,
            first_player: game.first_player(),
            board,
            outcome,
        }
    }
}
