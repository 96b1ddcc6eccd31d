//! Placement points: what a place at a table of 2 to 5 is worth, ties, and the bye.
//!
//! BGA gives +6/+4/+2/0 at a table of four. We keep its even steps but scale them so that a
//! winner scores [`WIN`] and the last 0 *whatever the table size*: a tournament that mixes
//! tables of 4 and 3 (short tables) must not reward the same win differently. The scale, 24,
//! is the smallest that keeps every place and every shared place an integer:
//!
//! | seats | 1st | 2nd | 3rd | 4th | 5th |
//! |-------|-----|-----|-----|-----|-----|
//! | 2     | 24  | 0   |     |     |     |
//! | 3     | 24  | 12  | 0   |     |     |
//! | 4     | 24  | 16  | 8   | 0   |     |
//! | 5     | 24  | 18  | 12  | 6   | 0   |
//!
//! Players tied for places share them equally: tied for 1st and 2nd at four, both score
//! (24 + 16) / 2 = 20. The points are evenly spaced, so that mean is the mean of the first
//! and last shared place, and it is an integer because every step is even. A table's points
//! therefore always add up to `12 × seats`: every player scores [`BYE`] on average, and a
//! bye, "the table's middle placement", is worth exactly that.
use crate::TournamentError;
use serde::{Deserialize, Serialize};

/// The points of a sole first place, at every table size.
pub const WIN: u32 = 24;
/// The points of a bye: the middle placement of any table (the mean of the two middle places
/// at an even table), which is also the mean score of a seat.
pub const BYE: u32 = WIN / 2;

/// The points of place `place` (0 is first) at a table of `seats`, no tie.
pub fn place_points(seats: u8, place: u8) -> u32 {
    debug_assert!(seats >= 2 && place < seats);
    WIN * u32::from(seats - 1 - place) / u32::from(seats - 1)
}

/// How a table ended: per seat, in the table's seat order, the place (0 is first; players
/// tied share the best of their places, so places read 0, 0, 2 for a tie for first at three)
/// and the game's own score (the last tie-break of the standings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableResult {
    pub places: Vec<u8>,
    pub scores: Vec<i64>,
}

impl TableResult {
    /// Checks the result against a table of `seats`: one place and one score per seat, and
    /// places in standard competition ranking (each is the count of players strictly ahead).
    pub fn validate(&self, seats: usize) -> Result<(), TournamentError> {
        if self.places.len() != seats || self.scores.len() != seats {
            return Err(TournamentError::BadPlacements);
        }
        for &place in &self.places {
            let ahead = self.places.iter().filter(|&&p| p < place).count();
            if usize::from(place) != ahead {
                return Err(TournamentError::BadPlacements);
            }
        }
        Ok(())
    }

    /// The placement points of every seat, ties sharing their places' points.
    pub fn points(&self) -> Vec<u32> {
        let seats = self.places.len() as u8;
        self.places
            .iter()
            .map(|&place| {
                let tied = self.places.iter().filter(|&&p| p == place).count() as u8;
                (place_points(seats, place) + place_points(seats, place + tied - 1)) / 2
            })
            .collect()
    }

    /// Whether the seat won alone (a shared first place is not a win for the Arena's streak).
    pub fn sole_winner(&self, seat: usize) -> bool {
        self.places[seat] == 0 && self.places.iter().filter(|&&p| p == 0).count() == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(places: &[u8]) -> TableResult {
        TableResult {
            places: places.to_vec(),
            scores: vec![0; places.len()],
        }
    }

    #[test]
    fn the_documented_table() {
        let table: Vec<Vec<u32>> = (2..=5u8)
            .map(|seats| (0..seats).map(|place| place_points(seats, place)).collect())
            .collect();
        assert_eq!(
            table,
            vec![
                vec![24, 0],
                vec![24, 12, 0],
                vec![24, 16, 8, 0],
                vec![24, 18, 12, 6, 0]
            ]
        );
    }

    #[test]
    fn ties_share_their_places_points() {
        assert_eq!(result(&[0, 0, 2, 3]).points(), vec![20, 20, 8, 0]);
        assert_eq!(result(&[1, 0, 1, 1, 4]).points(), vec![12, 24, 12, 12, 0]);
        assert_eq!(result(&[0, 0, 0, 3, 3]).points(), vec![18, 18, 18, 3, 3]);
        assert_eq!(result(&[0, 0]).points(), vec![12, 12]);
    }

    #[test]
    fn every_result_sums_to_a_bye_per_seat() {
        // Every competition ranking of 2..=5 seats: places are each seat's count of players
        // ahead, so enumerate the "ahead" relation through scores 0..seats.
        for seats in 2..=5usize {
            let mut scores = vec![0usize; seats];
            loop {
                let places: Vec<u8> = scores
                    .iter()
                    .map(|s| scores.iter().filter(|t| *t > s).count() as u8)
                    .collect();
                let r = result(&places);
                r.validate(seats).unwrap();
                assert_eq!(
                    r.points().iter().sum::<u32>(),
                    BYE * seats as u32,
                    "{places:?}"
                );
                let Some(i) = scores.iter().position(|&s| s + 1 < seats) else {
                    break;
                };
                scores[i] += 1;
                scores[..i].fill(0);
            }
        }
    }

    #[test]
    fn malformed_results_are_refused() {
        for places in [&[0u8, 2][..], &[1, 1], &[0, 0, 1], &[0]] {
            let err = result(places).validate(places.len().max(2)).unwrap_err();
            assert_eq!(err, TournamentError::BadPlacements, "{places:?}");
        }
        let short = TableResult {
            places: vec![0, 1],
            scores: vec![3],
        };
        assert_eq!(short.validate(2), Err(TournamentError::BadPlacements));
    }
}
