//! Shared vocabulary of the Pyramidion games.
//!
//! Everything here is pure and deterministic: no clock, no I/O, no thread RNG. Randomness
//! comes from [`GameRng`], which a game state owns and serialises, so a game is fully
//! described by `(kind, options, seed, moves)` — see [`record`].
#![forbid(unsafe_code)]

pub mod bench;
pub mod descriptor;
pub mod envelope;
pub mod hooks;
pub mod notation;
pub mod player_count;
pub mod record;
pub mod rng;
pub mod rules;
pub mod sampler;
pub mod seat;
pub mod tutorial;
pub mod tutorial_search;

pub use descriptor::GameDescriptor;
pub use envelope::{AutomaSummary, Envelope, SeatSummary};
pub use hooks::BotHooks;
pub use notation::{Notation, Redacted};
pub use player_count::PlayerCount;
pub use rng::{GameRng, Seed};
pub use rules::{ErrorCode, Outcome, RankKey, Rules, SetupError, ToMove};
pub use sampler::{SampleError, ViewJson, ViewPart, ViewSampler};
pub use seat::Seat;
pub use tutorial::Tutorials;
