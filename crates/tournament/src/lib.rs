//! The pure core of tournaments for tables of 2 to 5 seats, named after no game: Swiss rounds
//! ([`Swiss`]) and Arena pools ([`Arena`]), placement points ([`points`]), standings with
//! their tie-breaks ([`standings`]). The server drives it and commits every pairing before
//! anyone is told; this crate only computes.
//!
//! Pure and deterministic like the rules crates: no clock (the Arena is told the time in
//! milliseconds), no I/O, no thread RNG (ties and seat orders are drawn from the
//! tournament's seed with [`pyramidion_core::GameRng`]). The same state and the same calls
//! give the same pairings, bit for bit. See docs/tournaments.md.
#![forbid(unsafe_code)]

pub mod arena;
mod arena_pool;
pub mod error;
mod exact;
pub mod format;
pub mod meetings;
pub mod oracle;
pub mod player;
pub mod points;
mod seating;
pub mod standings;
pub mod streak;
pub mod swiss;
pub mod swiss_pairing;

pub use arena::{Arena, ArenaConfig, ArenaPlayer, ArenaStanding, ArenaState, ArenaTable};
pub use error::TournamentError;
pub use format::{Layout, TableFormat};
pub use meetings::Meetings;
pub use player::PlayerId;
pub use points::TableResult;
pub use standings::Standing;
pub use swiss::{Swiss, SwissConfig, SwissPlayer, SwissRound};
pub use swiss_pairing::{Entrant, Pairing, RoundRequest, pair_round};
