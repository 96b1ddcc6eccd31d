//! The frame every game's view shares (boardgame.io's `ctx`): whose turn, the phase, the
//! stage of how many, the first player, a summary per seat and the outcome. The browser's
//! shell draws the status line, the scoring pad, the score lines and the result panel from
//! these fields alone, whatever the game; a game's view flattens an [`Envelope`] beside its
//! own board. Four of the facts are the [`Rules`] trait's own (`to_move`, `stage_number`,
//! `DESCRIPTOR.stages`, `outcome`), so [`Envelope::of`] reads them there instead of letting each
//! game work them out again.
use crate::{Outcome, Rules, Seat, ToMove};
use serde::Serialize;

/// What the shell shows of one seat in every game: its number, its points and, in games
/// scored by stage, its points per stage (`None` until that stage is scored). A game's
/// per-seat view flattens one beside its own fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct SeatSummary {
    pub seat: Seat,
    /// Points so far, or the final score once the game is over (the outcome's).
    pub score: i32,
    /// Per stage (1 at 0), its points once scored; absent in games not scored by stage.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stage_points: Option<Vec<Option<i32>>>,
}

impl SeatSummary {
    /// A seat of a game not scored by stage.
    pub fn new(seat: Seat, score: i32) -> SeatSummary {
        SeatSummary {
            seat,
            score,
            stage_points: None,
        }
    }

    /// A seat of a game scored by stage: `stage_points` has one entry per stage.
    pub fn by_stage(seat: Seat, score: i32, stage_points: Vec<Option<i32>>) -> SeatSummary {
        SeatSummary {
            seat,
            score,
            stage_points: Some(stage_points),
        }
    }

    /// The points of `stage` (from 1), once scored.
    pub fn points_of_stage(&self, stage: u8) -> Option<i32> {
        let points = self.stage_points.as_ref()?;
        points.get(usize::from(stage).checked_sub(1)?).copied()?
    }
}

/// An automa's line beside the seats (solo games): its name is a catalog key
/// (`automa.<name>`); its points and points per stage read as a seat's do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct AutomaSummary {
    pub name: &'static str,
    pub score: i32,
    pub stage_points: Vec<Option<i32>>,
}

/// The envelope of a view: `S` is the game's per-seat view (which flattens a
/// [`SeatSummary`]), `P` its phase (a name; `over` once the game has ended).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Envelope<S, P> {
    pub seats: Vec<S>,
    /// The seat whose decision it is (`None` once the game is over).
    pub to_move: Option<Seat>,
    pub phase: P,
    /// The stage (or round) the next move belongs to, from 1.
    pub stage: u8,
    /// Stages in a game (the descriptor's).
    pub stages: u8,
    /// The seat that opened the current stage.
    pub first_player: Seat,
    /// The final result, once the game is over.
    pub outcome: Option<Outcome>,
}

impl<S, P> Envelope<S, P> {
    /// The envelope of `game`'s view: the game gives what only it knows (its seats' views,
    /// its phase, the stage's first player), the rules trait the rest.
    pub fn of<G: Rules>(game: &G, seats: Vec<S>, phase: P, first_player: Seat) -> Self {
        Envelope {
            seats,
            to_move: match game.to_move() {
                ToMove::Seat(s) => Some(s),
                ToMove::Over => None,
            },
            phase,
            stage: game.stage_number(),
            stages: G::DESCRIPTOR.stages,
            first_player,
            outcome: game.outcome(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_stages_points_are_read_from_stage_one() {
        let s = SeatSummary::by_stage(Seat(1), 7, vec![Some(3), Some(4), None]);
        let read: Vec<Option<i32>> = (0..=4).map(|stage| s.points_of_stage(stage)).collect();
        assert_eq!(read, vec![None, Some(3), Some(4), None, None]);
        assert_eq!(SeatSummary::new(Seat(0), 5).points_of_stage(1), None);
    }

    /// A game not scored by stage sends no `stage_points` (the shell then draws no pad).
    #[test]
    fn stage_points_travel_only_in_games_scored_by_stage() {
        let plain = serde_json::to_value(SeatSummary::new(Seat(2), 5)).unwrap();
        assert_eq!(plain, json!({ "seat": 2, "score": 5 }));
        let staged = SeatSummary::by_stage(Seat(0), 3, vec![Some(3), None]);
        assert_eq!(
            serde_json::to_value(staged).unwrap(),
            json!({ "seat": 0, "score": 3, "stage_points": [3, null] })
        );
    }
}
