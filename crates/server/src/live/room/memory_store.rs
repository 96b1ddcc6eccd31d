//! The room's storage in memory, for the room's own tests: it keeps what a room writes, and
//! can refuse every write (a full disk) or hold one in flight until the test lets it commit.
//! The real SQLite and PostgreSQL paths are covered by the server's tests (`tests/server`).
use crate::db::chat_message::ChatMessage;
use crate::db::error::{MoveRefused, StoreError};
use crate::db::fence::Fence;
use crate::db::room_store::{Resignation, RoomStore, Stored};
use crate::db::rows::TurnWrite;
use crate::db::writer::NewMove;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use tokio::sync::{Notify, oneshot};

/// One move as the room handed it to the storage.
#[derive(Clone, Debug)]
pub struct StoredMove {
    pub ply: u32,
    pub text: String,
    pub by_bot: bool,
    pub result: Option<String>,
    pub turn: Option<TurnWrite>,
}

#[derive(Default)]
pub struct MemoryStore {
    moves: Mutex<Vec<StoredMove>>,
    /// The (ending, result) of every resignation that ended its game.
    ends: Mutex<Vec<(String, String)>>,
    /// The turns stored outside a move (a seat taken back, a clock marked seen), in order.
    turns: Mutex<Vec<TurnWrite>>,
    /// Every write fails, as on a full disk.
    refuse: AtomicBool,
    /// The next move waits for this before it commits.
    hold: Mutex<Option<oneshot::Receiver<()>>>,
    /// Told whenever a move reaches the storage (committed or not yet).
    pub arrived: Notify,
}

impl MemoryStore {
    pub fn moves(&self) -> Vec<StoredMove> {
        lock(&self.moves).clone()
    }

    /// The turns stored outside a move, in order.
    pub fn turns(&self) -> Vec<TurnWrite> {
        lock(&self.turns).clone()
    }

    /// The (ending, result) stored by resignations that ended the game.
    pub fn ends(&self) -> Vec<(String, String)> {
        lock(&self.ends).clone()
    }

    /// Every write fails (`true`) or succeeds again.
    pub fn refuse(&self, refuse: bool) {
        self.refuse.store(refuse, Ordering::SeqCst);
    }

    /// The next move stays in flight (not durable) until the returned sender is used or
    /// dropped.
    pub fn hold_next(&self) -> oneshot::Sender<()> {
        let (release, held) = oneshot::channel();
        *lock(&self.hold) = Some(held);
        release
    }

    fn refused(&self) -> Result<(), StoreError> {
        if self.refuse.load(Ordering::SeqCst) {
            return Err(StoreError::Injected("the disk is full".into()));
        }
        Ok(())
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl RoomStore for MemoryStore {
    fn append_move<'a>(&'a self, m: NewMove<'a>) -> Stored<'a> {
        Box::pin(async move {
            let held = lock(&self.hold).take();
            self.arrived.notify_one();
            if let Some(held) = held {
                let _ = held.await;
            }
            self.refused()?;
            let mut moves = lock(&self.moves);
            // As the database's unique (game, ply): a move at a ply already held is refused.
            if m.ply as usize != moves.len() {
                return Err(StoreError::MoveRefused(MoveRefused {
                    message: format!("ply {} while {} are stored", m.ply, moves.len()),
                    duplicate: true,
                    batch: false,
                }));
            }
            moves.push(StoredMove {
                ply: m.ply,
                text: m.text.to_string(),
                by_bot: m.by_bot,
                result: m.result,
                turn: m.turn,
            });
            Ok(())
        })
    }

    fn resign<'a>(&'a self, r: Resignation<'a>) -> Stored<'a> {
        Box::pin(async move {
            self.refused()?;
            lock(&self.ends).extend(r.end);
            Ok(())
        })
    }

    fn set_turn<'a>(&'a self, _: &'a str, turn: TurnWrite, _: Option<Fence>) -> Stored<'a> {
        Box::pin(async move {
            self.refused()?;
            lock(&self.turns).push(turn);
            Ok(())
        })
    }

    fn add_chat<'a>(&'a self, _: &'a ChatMessage) -> Stored<'a> {
        Box::pin(async move { self.refused() })
    }

    fn undo_moves<'a>(&'a self, _: &'a str, from: u32, _: Option<Fence>) -> Stored<'a> {
        Box::pin(async move {
            self.refused()?;
            lock(&self.moves).truncate(from as usize);
            Ok(())
        })
    }
}
