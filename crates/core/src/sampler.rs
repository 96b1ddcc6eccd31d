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
    #[inline(never)]
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

/// A view as the page holds it (re-exported so that a game crate needs no JSON crate of its
/// own to read one, through [`ViewPart`]).
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

/// A part of a view being read by a sampler: its fields by name, its numbers, strings and
/// arrays, each refusal a `bad_view` naming what was missing. Read by hand rather than by
/// serde's derived `Deserialize`: that code, generated per mirror type of every game, made
/// the WebAssembly module 50 KB (gzipped) larger, past its 300 KB ceiling; these few
/// accessors are shared by every game, and never inlined (each call site would otherwise
/// carry its own copy of the error paths).
#[derive(Clone, Copy, Debug)]
pub struct ViewPart<'a>(pub &'a ViewJson);

impl<'a> ViewPart<'a> {
    /// The field `key` (`bad_view` when it is absent).
    #[inline(never)]
    pub fn get(self, key: &str) -> Result<ViewPart<'a>, SampleError> {
        self.0
            .get(key)
            .map(ViewPart)
            .ok_or_else(|| SampleError::bad_view(format!("no '{key}' in the view")))
    }

    /// The field `key`, `None` when it is absent or `null`.
    #[inline(never)]
    pub fn opt(self, key: &str) -> Option<ViewPart<'a>> {
        self.0.get(key).filter(|v| !v.is_null()).map(ViewPart)
    }

    /// This part, `None` when it is `null`.
    #[inline(never)]
    pub fn non_null(self) -> Option<ViewPart<'a>> {
        (!self.0.is_null()).then_some(self)
    }

    #[inline(never)]
    pub fn u64(self) -> Result<u64, SampleError> {
        self.0
            .as_u64()
            .ok_or_else(|| SampleError::bad_view("a number expected"))
    }

    #[inline(never)]
    pub fn i64(self) -> Result<i64, SampleError> {
        self.0
            .as_i64()
            .ok_or_else(|| SampleError::bad_view("a number expected"))
    }

    /// A number that fits `T` (`u8`, `u16`, `u32`, `usize`…).
    #[inline(never)]
    pub fn num<T: TryFrom<u64>>(self) -> Result<T, SampleError> {
        T::try_from(self.u64()?).map_err(|_| SampleError::bad_view("a number out of range"))
    }

    #[inline(never)]
    pub fn bool(self) -> Result<bool, SampleError> {
        self.0
            .as_bool()
            .ok_or_else(|| SampleError::bad_view("true or false expected"))
    }

    #[inline(never)]
    pub fn str(self) -> Result<&'a str, SampleError> {
        self.0
            .as_str()
            .ok_or_else(|| SampleError::bad_view("a string expected"))
    }

    /// The items of an array.
    #[inline(never)]
    pub fn items(self) -> Result<impl Iterator<Item = ViewPart<'a>>, SampleError> {
        let items = self
            .0
            .as_array()
            .ok_or_else(|| SampleError::bad_view("an array expected"))?;
        Ok(items.iter().map(ViewPart))
    }

    /// The index of this string among `names` (an enum's names, in its order).
    pub fn one_of(self, names: &[&str]) -> Result<usize, SampleError> {
        self.name_index(&mut names.iter().copied())
    }

    /// The value this string names in `table` (an enum's `(name, value)` pairs): how every
    /// sampler reads a phase or a status, one table per enum beside the game's own names.
    pub fn pick<T: Copy>(self, table: &[(&str, T)]) -> Result<T, SampleError> {
        Ok(table[self.name_index(&mut table.iter().map(|(n, _)| *n))?].1)
    }

    /// Shared by [`ViewPart::one_of`] and [`ViewPart::pick`], not generic, so that each table's
    /// type adds no copy of the search and its error.
    #[inline(never)]
    fn name_index(self, names: &mut dyn Iterator<Item = &str>) -> Result<usize, SampleError> {
        let s = self.str()?;
        for (at, n) in names.enumerate() {
            if n == s {
                return Ok(at);
            }
        }
        Err(SampleError::bad_view(format!("unknown '{s}'")))
    }

    /// The boolean field `key`, `false` when it is absent or `null` (a flag a view omits
    /// when unset).
    #[inline(never)]
    pub fn flag(self, key: &str) -> Result<bool, SampleError> {
        self.opt(key).map_or(Ok(false), ViewPart::bool)
    }

    /// The envelope's seat to move, checked against the table's `seats`; `otherwise` once the
    /// game is over (`to_move` is then `null`, and no rule reads the seat that moved last).
    #[inline(never)]
    pub fn to_move(self, seats: usize, otherwise: u8) -> Result<u8, SampleError> {
        match self.opt("to_move") {
            None => Ok(otherwise),
            Some(s) => {
                let s: u8 = s.num()?;
                if usize::from(s) >= seats {
                    return Err(SampleError::bad_view("no such seat to move"));
                }
                Ok(s)
            }
        }
    }
}
