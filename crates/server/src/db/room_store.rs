//! What a live game's room asks of the storage: the handful of writes that must be durable
//! before the room says anything of them (a move, a resignation, a seat taken back, a chat
//! message). A trait, so that the room depends on these calls and not on the database: the
//! server gives it the real store (SQLite or PostgreSQL), the room's own tests an in-memory
//! one that can refuse a write, or hold it, on paused time.
use crate::db::chat_message::ChatMessage;
use crate::db::error::Result;
use crate::db::fence::Fence;
use crate::db::rows::TurnWrite;
use crate::db::store::Store;
use crate::db::writer::NewMove;
use futures_util::future::BoxFuture;

/// A write in flight: `Ok` once it is committed (durable), never before.
pub type Stored<'a> = BoxFuture<'a, Result<()>>;

/// The resignations of one request, stored together (and the game's end with them).
pub struct Resignation<'a> {
    pub game_id: &'a str,
    /// (seat, its rank among the game's resignations), in order.
    pub seats: Vec<(u8, usize)>,
    /// Moves played when they resigned.
    pub ply: i64,
    /// (ending, result) when these resignations end the game.
    pub end: Option<(String, String)>,
    pub fence: Option<Fence>,
}

/// The writes of a room. Boxed futures rather than `async fn`: the room holds its store as
/// `Arc<dyn RoomStore>`, which a trait with `async fn` cannot be.
pub trait RoomStore: Send + Sync {
    /// Appends one accepted move (with the turn and clock after it, and the result when it
    /// ends the game), fenced by the room's lease among several instances.
    fn append_move<'a>(&'a self, m: NewMove<'a>) -> Stored<'a>;
    fn resign<'a>(&'a self, r: Resignation<'a>) -> Stored<'a>;
    /// Stores the seat to move and the clock outside a move (a seat taken back).
    fn set_turn<'a>(
        &'a self,
        game_id: &'a str,
        turn: TurnWrite,
        fence: Option<Fence>,
    ) -> Stored<'a>;
    fn add_chat<'a>(&'a self, m: &'a ChatMessage) -> Stored<'a>;
    /// Takes the moves from ply `from` on back (an undo: `crate::db::undo_store`), fenced
    /// like a move.
    fn undo_moves<'a>(&'a self, game_id: &'a str, from: u32, fence: Option<Fence>) -> Stored<'a>;
}

impl RoomStore for Store {
    fn append_move<'a>(&'a self, m: NewMove<'a>) -> Stored<'a> {
        Box::pin(Store::append_move(self, m))
    }

    fn resign<'a>(&'a self, r: Resignation<'a>) -> Stored<'a> {
        Box::pin(Store::resign(
            self, r.game_id, r.seats, r.ply, r.end, r.fence,
        ))
    }

    fn set_turn<'a>(
        &'a self,
        game_id: &'a str,
        turn: TurnWrite,
        fence: Option<Fence>,
    ) -> Stored<'a> {
        Box::pin(Store::set_turn_fenced(self, game_id, turn, fence))
    }

    fn add_chat<'a>(&'a self, m: &'a ChatMessage) -> Stored<'a> {
        Box::pin(Store::add_chat(self, m))
    }

    fn undo_moves<'a>(&'a self, game_id: &'a str, from: u32, fence: Option<Fence>) -> Stored<'a> {
        Box::pin(Store::undo_moves(self, game_id, from, fence))
    }
}
