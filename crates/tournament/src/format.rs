//! How many seats a table has, and what happens to the players a round cannot fit.
use crate::TournamentError;
use serde::{Deserialize, Serialize};

/// The tables of a tournament: `seats` players each (2 to 5). When the players do not divide
/// into full tables, either the leftover players get a bye, or (`short_tables`) some tables
/// seat one player fewer so that nobody sits out; tables of `seats - 1` need `seats >= 3`, as
/// a table of one is no game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableFormat {
    pub seats: u8,
    pub short_tables: bool,
}

/// How a round seats `full + short + byes` players: `full` tables of `seats`, `short` tables
/// of `seats - 1`, and `byes` players sitting out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub full: usize,
    pub short: usize,
    pub byes: usize,
}

impl TableFormat {
    pub const MIN_SEATS: u8 = 2;
    pub const MAX_SEATS: u8 = 5;

    pub fn new(seats: u8, short_tables: bool) -> Result<Self, TournamentError> {
        let format = TableFormat {
            seats,
            short_tables,
        };
        format.validate()?;
        Ok(format)
    }

    /// A format read back from storage or from a request is checked before use.
    pub fn validate(&self) -> Result<(), TournamentError> {
        if (Self::MIN_SEATS..=Self::MAX_SEATS).contains(&self.seats) {
            Ok(())
        } else {
            Err(TournamentError::TableSizeOutOfRange(self.seats))
        }
    }

    /// Whether tables of `seats - 1` may be used.
    pub fn allows_short(&self) -> bool {
        self.short_tables && self.seats > Self::MIN_SEATS
    }

    /// The smallest table this format forms.
    pub fn smallest(&self) -> u8 {
        if self.allows_short() {
            self.seats - 1
        } else {
            self.seats
        }
    }

    /// The layout of a round of `players`: the fewest byes, then the most full tables (short
    /// tables only where they save a bye). `TooFewPlayers` when not even one table forms.
    pub fn layout(&self, players: usize) -> Result<Layout, TournamentError> {
        self.validate()?;
        let seats = usize::from(self.seats);
        if players < usize::from(self.smallest()) {
            return Err(TournamentError::TooFewPlayers { players });
        }
        let mut best = Layout {
            full: players / seats,
            short: 0,
            byes: players % seats,
        };
        if self.allows_short() {
            // Every count of full tables, most first, so that among layouts with as few byes
            // the one with the most full tables wins (a strict `<` keeps the first).
            for full in (0..=players / seats).rev() {
                let rest = players - full * seats;
                let short = rest / (seats - 1);
                let byes = rest % (seats - 1);
                if byes < best.byes {
                    best = Layout { full, short, byes };
                }
            }
        }
        Ok(best)
    }
}

impl Layout {
    /// The table sizes in seating order: full tables first, so the leaders sit at full tables.
    pub fn sizes(&self, seats: u8) -> Vec<u8> {
        let mut sizes = vec![seats; self.full];
        sizes.extend(std::iter::repeat_n(seats - 1, self.short));
        sizes
    }

    pub fn seated(&self, seats: u8) -> usize {
        self.full * usize::from(seats) + self.short * usize::from(seats - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_outside_two_to_five_are_refused() {
        for seats in [0, 1, 6, 200] {
            let err = TableFormat::new(seats, false).unwrap_err();
            assert_eq!(err, TournamentError::TableSizeOutOfRange(seats));
        }
        for seats in 2..=5 {
            assert!(TableFormat::new(seats, true).is_ok());
        }
    }

    #[test]
    fn byes_take_the_remainder_without_short_tables() {
        let format = TableFormat::new(4, false).unwrap();
        let layout = format.layout(11).unwrap();
        assert_eq!(
            layout,
            Layout {
                full: 2,
                short: 0,
                byes: 3
            }
        );
        assert!(matches!(
            format.layout(3),
            Err(TournamentError::TooFewPlayers { players: 3 })
        ));
    }

    #[test]
    fn short_tables_replace_byes_where_they_can() {
        let format = TableFormat::new(4, true).unwrap();
        assert_eq!(
            format.layout(11).unwrap(),
            Layout {
                full: 2,
                short: 1,
                byes: 0
            }
        );
        assert_eq!(
            format.layout(3).unwrap(),
            Layout {
                full: 0,
                short: 1,
                byes: 0
            }
        );
        // 5 = 4 + 1 or 3 + 2: one bye either way, and the full table is kept.
        assert_eq!(
            format.layout(5).unwrap(),
            Layout {
                full: 1,
                short: 0,
                byes: 1
            }
        );
        let five = TableFormat::new(5, true).unwrap();
        // 7 cannot be made of 5s and 4s: one table of five and two byes.
        assert_eq!(
            five.layout(7).unwrap(),
            Layout {
                full: 1,
                short: 0,
                byes: 2
            }
        );
        assert_eq!(
            five.layout(13).unwrap(),
            Layout {
                full: 1,
                short: 2,
                byes: 0
            }
        );
    }

    #[test]
    fn two_seat_tables_never_shrink() {
        let format = TableFormat::new(2, true).unwrap();
        assert!(!format.allows_short());
        assert_eq!(
            format.layout(7).unwrap(),
            Layout {
                full: 3,
                short: 0,
                byes: 1
            }
        );
    }
}
