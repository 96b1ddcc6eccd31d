//! A bot's move that the storage refused is tried again later: no player would otherwise
//! play that turn, and the game would wait until the room left memory.
use crate::db::error::StoreError;
use crate::live::room_cmd::{BotChoice, RoomCmd};
use std::time::Duration;

/// The wait before the next attempt after `failures` failed ones: doubling from 100 ms, at
/// most 30 s, so that a failing disk is not hammered and a game never waits much longer
/// than the storage is down.
pub fn delay(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(9);
    Duration::from_millis(100 << doublings).min(Duration::from_secs(30))
}

/// Whether the storage refused a move because it already holds one at that ply: the room is
/// stale (another room or server played on). Such a move is never tried again: the room is
/// dropped and rebuilt from storage.
pub fn stale_room(error: &StoreError) -> bool {
    error.is_stale_move()
}

/// Logs the failure of `choice` and sends it back to its room after the [`delay`].
pub fn persist_later(
    game: &str,
    error: &StoreError,
    room: &crate::queue::Sender<RoomCmd>,
    mut choice: BotChoice,
) {
    choice.failures = choice.failures.saturating_add(1);
    let wait = delay(choice.failures);
    tracing::error!(
        game, error = %error, failures = choice.failures,
        retry_in_ms = wait.as_millis() as u64,
        "cannot persist a bot move; trying again later"
    );
    let room = room.clone();
    tokio::spawn(async move {
        tokio::time::sleep(wait).await;
        let _ = room.send(RoomCmd::BotMove(choice)).await;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_thirty_seconds() {
        let waits: Vec<u64> = (1..=12).map(|f| delay(f).as_millis() as u64).collect();
        assert_eq!(
            waits,
            [
                100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000
            ]
        );
        assert_eq!(delay(u32::MAX), Duration::from_secs(30));
    }
}
