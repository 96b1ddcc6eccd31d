//! The state behind a view: nothing is hidden in tic-tac-toe, so the board and the first
//! player make the whole state (the page's previews and local analyses read it through the
//! registry like any game's).
use crate::state::{Game, Mark};
use pyramidion_core::{GameRng, PlayerCount, SampleError, Seat, ViewJson, ViewPart, ViewSampler};

impl ViewSampler for Game {
    fn sample_from_view(
        view: &ViewJson,
        _seat: Seat,
        _rng: &mut GameRng,
    ) -> Result<Self, SampleError> {
        let v = ViewPart(view);
        let first: u8 = v.get("first_player")?.num()?;
        if first > 1 {
            return Err(SampleError::bad_view("tic-tac-toe has seats 0 and 1"));
        }
        let mut board = [None; 9];
        let cells = v
            .get("board")?
            .items()?
            .flat_map(|row| row.items().into_iter().flatten());
        let mut count = 0;
        for (slot, cell) in board.iter_mut().zip(cells) {
            *slot = match cell.non_null() {
                None => None,
                Some(c) => Some([Mark::X, Mark::O][c.one_of(&["x", "o"])?]),
            };
            count += 1;
        }
        if count != 9 {
            return Err(SampleError::bad_view("a board of nine cells expected"));
        }
        let marks = |m: Mark| board.iter().filter(|c| **c == Some(m)).count();
        let (x, o) = (marks(Mark::X), marks(Mark::O));
        // X moves first: a board reached by play has as many Os as Xs, or one X more.
        if x != o && x != o + 1 {
            return Err(SampleError::bad_view("a board no game reaches"));
        }
        Ok(Game {
            options: PlayerCount { players: 2 },
            board,
            first,
            ply: (x + o) as u32,
        })
    }

    fn samples_views() -> bool {
        true
    }
}
