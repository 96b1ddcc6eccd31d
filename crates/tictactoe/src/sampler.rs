//! The state behind a view: nothing is hidden in tic-tac-toe, so the board and the first
//! player make the whole state (the page's previews and local analyses read it through the
//! registry like any game's).
use crate::state::{Game, Mark};
use pyramidion_core::{GameRng, PlayerCount, SampleError, Seat, ViewJson, ViewSampler};
use serde::Deserialize;

/// The parts of [`crate::View`] the state is made of.
#[derive(Deserialize)]
struct ViewIn {
    board: [[Option<Mark>; 3]; 3],
    first_player: Seat,
}

impl ViewSampler for Game {
    fn sample_from_view(
        view: &ViewJson,
        _seat: Seat,
        _rng: &mut GameRng,
    ) -> Result<Self, SampleError> {
        let v = ViewIn::deserialize(view)?;
        if v.first_player.0 > 1 {
            return Err(SampleError::bad_view("tic-tac-toe has seats 0 and 1"));
        }
        let board: [Option<Mark>; 9] = std::array::from_fn(|i| v.board[i / 3][i % 3]);
        let count = |m: Mark| board.iter().filter(|c| **c == Some(m)).count();
        let (x, o) = (count(Mark::X), count(Mark::O));
        // X moves first: a board reached by play has as many Os as Xs, or one X more.
        if x != o && x != o + 1 {
            return Err(SampleError::bad_view("a board no game reaches"));
        }
        Ok(Game {
            options: PlayerCount { players: 2 },
            board,
            first: v.first_player.0,
            ply: (x + o) as u32,
        })
    }

    fn samples_views() -> bool {
        true
    }
}
