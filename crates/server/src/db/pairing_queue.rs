//! The quick-pairing queue, in the database (table `pairing_queue`, migration 0010): one row
//! per waiting player. Kept there rather than in memory so that, with several instances, the
//! queue outlives the instance holding lease "~pairing": whichever instance takes the lease
//! over reads the same rows. On one instance (SQLite) it is the same code; the rows just live
//! in SQLite.
//!
//! Every write goes through the store's writer, so a row exists (is durable) before its ask is
//! acknowledged, and seating removes the seated players' rows in the very transaction that
//! creates their game: a row can be removed once only, so no player is ever seated twice.
use crate::db::error::{Result, SeatRefused, StoreError};
use crate::db::fence::Fence;
use crate::db::rows::{GameRow, SeatKind, corrupt};
use crate::db::store::Store;
use pyramidion_games::GameKind;
use sqlx::Row;

/// The lease row of the pairing queue (no game id starts with `~`): who may seat its players
/// (`crate::cluster::pairing`).
pub const LEASE: &str = "~pairing";

/// What a player asks to be paired for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub game: GameKind,
    pub players: u8,
    /// A clock profile key (none: no clock).
    pub clock: Option<String>,
}

/// One waiting player.
#[derive(Clone, Debug)]
pub struct Waiting {
    pub user: String,
    pub setting: Setting,
    pub rated: bool,
    pub range: Option<u32>,
    pub rating: f64,
    pub since: i64,
}

/// Every waiting player, the longest waiting first.
pub async fn load(store: &Store) -> Result<Vec<Waiting>> {
    let rows = sqlx::query("SELECT * FROM pairing_queue ORDER BY since, user_id")
        .fetch_all(&mut *store.read().await?)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(Waiting {
                user: r.try_get("user_id")?,
                setting: Setting {
                    game: r
                        .try_get::<String, _>("game")?
                        .parse()
                        .map_err(|e| corrupt("a stored game kind", e))?,
                    players: u8::try_from(r.try_get::<i64, _>("players")?)
                        .map_err(|e| StoreError::Corrupt(format!("a stored player count: {e}")))?,
                    clock: r.try_get("clock")?,
                },
                rated: r.try_get::<i64, _>("rated")? != 0,
                range: r
                    .try_get::<Option<i64>, _>("rating_range")?
                    .map(u32::try_from)
                    .transpose()
                    .map_err(|e| StoreError::Corrupt(format!("a stored rating range: {e}")))?,
                rating: r.try_get("rating")?,
                since: r.try_get("since")?,
            })
        })
        .collect()
}

/// Makes `w` wait (instead of whatever its player waited for before); durable on return.
pub async fn add(store: &Store, w: &Waiting) -> Result<()> {
    let w = w.clone();
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                sqlx::query("DELETE FROM pairing_queue WHERE user_id = $1")
                    .bind(&w.user)
                    .execute(&mut *c)
                    .await?;
                sqlx::query(
                    "INSERT INTO pairing_queue
                       (user_id, game, players, clock, rated, rating_range, rating, since)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(&w.user)
                .bind(w.setting.game.key())
                .bind(i64::from(w.setting.players))
                .bind(w.setting.clock.as_deref())
                .bind(i64::from(w.rated))
                .bind(w.range.map(i64::from))
                .bind(w.rating)
                .bind(w.since)
                .execute(&mut *c)
                .await?;
                Ok(())
            })
        })
        .await
}

/// Stops `users` waiting (cancelled, waited too long, or gone).
pub async fn remove(store: &Store, users: Vec<String>) -> Result<()> {
    if users.is_empty() {
        return Ok(());
    }
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                for user in &users {
                    sqlx::query("DELETE FROM pairing_queue WHERE user_id = $1")
                        .bind(user)
                        .execute(&mut *c)
                        .await?;
                }
                Ok(())
            })
        })
        .await
}

/// Seats `waited` (rows of the queue) and `newcomer` (who just asked, and may have a row of an
/// earlier ask) at the new game `game`, in one transaction: the game, its seats and the
/// removal of their rows commit together or not at all. Refused ([`SeatRefused`]) when one of
/// `waited` is no longer in the queue, or when `fence` (several instances) no longer holds the
/// queue's lease: then nothing is written.
pub async fn seat(
    store: &Store,
    waited: &[Waiting],
    newcomer: &str,
    game: &GameRow,
    seats: &[SeatKind],
    fence: Option<Fence>,
) -> Result<()> {
    let (users, newcomer) = (
        waited.iter().map(|w| w.user.clone()).collect::<Vec<_>>(),
        newcomer.to_string(),
    );
    let (game, seats) = (game.clone(), seats.to_vec());
    store
        .writer
        .run(move |c| {
            Box::pin(async move {
                // Under a shared lock on the lease row: a takeover waits for this transaction.
                if let Err(e) = crate::db::fence::hold_fence(c, LEASE, fence.as_ref()).await {
                    return Err(if matches!(e, StoreError::MoveRefused(_)) {
                        SeatRefused::Moved.into()
                    } else {
                        e
                    });
                }
                for user in &users {
                    let gone = sqlx::query("DELETE FROM pairing_queue WHERE user_id = $1")
                        .bind(user)
                        .execute(&mut *c)
                        .await?;
                    // Removed by someone else meanwhile: that player is seated elsewhere or
                    // left; this group does not sit (the savepoint is rolled back).
                    if gone.rows_affected() != 1 {
                        return Err(SeatRefused::Gone.into());
                    }
                }
                sqlx::query("DELETE FROM pairing_queue WHERE user_id = $1")
                    .bind(&newcomer)
                    .execute(&mut *c)
                    .await?;
                crate::db::rows::insert_game(c, &game, None).await?;
                for (i, seat) in seats.iter().enumerate() {
                    crate::db::rows::insert_seat(c, &game.id, i, seat).await?;
                }
                Ok(())
            })
        })
        .await
}
