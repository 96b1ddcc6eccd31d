//! Which steps may be taken back (`Rules::undoable`, Board Game Arena's undo).
//!
//! A turn's take turns up the back of the domino below (and may draw gems or move a pile), a
//! flip turns up a domino and the placing ends the turn: none may be taken back. At a stage's
//! end, each activation and each discard down to five is the player's own choice on public
//! information: it may be taken back while that player is still scoring (`done`, and the
//! last discard, hand the scoring on).
use crate::moves::Move;
use crate::state::Game;
use pyramidion_core::Rules;

pub(crate) fn undoable(game: &Game, m: &Move) -> bool {
    if !matches!(m, Move::Activate { .. } | Move::Discard(_)) || game.check(m).is_err() {
        return false;
    }
    let mut next = game.clone();
    next.play_unchecked(m);
    next.phase == game.phase
        && next.current == game.current
        && next.stage == game.stage
        && next.rng == game.rng
}
