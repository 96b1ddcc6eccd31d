//! Whether a game's undo declaration ([`Rules::undoable`]) is honest: a step it lets a player
//! take back leaves the same seat to move, and reveals nothing to anyone: played on any state
//! that a seat cannot tell from the real one (its determinisation: hidden cards re-dealt, the
//! random generator reseeded), it leaves that seat's view exactly as on the real one. A step
//! that turned up a hidden domino or drew at random would show the seat something that
//! depends on what it could not see, and fail here.
use pyramidion_core::rules::{Rules, ToMove};
use pyramidion_core::{GameRng, Seat, Seed};

/// What [`undo_is_honest`] saw: moves played, and how many of them were declared undoable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UndoReport {
    pub plies: u64,
    pub undoable: u64,
}

/// Plays `games` uniform random games (seeds from `first_seed`) and checks the declaration
/// at every move played; the counts, or the first dishonest step.
pub fn undo_is_honest<R: Rules>(
    options: &R::Options,
    first_seed: Seed,
    games: u64,
) -> Result<UndoReport, String> {
    let mut report = UndoReport::default();
    let mut legal = Vec::new();
    for seed in first_seed..first_seed + games {
        let mut game = R::new(options, seed).map_err(|e| e.to_string())?;
        let mut rng = GameRng::from_seed(seed ^ 0x0000_0d0e);
        while let ToMove::Seat(_) = game.to_move() {
            game.legal_moves(&mut legal);
            let m = legal[rng.below(legal.len() as u32) as usize];
            if game.undoable(&m) {
                check_step(&game, &m, &mut rng)
                    .map_err(|e| format!("seed {seed}, ply {}: '{m}' {e}", game.ply()))?;
                report.undoable += 1;
            }
            game.play_unchecked(&m);
            report.plies += 1;
        }
    }
    Ok(report)
}

/// Checks one step declared undoable from `game`.
pub fn check_step<R: Rules>(game: &R, m: &R::Move, rng: &mut GameRng) -> Result<(), String> {
    let mut after = game.clone();
    after
        .play(m)
        .map_err(|e| format!("is declared undoable but illegal: {e}"))?;
    if after.to_move() != game.to_move() {
        return Err(format!(
            "is declared undoable but hands the move on ({:?} to {:?})",
            game.to_move(),
            after.to_move()
        ));
    }
    for s in 0..game.seats() {
        let seat = Seat(s);
        // Several re-deals: one could match the real hidden part by chance.
        for _ in 0..3 {
            let mut other = game.determinize(seat, rng);
            if other.play(m).is_err() {
                return Err(format!(
                    "is legal or not depending on what {seat} cannot see"
                ));
            }
            if other.view(Some(seat)) != after.view(Some(seat)) {
                return Err(format!("shows {seat} something it could not see before"));
            }
        }
    }
    Ok(())
}
