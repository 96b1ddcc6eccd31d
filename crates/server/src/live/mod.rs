//! Live games: one room (task) per game in memory, the authority over its moves, clocks and
//! bots; the WebSocket connections that follow rooms, and what they send (protocol, patches,
//! deflated frames); the bot pool and its fair queue; the lobby hub; drain on SIGTERM.
pub mod bot_pool;
pub mod bot_retry;
pub mod bot_seats;
pub mod capacity;
pub mod chat;
pub mod chat_reports;
pub mod clock;
pub mod context;
pub mod daily_embargo;
pub mod drain;
pub mod endings;
pub mod fair_queue;
pub mod fanout;
pub mod hub;
pub mod json_spans;
pub mod link;
pub mod load_error;
pub mod moves;
pub mod patch;
pub mod protocol;
pub mod room;
pub mod room_cmd;
pub mod rooms;
pub mod stored_game;
pub mod tournament_msg;
pub mod vacation;
pub mod visibility;
pub mod wire;
