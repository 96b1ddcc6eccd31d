//! Fencing the writes of a game run by one instance among several (see `crate::cluster`): a
//! game's lease names its owner and an epoch, and a takeover updates it. A write for the game
//! commits only if its instance still holds the lease at the epoch its room started with,
//! read under a shared lock on the lease row in the write's own transaction: an instance that
//! lost the game cannot write to it after the new owner has read it. Its own file because the
//! writer's moves and the HTTP side's jobs (seats, pairing) are fenced alike. On a single
//! instance (SQLite) there are no fences.
use crate::db::error::{MoveRefused, Result, StoreError};
use sqlx::AnyConnection;

/// Why a write whose instance no longer holds its game's lease was refused (the writer's
/// moves and the HTTP side's jobs say the same).
pub(crate) const FENCED_OUT: &str = "this instance no longer runs this game";

/// What a move of a game run by one instance among several must still hold when it commits:
/// the game's lease, at the epoch its room started with (see `crate::cluster`).
#[derive(Clone, Debug)]
pub struct Fence {
    pub owner: String,
    pub epoch: i64,
}

/// Whether this instance still holds `game_id` at `fence`'s epoch, under a shared lock on
/// the lease row until the transaction ends (the writer checks each move of a batch the same
/// way); an error to return from a job that must not commit otherwise.
pub async fn hold_fence(
    conn: &mut AnyConnection,
    game_id: &str,
    fence: Option<&Fence>,
) -> Result<()> {
    match fence {
        Some(fence) if !holds(conn, game_id, fence).await? => {
            Err(StoreError::MoveRefused(MoveRefused {
                message: FENCED_OUT.into(),
                duplicate: true,
                batch: false,
            }))
        }
        _ => Ok(()),
    }
}

/// Whether the lease of `game_id` is still `fence`'s, read under a shared lock that lasts
/// until the transaction ends.
pub(crate) async fn holds(conn: &mut AnyConnection, game_id: &str, fence: &Fence) -> Result<bool> {
    let held = sqlx::query(
        "SELECT 1 FROM game_leases WHERE game_id = $1 AND owner = $2 AND epoch = $3 FOR SHARE",
    )
    .bind(game_id)
    .bind(&fence.owner)
    .bind(fence.epoch)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(held.is_some())
}
