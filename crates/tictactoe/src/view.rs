//! What every seat and spectator sees (nothing is hidden): the platform's envelope
//! ([`Envelope`]: `seats`, `to_move`, `phase`, `stage`, `stages`, `first_player`, `outcome`)
//! and the board, cells as arrays.
use crate::state::{Game, Mark};
use pyramidion_core::{Envelope, Rules, Seat, SeatSummary};
use serde::Serialize;

#[derive(Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct SeatView {
    #[serde(flatten)]
    pub summary: SeatSummary,
    pub mark: Mark,
}

#[derive(Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct View {
    #[serde(flatten)]
    pub envelope: Envelope<SeatView, Phase>,
    /// Rows of cells, top row first.
    pub board: [[Option<Mark>; 3]; 3],
}

/// A game of noughts and crosses is played, then over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Play,
    Over,
}

impl View {
    pub(crate) fn of(game: &Game) -> View {
        let outcome = game.outcome();
        let board = std::array::from_fn(|r| std::array::from_fn(|c| game.board()[r * 3 + c]));
        let seats = (0..2)
            .map(|seat| SeatView {
                summary: SeatSummary::new(
                    Seat(seat),
                    outcome.as_ref().map_or(0, |o| o.scores[usize::from(seat)]),
                ),
                mark: game.mark_of(seat),
            })
            .collect();
        let phase = if game.is_over() {
            Phase::Over
        } else {
            Phase::Play
        };
        View {
            envelope: Envelope::of(game, seats, phase, Seat(game.first_player())),
            board,
        }
    }
}
