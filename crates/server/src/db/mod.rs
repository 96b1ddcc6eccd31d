//! Storage: the store (SQLite or PostgreSQL through sqlx, migrations in `../migrations`), the
//! single writer that makes moves durable before they are acknowledged, the fences that keep
//! an instance that lost a game from writing to it, the rows written after a game (results,
//! ratings, people's data), and the quick-pairing queue.
pub(crate) mod after_game_store;
pub mod chat_message;
pub mod error;
pub mod fence;
pub(crate) mod offline_store;
pub mod pairing_queue;
pub(crate) mod people_store;
pub mod ratings;
pub mod room_store;
pub mod rows;
pub mod store;
pub mod stored_result;
pub mod undo_store;
pub mod vacation_store;
pub mod writer;
