//! Building a full state from what one seat sees (issue 50, item 5): the page of a game the
//! server runs holds only a seat's view, yet its previews and local analyses need states to
//! play moves on. A game that offers [`ViewSampler::sample_from_view`] rebuilds every part
//! the view shows and draws the hidden parts uniformly from what the seat has not seen, as
//! [`crate::Rules::determinize`] does from a true state; the RNG of future chance events is
//! fresh. The hook is optional (like [`crate::BotHooks`]' and [`crate::Tutorials`]'): its
//! default answers `no_sampler`, and the registry reaches it by the game's key, so the
//! shell names no game.
use crate::rules::ErrorCode;
use crate::{GameRng, Seat};

/// Why no state could be built from a view: the game offers no sampler, or the view is not
/// one the game's own `view` gives (a stale or hand-edited page).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SampleError {
    pub code: &'static str,
    pub message: String,
}

impl SampleError {
    /// The game has no sampler.
    pub fn unsupported() -> SampleError {
        SampleError {
            code: "no_sampler",
            message: "this game cannot build a state from a view".into(),
        }
    }

    /// The view does not describe a position of the game.
    pub fn bad_view(message: impl Into<String>) -> SampleError {
        SampleError {
            code: "bad_view",
            message: message.into(),
        }
    }
}

impl ErrorCode for SampleError {
    fn code(&self) -> &'static str {
        self.code
    }
}

impl From<serde_json::Error> for SampleError {
    fn from(e: serde_json::Error) -> SampleError {
        SampleError::bad_view(e.to_string())
    }
}

/// A view as the page holds it (re-exported so that a game crate needs no JSON crate of its
/// own to read one: its mirror types derive `Deserialize` and read `&ViewJson` directly).
pub type ViewJson = serde_json::Value;

/// A game's sampler (every game implements the trait, if only as `impl ViewSampler for Game
/// {}`; [`crate::Rules`] requires it).
pub trait ViewSampler {
    /// A state whose view for `seat` is `view` (the JSON the game's `view(Some(seat))`
    /// serialises to, byte for byte once serialised again) and whose legal moves are those
    /// the true state offers; everything the view hides drawn with `rng`. Pure and
    /// deterministic: the same view, seat and RNG give the same state.
    fn sample_from_view(view: &ViewJson, seat: Seat, rng: &mut GameRng) -> Result<Self, SampleError>
    where
        Self: Sized,
    {
        let _ = (view, seat, rng);
        Err(SampleError::unsupported())
    }

    /// Whether [`ViewSampler::sample_from_view`] is implemented (the harness tests every game
    /// that says so, and the page offers previews only for those).
    fn samples_views() -> bool {
        false
    }
}
