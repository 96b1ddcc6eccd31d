use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table, numbered from 0 in turn order of the first stage/round.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat `steps` places clockwise from this one at a table of `seats`.
    pub fn after(self, steps: u8, seats: u8) -> Seat {
        Seat(((self.0 as u16 + steps as u16) % seats as u16) as u8)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}
