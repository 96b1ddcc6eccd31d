//! What a room is asked, and how: its command queue (`RoomCmd`, through a `RoomHandle`) and
//! the queue of each connection that follows it (`Outbox`). A module of its own, below the
//! room, so that the connections, the cluster's link, the endings and the bot retries that
//! send commands need not use the room itself.
use crate::live::endings::{Action, Answer};
use crate::live::protocol::ServerMsg;
use std::time::Instant;

/// A connection's message queue (boxed slots: `crate::queue`).
pub type Outbox = crate::queue::Sender<ServerMsg>;

pub enum RoomCmd {
    Subscribe {
        conn: u64,
        user: Option<String>,
        out: Outbox,
        last_event: Option<u64>,
    },
    Unsubscribe {
        conn: u64,
    },
    Move {
        conn: u64,
        user: String,
        state_id: u64,
        text: String,
        received: Instant,
    },
    /// A bot's choice for the state `state_id` (ignored if the state moved on).
    BotMove(BotChoice),
    /// A chat message (`crate::live::chat`).
    Chat(ChatCmd),
    /// How far the game is: (stage number, moves played), for the Watch list.
    Progress(tokio::sync::oneshot::Sender<(u8, u64)>),
    /// Whether this instance still holds the game at the room's epoch: a room that lost its
    /// game stops serving it (`Rooms::check_leases`).
    CheckLease,
    /// Resign, abandon, claim or "I'm back" (`crate::live::endings`); `user` none: the server.
    Act {
        user: Option<String>,
        action: Action,
        reply: tokio::sync::oneshot::Sender<Answer>,
    },
}

#[derive(Clone)]
pub struct RoomHandle {
    pub tx: crate::queue::Sender<RoomCmd>,
    /// Whether the game runs here, or on another instance this handle forwards to
    /// (`crate::live::link`).
    pub local: bool,
    /// The epoch of the lease the room runs the game with (a local room among several
    /// instances), for the heartbeat's comparison with the leases held
    /// (`Rooms::check_leases`).
    pub epoch: Option<i64>,
}

/// One chat message a connection sends.
pub struct ChatCmd {
    pub conn: u64,
    pub user: String,
    pub name: String,
    pub text: Option<String>,
    pub phrase: Option<String>,
}

/// A bot's move for one state, and how many times it could not be persisted already.
pub struct BotChoice {
    pub state_id: u64,
    pub text: String,
    pub timeout_seat: Option<u8>,
    pub failures: u32,
}

static NEXT_CONN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A connection number no other connection of this instance has (rooms tell their
/// subscribers apart by it; an internal link's connections take theirs here too).
pub fn next_conn() -> u64 {
    NEXT_CONN.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
