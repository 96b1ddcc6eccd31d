//! Glicko-2 ratings, one per game and player, from the `skillratings` crate.
//!
//! A rated game is one rating period for each of its players. Multiplayer games are cut into
//! pairs: every seat meets every other seat once, and wins, draws or loses that pair as its
//! final rank is better than, equal to or worse than the other's. A player's new rating comes
//! from all its pairs at once, against the ratings everybody had before the game (so the seat
//! order changes nothing). Bot levels are players too (`bot:<level>`), so a human beating
//! `max` moves more than one beating `random`. Solo games (one seat against an automa) are
//! never rated: their best scores and the daily challenges rank them instead.
//!
//! Against farming (issue 29: ten wins over fresh throwaway accounts took one from 1500 to
//! first place):
//! - a rating whose deviation is above [`PROVISIONAL_DEVIATION`] is provisional: it is kept
//!   off the leaderboards (a newcomer's 350 falls below it after about a dozen rated games);
//! - a pair of two accounts where one of them is provisional counts only the first time they
//!   meet in a rated game of that kind: later results of that pair move neither of them (a
//!   player whose every pair of a game is so excluded keeps its rating as it was). Bot levels
//!   are not accounts and always count;
//! - rated tables have a clock (`api::create_table`), so a losing player cannot stall one:
//!   the time-out policy hands their seat to a bot and the game ends.
use crate::db::error::Result;
use crate::db::rows::{SEATS_OF_GAME, SeatKind, StoredSeat, read_seats};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use sqlx::{AnyConnection, Row};

/// The rating key of a bot level (user ids are hex, so they never start with this).
pub const BOT_PREFIX: &str = "bot:";

/// A rating whose deviation is above this is provisional (lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Who a seat's rating belongs to: its user, or its bot level; nobody for a seat still open.
pub fn player_of(seat: &SeatKind) -> Option<String> {
    match seat {
        SeatKind::Human(user) => Some(user.clone()),
        SeatKind::Bot(level) => Some(format!("{BOT_PREFIX}{level}")),
        SeatKind::Open | SeatKind::Invited | SeatKind::Reserved(_) => None,
    }
}

/// New ratings after one game: `players[s]` sits at seat `s` with rating `before[s]` and
/// finishes at rank `ranks[s]` (0 is first, ties share a rank). A player holding several seats
/// is rated once, from all of its seats' pairs; pairs of one player with itself count for
/// nothing, nor do the pairs of seats `(i, j)` for which `excluded(i, j)` (a player left with
/// no pair keeps its rating). Returns each distinct player (in seat order of first
/// appearance) and its rating.
pub fn rate(
    players: &[String],
    before: &[Glicko2Rating],
    ranks: &[u8],
    excluded: impl Fn(usize, usize) -> bool,
) -> Vec<(String, Glicko2Rating)> {
    let config = Glicko2Config::new();
    let mut out: Vec<(String, Glicko2Rating)> = Vec::new();
    for (s, player) in players.iter().enumerate() {
        if out.iter().any(|(p, _)| p == player) {
            continue;
        }
        let mine = (0..players.len()).filter(|&i| players[i] == *player);
        let mut results = Vec::new();
        for i in mine {
            for (j, other) in players.iter().enumerate() {
                if other == player || excluded(i, j) {
                    continue;
                }
                let outcome = match ranks[i].cmp(&ranks[j]) {
                    std::cmp::Ordering::Less => Outcomes::WIN,
                    std::cmp::Ordering::Equal => Outcomes::DRAW,
                    std::cmp::Ordering::Greater => Outcomes::LOSS,
                };
                results.push((before[j], outcome));
            }
        }
        let after = if results.is_empty() {
            before[s]
        } else {
            glicko2_rating_period(&before[s], &results, &config)
        };
        out.push((player.clone(), after));
    }
    out
}

/// Applies a finished game to the ratings, inside the transaction that records its end
/// (`conn`): nothing happens for a casual table, a solo game, or a table with fewer than two
/// distinct players. `outcome` is the stored result (`{"ranks": […], …}`).
pub async fn on_game_end(conn: &mut AnyConnection, game_id: &str, outcome: &str) -> Result<()> {
    let Some(game) = sqlx::query("SELECT kind, rated FROM games WHERE id = $1")
        .bind(game_id)
        .fetch_optional(&mut *conn)
        .await?
    else {
        return Ok(());
    };
    if game.try_get::<i64, _>("rated")? != 1 {
        return Ok(());
    }
    let kind: String = game.try_get("kind")?;
    // The ranking the server stored (`endings::final_ranks`: absent and resigned seats
    // last), read as the history reads it.
    let ranks = crate::db::stored_result::stored_ranks(&serde_json::from_str::<serde_json::Value>(
        outcome,
    )?)
    .ok_or_else(|| {
        <serde_json::Error as serde::de::Error>::custom("a stored result without ranks")
    })?;
    let rows = sqlx::query_as::<_, StoredSeat>(SEATS_OF_GAME)
        .bind(game_id)
        .fetch_all(&mut *conn)
        .await?;
    let mut players = Vec::with_capacity(rows.len());
    for seat in read_seats(rows)? {
        if seat.is_free() {
            return Ok(()); // not every seat taken: nothing to rate
        }
        players.extend(player_of(&seat));
    }
    let distinct = {
        let mut p = players.clone();
        p.sort();
        p.dedup();
        p.len()
    };
    if distinct < 2 || ranks.len() != players.len() {
        return Ok(());
    }
    let mut before = Vec::with_capacity(players.len());
    for p in &players {
        before.push(current(conn, &kind, p).await?);
    }
    // Pairs of two accounts where one is provisional, met before in a rated game of this
    // kind (see the module's documentation).
    let mut excluded = Vec::new();
    for i in 0..players.len() {
        for j in 0..players.len() {
            let (p, o) = (&players[i], &players[j]);
            let accounts = !p.starts_with(BOT_PREFIX) && !o.starts_with(BOT_PREFIX);
            let provisional = before[i].deviation > PROVISIONAL_DEVIATION
                || before[j].deviation > PROVISIONAL_DEVIATION;
            if p != o && accounts && provisional && met_before(conn, &kind, p, o, game_id).await? {
                excluded.push((i, j));
            }
        }
    }
    let now = crate::wall_clock::now_ms();
    let after = rate(&players, &before, &ranks, |i, j| excluded.contains(&(i, j)));
    for (player, rating) in &after {
        sqlx::query(
            "INSERT INTO ratings (game, player, rating, deviation, volatility, games, updated_at)
             VALUES ($1, $2, $3, $4, $5, 1, $6)
             ON CONFLICT (game, player) DO UPDATE SET rating = $3, deviation = $4,
               volatility = $5, games = ratings.games + 1, updated_at = $6",
        )
        .bind(&kind)
        .bind(player)
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(rating.volatility)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    for (seat, player) in players.iter().enumerate() {
        let new = after
            .iter()
            .find(|(p, _)| p == player)
            .map_or(before[seat].rating, |(_, r)| r.rating);
        sqlx::query(
            "INSERT INTO rating_changes (game_id, seat, player, rating_before, rating_after)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game_id)
        .bind(seat as i64)
        .bind(player)
        .bind(before[seat].rating)
        .bind(new)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Whether `a` and `b` played a rated game of `kind` together before `game_id`.
async fn met_before(
    conn: &mut AnyConnection,
    kind: &str,
    a: &str,
    b: &str,
    game_id: &str,
) -> Result<bool> {
    let row = sqlx::query(
        "SELECT mine.game_id FROM rating_changes mine
           JOIN rating_changes theirs ON theirs.game_id = mine.game_id
           JOIN games ON games.id = mine.game_id
          WHERE mine.player = $1 AND theirs.player = $2 AND games.kind = $3
            AND mine.game_id <> $4
          LIMIT 1",
    )
    .bind(a)
    .bind(b)
    .bind(kind)
    .bind(game_id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.is_some())
}

/// A player's rating for a game, or the starting rating (1500 ± 350) if it has none yet.
async fn current(conn: &mut AnyConnection, game: &str, player: &str) -> Result<Glicko2Rating> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility FROM ratings WHERE game = $1 AND player = $2",
    )
    .bind(game)
    .bind(player)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match row {
        Some(r) => Glicko2Rating {
            rating: r.try_get("rating")?,
            deviation: r.try_get("deviation")?,
            volatility: r.try_get("volatility")?,
        },
        None => Glicko2Rating::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_winner_gains_what_the_loser_loses() {
        let fresh = [Glicko2Rating::new(); 2];
        let after = rate(&names(&["a", "b"]), &fresh, &[0, 1], |_, _| false);
        assert!(after[0].1.rating > 1500.0);
        assert!(after[1].1.rating < 1500.0);
        assert!((after[0].1.rating - 1500.0 + (after[1].1.rating - 1500.0)).abs() < 1e-6);
    }

    /// Four seats: the first beats three, the last loses three, the two in the middle (tied)
    /// draw with each other; equal ratings before give a symmetric result.
    #[test]
    fn multiplayer_ranks_become_pairs() {
        let fresh = [Glicko2Rating::new(); 4];
        let after = rate(
            &names(&["a", "b", "c", "d"]),
            &fresh,
            &[0, 1, 1, 3],
            |_, _| false,
        );
        let r: Vec<f64> = after.iter().map(|(_, r)| r.rating).collect();
        assert!(r[0] > r[1] && r[1] > r[3]);
        assert!((r[1] - r[2]).abs() < 1e-9, "tied seats move alike: {r:?}");
        assert!((r[0] - 1500.0 + (r[3] - 1500.0)).abs() < 1e-6);
    }

    /// A player holding two seats is rated once; its pair with itself counts for nothing.
    #[test]
    fn one_player_in_two_seats_is_rated_once() {
        let fresh = [Glicko2Rating::new(); 3];
        let after = rate(
            &names(&["bot:greedy", "u", "bot:greedy"]),
            &fresh,
            &[0, 1, 2],
            |_, _| false,
        );
        assert_eq!(after.len(), 2);
        assert_eq!(after[0].0, "bot:greedy");
        // One win and one loss against the same opponent: level.
        assert!((after[1].1.rating - 1500.0).abs() < 1e-6);
    }

    /// An excluded pair moves neither side; a player with no pair left keeps its rating.
    #[test]
    fn excluded_pairs_count_for_nothing() {
        let fresh = [Glicko2Rating::new(); 3];
        let players = names(&["a", "b", "c"]);
        let all = rate(&players, &fresh, &[0, 1, 2], |_, _| false);
        let without_ab = rate(&players, &fresh, &[0, 1, 2], |i, j| {
            (i, j) == (0, 1) || (i, j) == (1, 0)
        });
        assert!(
            without_ab[0].1.rating < all[0].1.rating,
            "a beat only c then"
        );
        assert!(without_ab[0].1.rating > 1500.0);
        let two = names(&["a", "b"]);
        let nothing = rate(&two, &fresh[..2], &[0, 1], |_, _| true);
        assert_eq!(nothing[0].1, Glicko2Rating::new());
        assert_eq!(nothing[1].1, Glicko2Rating::new());
    }
}
