//! The Arena's streak bonus, lichess's idea adapted to placements.
//!
//! On lichess, after two wins in a row every game scores double until a game is not won. At
//! a table of several players "won" means a *sole* first place (a shared first place is not a
//! win, like a draw on lichess). So: a player whose last two Arena games were wins is **on
//! fire**; while on fire, every game's placement points count double (a win 48, a second place
//! at four 32); any game that is not a win ends the streak, and that game is still doubled.
//! The bonus rewards playing well in a row rather than playing many games.

/// Wins in a row that set a player on fire.
pub const FIRE_AFTER: u32 = 2;

/// Whether a player with `streak` wins in a row scores double in their next game.
pub fn on_fire(streak: u32) -> bool {
    streak >= FIRE_AFTER
}

/// The Arena points of a game: its placement points, doubled when the player came to it on
/// fire.
pub fn arena_points(placement_points: u32, streak_before: u32) -> u32 {
    if on_fire(streak_before) {
        2 * placement_points
    } else {
        placement_points
    }
}

/// The streak after a game: one more after a sole win, none otherwise.
pub fn next_streak(streak_before: u32, sole_win: bool) -> u32 {
    if sole_win { streak_before + 1 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_third_win_in_a_row_counts_double_and_a_loss_ends_the_fire() {
        // Win, win, win, second, win: 24, 24, 48, 32 (on fire, then out), 24.
        let games = [(24, true), (24, true), (24, true), (16, false), (24, true)];
        let mut streak = 0;
        let mut scored = Vec::new();
        for (points, win) in games {
            scored.push(arena_points(points, streak));
            streak = next_streak(streak, win);
        }
        assert_eq!(scored, vec![24, 24, 48, 32, 24]);
        assert_eq!(streak, 1);
    }
}
