//! A move marks one empty cell. Its text is the cell: a column letter `a`-`c` and a row
//! number `1`-`3` (`b2` is the centre).
use pyramidion_core::rules::MoveParseError;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Marks the cell at `row` and `column` (each 0 to 2) with the mark of the seat to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub row: u8,
    pub column: u8,
}

impl Move {
    /// The cell's index in the board, row by row.
    pub fn cell(self) -> usize {
        usize::from(self.row) * 3 + usize::from(self.column)
    }

    pub fn from_cell(cell: usize) -> Move {
        Move {
            row: (cell / 3) as u8,
            column: (cell % 3) as u8,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column) as char, self.row + 1)
    }
}

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || MoveParseError::new(s, "a cell is a column a-c and a row 1-3, like b2");
        let &[column @ b'a'..=b'c', row @ b'1'..=b'3'] = s.as_bytes() else {
            return Err(bad());
        };
        Ok(Move {
            row: row - b'1',
            column: column - b'a',
        })
    }
}

pyramidion_core::serde_as_move_text!(Move);

/// The structured form of a move: the cell as numbers, never a string to split.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveForm {
    Mark { row: u8, column: u8 },
}
