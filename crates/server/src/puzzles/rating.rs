//! Puzzle ratings (as lichess rates its puzzles): a try is a Glicko-2 game between the
//! player and the puzzle, which the player wins by solving it. Both ratings move; a puzzle
//! many strong players fail climbs, one that newcomers solve sinks, so "the next puzzle near
//! my rating" finds puzzles of the player's strength.
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// The player's and the puzzle's ratings after a try.
pub fn after_try(
    player: Glicko2Rating,
    puzzle: Glicko2Rating,
    solved: bool,
) -> (Glicko2Rating, Glicko2Rating) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    glicko2(&player, &puzzle, &outcome, &Glicko2Config::new())
}

/// Which of a game's `count` puzzles (by id) is the day's: a hash of the day and the game,
/// the same on every instance all day.
pub fn day_index(day: &str, game: &str, count: i64) -> i64 {
    use blake2::{Blake2b512, Digest};
    let hash = Blake2b512::digest(format!("puzzle {game} {day}").as_bytes());
    let mut n = [0u8; 8];
    n.copy_from_slice(&hash[..8]);
    (u64::from_le_bytes(n) % count.max(1) as u64) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solving_raises_the_player_and_lowers_the_puzzle_failing_the_reverse() {
        let start = Glicko2Rating::new();
        let (p, q) = after_try(start, start, true);
        assert!(p.rating > 1500.0 && q.rating < 1500.0, "{p:?} {q:?}");
        assert!(p.deviation < start.deviation);
        let (p, q) = after_try(start, start, false);
        assert!(p.rating < 1500.0 && q.rating > 1500.0, "{p:?} {q:?}");
        // Solving a puzzle far below one's rating gains little; failing it costs much.
        let strong = Glicko2Rating {
            rating: 2000.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let easy = Glicko2Rating {
            rating: 1200.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let gain = after_try(strong, easy, true).0.rating - 2000.0;
        let loss = 2000.0 - after_try(strong, easy, false).0.rating;
        assert!(gain < 2.0 && loss > 10.0, "{gain} {loss}");
    }

    #[test]
    fn the_days_puzzle_is_one_of_the_games_and_changes_with_the_day() {
        let days: Vec<i64> = (1..=28)
            .map(|d| day_index(&format!("2026-11-{d:02}"), "g", 50))
            .collect();
        assert!(days.iter().all(|&i| (0..50).contains(&i)));
        assert!(days.windows(2).any(|w| w[0] != w[1]));
        assert_eq!(
            day_index("2026-11-29", "g", 50),
            day_index("2026-11-29", "g", 50)
        );
        assert_eq!(day_index("2026-11-29", "g", 1), 0);
    }
}
