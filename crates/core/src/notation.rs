//! How a game's moves are shown to clients: their structured form and, where a move names
//! what a viewer may not see, its redacted form. Presentation, kept out of the rules core
//! (after shakmaty, whose SAN is built from a position and a move, not part of the position).
use crate::Seat;
use crate::rules::Rules;
use serde::Serialize;
use std::fmt::Debug;

/// The notation of a game's moves (every game implements it; [`Rules`] requires it). The
/// record notation stays the move's text (`Display`/`FromStr`); this is what clients draw
/// and say.
pub trait Notation {
    /// The structured form of a move (a `kind` tag and named fields) that clients act on.
    type Form: Serialize + Debug + PartialEq;

    /// The structured form of `m`, a LEGAL move of the seat to move in this state (callers
    /// check first: a form may read what the move would do, e.g. Pyramido's `eliminates`).
    fn form(&self, m: &<Self as Rules>::Move) -> Self::Form
    where
        Self: Rules;

    /// How `m`, a legal move about to be played by the seat to move, may be shown to
    /// `viewer` (`None`: a spectator) while the game is not over: `None` when it may be shown
    /// as it is. Games whose moves name hidden cards override this so that no text or form
    /// reveals them.
    fn redacted(
        &self,
        m: &<Self as Rules>::Move,
        viewer: Option<Seat>,
    ) -> Option<Redacted<Self::Form>>
    where
        Self: Rules,
    {
        let _ = (m, viewer);
        None
    }

    /// What `m`, a legal move of the seat to move, does in the rulebook's words, as short
    /// stable names (`close_area`, `tomb_majority`…): a puzzle's themes, which the browser
    /// translates from the game's own catalog (`puzzle.theme.<name>`). Optional: a game
    /// without it has puzzles without themes. Read from the state and the move only, so a
    /// theme tells the solver nothing its view does not.
    fn themes(&self, m: &<Self as Rules>::Move) -> Vec<&'static str>
    where
        Self: Rules,
    {
        let _ = m;
        Vec::new()
    }
}

/// A move as a seat that may not see all of it is shown it.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct Redacted<F> {
    /// The move's text with what is hidden replaced by `?` (never parsed back).
    pub text: String,
    pub form: F,
}
