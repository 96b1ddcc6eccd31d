//! Which steps of a turn may be taken back (`Rules::undoable`, Board Game Arena's undo).
//!
//! The taking, the placing, the marking, the resurfacing (or passing) and each hole covered
//! are the player's own and reveal nothing; only a refill draws (it turns up the domino under
//! a pile's top), and it ends the turn. A step may be taken back when its player is still
//! building the same turn after it and no pile changed: so the refill, any step that refills
//! by itself (one of the two piles empty) and any step that ends the turn are barriers.
use crate::moves::Move;
use crate::state::{Game, Phase};
use pyramidion_core::Rules;

pub(crate) fn undoable(game: &Game, m: &Move) -> bool {
    if game.check(m).is_err() {
        return false;
    }
    let mut next = game.clone();
    next.play_unchecked(m);
    let same_turn = matches!(
        next.phase,
        Phase::Place | Phase::Mark | Phase::Resurface | Phase::Refill | Phase::Cover
    );
    same_turn
        && next.current == game.current
        && next.stage == game.stage
        && next.piles == game.piles
}
