//! What tic-tac-toe adds to the shared random-simulation harness (`pyramidion-testkit`). Built
//! only with the `testkit` feature, which only this crate's tests enable.
use crate::Move;
use crate::state::{Game, Mark};
use pyramidion_core::{GameRng, Rules, Seat};
use pyramidion_testkit::Simulate;

impl Simulate for Game {
    const MAX_PLIES: u32 = 9;

    fn check_invariants(&self) -> Result<(), String> {
        let count = |m| self.board().iter().filter(|c| **c == Some(m)).count() as u32;
        let (x, o) = (count(Mark::X), count(Mark::O));
        if x + o != self.ply() || x < o || x > o + 1 {
            return Err(format!("{x} X and {o} O after {} plies", self.ply()));
        }
        Ok(())
    }

    /// Nothing is hidden: every seat's view is the spectators'.
    fn check_view(&self, seat: Option<Seat>) -> Result<(), String> {
        if self.view(seat) != self.view(None) {
            return Err(format!("{seat:?} sees something a spectator does not"));
        }
        Ok(())
    }

    fn probe_moves(&self, rng: &mut GameRng, out: &mut Vec<Move>) {
        out.clear();
        // Any cell, taken or not.
        out.extend((0..3).map(|_| Move::from_cell(rng.below(9) as usize)));
    }
}
