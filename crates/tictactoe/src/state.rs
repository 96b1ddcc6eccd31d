//! The position: nine cells, whose turn it is, and who moved first.
use crate::Options;
use serde::Serialize;

/// A cell's mark. X always moves first; the seed decides which seat plays X.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    X,
    O,
}

/// The eight lines of three cells (rows, columns, diagonals), by cell index.
pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub(crate) options: Options,
    pub(crate) board: [Option<Mark>; 9],
    /// The seat that plays X (and so moves first).
    pub(crate) first: u8,
    pub(crate) ply: u32,
}

impl Game {
    pub fn board(&self) -> &[Option<Mark>; 9] {
        &self.board
    }

    /// The seat that plays X and moved first.
    pub fn first_player(&self) -> u8 {
        self.first
    }

    /// The mark `seat` plays.
    pub fn mark_of(&self, seat: u8) -> Mark {
        if seat == self.first { Mark::X } else { Mark::O }
    }

    /// The mark of the seat to move (X on even plies).
    pub fn mark_to_move(&self) -> Mark {
        if self.ply.is_multiple_of(2) {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// The mark with three in a line, if any.
    pub fn winner(&self) -> Option<Mark> {
        LINES.iter().find_map(|line| {
            let [a, b, c] = line.map(|i| self.board[i]);
            (a.is_some() && a == b && b == c).then_some(a).flatten()
        })
    }

    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.board.iter().all(Option::is_some)
    }
}
