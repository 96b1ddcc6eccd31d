//! What a room stores of a move: its canonical text (the engine's own form of it), never what
//! the client typed, so that every stored record reads back and replays.
use crate::error_code::ApiErrorCode;
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::{Outbox, RoomCmd};
use std::time::Duration;

/// Longest move text a client may send, in bytes (every game's moves are far shorter).
pub const MAX_MOVE_TEXT: usize = 128;

/// A move text longer than [`MAX_MOVE_TEXT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a move has at most {MAX_MOVE_TEXT} bytes")]
pub struct MoveTooLong;

/// Refuses a move text longer than [`MAX_MOVE_TEXT`]. What is stored of an accepted move is
/// the engine's own text of it (`PlayedMove::full`), whatever the client typed.
pub fn check_length(text: &str) -> Result<(), MoveTooLong> {
    if text.len() > MAX_MOVE_TEXT {
        return Err(MoveTooLong);
    }
    Ok(())
}

/// How long a dropped subscriber's notice may wait for room in its queue.
const NOTICE_WAIT: Duration = Duration::from_secs(30);

/// Tells a subscriber that could not keep up (its queue was full) that it no longer follows
/// `game`: it resubscribes with its last event. Sent once its queue has room again.
pub fn tell_dropped(out: &Outbox, game: &str, state_id: Option<u64>) {
    let (out, msg) = (
        out.clone(),
        ServerMsg::Error {
            code: ApiErrorCode::Lagging.into(),
            message: "you fell behind and no longer follow this game: subscribe again with your last event".into(),
            game: Some(game.to_string()),
            reason: None,
            state_id,
        },
    );
    tokio::spawn(async move {
        let _ = tokio::time::timeout(NOTICE_WAIT, out.send(msg)).await;
    });
}

/// An untouched room leaves memory: its channel is closed (so new commands find it ended and
/// rebuild it from storage), and a subscription that was already queued is told to subscribe
/// again, as a lagging subscriber would be.
pub fn evict(game: &str, rx: &mut crate::queue::Receiver<RoomCmd>) {
    rx.close();
    while let Ok(cmd) = rx.try_recv() {
        if let RoomCmd::Subscribe { out, .. } = cmd {
            tell_dropped(&out, game, None);
        }
    }
    tracing::debug!(game, "untouched room dropped from memory");
}
