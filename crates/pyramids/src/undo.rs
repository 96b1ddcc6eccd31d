//! Which steps of a turn may be taken back (`Rules::undoable`, Board Game Arena's undo).
//!
//! Taking a pair from the quarry (face up, in front of everyone) and putting a card in one's
//! own Tomb (face down) reveal nothing and leave the builder to go on building: they may be
//! taken back while the turn lasts. Putting a card on the Pyramid or the Obelisk shows it to
//! everyone, and the hand's kept card is hidden until then, so those are barriers (the cards
//! of the pair just taken are already public, but a view does not say which hand card is
//! which: the conservative rule covers them too). A God tile, `done` and the round-end
//! discards end the turn, or belong to a phase where the others choose too.
use crate::moves::Move;
use crate::state::{Game, Phase};
use pyramidion_core::Rules;

pub(crate) fn undoable(game: &Game, m: &Move) -> bool {
    if !matches!(m, Move::Pair(_) | Move::Tomb(_)) || game.check(m).is_err() {
        return false;
    }
    let mut next = game.clone();
    next.play_unchecked(m);
    matches!(next.phase, Phase::BuildPyramid | Phase::BuildMore)
        && next.to_move() == game.to_move()
        && next.round == game.round
        && next.deck_pos == game.deck_pos
        && next.rng == game.rng
}
