//! A chat message as stored and as clients get it: a type of its own, below the room, the
//! protocol and the storage that all carry it (`crate::live::chat` checks and reads them).
use serde::Serialize;

/// A stored chat message, as clients get it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ChatMessage {
    pub id: String,
    pub game: String,
    /// `players` or `spectators`.
    pub channel: &'static str,
    pub user: String,
    pub name: String,
    /// The writer's seat (players' channel), none for a spectator.
    pub seat: Option<u8>,
    pub text: Option<String>,
    pub phrase: Option<String>,
    /// Moves played when it was written (the replay places it there).
    pub ply: u64,
    pub at: i64,
}
