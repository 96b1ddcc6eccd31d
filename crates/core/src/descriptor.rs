//! What a game says about itself (after OpenSpiel's `GameType`): its key, seat range, options,
//! the bot levels that play it, every error code it can answer and the kinds of move it has.
//!
//! Each game crate defines one `static DESCRIPTOR` in its `descriptor.rs`; the server serves
//! them at `GET /api/games`, the lobby builds its table form from them and the CLI validates
//! its flags against them. Nothing outside a game's crate repeats these facts.
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct GameDescriptor {
    /// Stable key used in URLs, records and the CLI (`forgotten-treasures`).
    pub key: &'static str,
    /// The game's name in English (the browser translates through `game.<key>`).
    pub name: &'static str,
    /// Fewest and most seats (human or bot players; a solo automa is not a seat).
    pub seats: SeatRange,
    /// Options besides the player count, which is the `players` option of every game.
    pub options: &'static [OptionDescriptor],
    /// Bot levels that play this game, weakest first. The last one is the strongest.
    pub bot_levels: &'static [BotLevel],
    /// Search iterations per decision of the frozen reference configuration
    /// (`reference-2026-11`: `max` as it stood in November 2026), which every later level is
    /// measured against in one `arena` run. Never change it: add a new reference instead.
    #[serde(skip)]
    pub reference_iterations: u32,
    /// Every code a table's options can be refused with.
    pub setup_errors: &'static [&'static str],
    /// Every code a move can be refused with (syntax and illegal moves); the server sends
    /// them as the `reason` of an `illegal_move` error.
    pub move_errors: &'static [&'static str],
    /// What final rankings compare, in order (the names of [`crate::Outcome::keys`]); a
    /// solo game's automa wins ties (`automa_wins_ties`).
    pub ranking: &'static [&'static str],
    /// The kinds of move, with the fields of their structured form.
    pub moves: &'static [MoveKind],
    /// What the rulebook calls the parts of a game that [`crate::Rules::stage_number`] counts
    /// (`stage`, `round`: the browser translates `stage.<name>`), and how many a game has.
    /// The analysis totals points lost by them.
    pub stage_name: &'static str,
    pub stages: u8,
    /// Where a ranking key comes before `score` (Pyramido's `in_game`: an eliminated player
    /// ranks last whatever the points), the analysis counts a seat that is behind another on
    /// such a key as having scored nothing against at least these points: about what a
    /// finished game's players score. Points cannot say it otherwise: an elimination in the
    /// first stage ends a 2-player game at 0 to 0. 0 where the score is the first key.
    pub forfeit_points: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SeatRange {
    pub min: u8,
    pub max: u8,
}

impl SeatRange {
    pub fn contains(self, seats: u8) -> bool {
        (self.min..=self.max).contains(&seats)
    }
}

/// An option of the game other than `players`, chosen from named values.
#[derive(Debug, Serialize)]
pub struct OptionDescriptor {
    /// Its key in the options JSON (`solo`).
    pub key: &'static str,
    /// The values it accepts, as they appear in the options JSON.
    pub values: &'static [&'static str],
    /// The value a new table starts with.
    pub default: &'static str,
    /// The player counts for which the option applies (and is then required); empty: all.
    pub players: &'static [u8],
}

impl OptionDescriptor {
    pub fn applies_to(&self, players: u8) -> bool {
        self.players.is_empty() || self.players.contains(&players)
    }
}

/// A bot level: its name (as the lobby, the CLI and records name it) and its search budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BotLevel {
    pub name: &'static str,
    /// Search iterations per decision; 0 for the levels that do not search (random, greedy).
    pub iterations: u32,
    /// A typical think time per decision on one core, in milliseconds: `max`'s mean time
    /// per move on a core of its own at the player count where it is longest (docs/bots.md, "Time
    /// per move"), scaled by iterations for the lower levels; the lobby shows it beside each
    /// level so players know what to expect.
    pub think_ms: u32,
}

/// The names of the search levels of [`ladder`], weakest first.
pub const SEARCH_LEVELS: [&str; 4] = ["easy", "medium", "hard", "max"];

/// The platform's ladder for a game: `random`, `greedy`, then the search levels with this
/// game's iterations per decision and the think time they take.
pub const fn ladder(iterations: [u32; 4], think_ms: [u32; 4]) -> [BotLevel; 6] {
    const fn level(name: &'static str, iterations: u32, think_ms: u32) -> BotLevel {
        BotLevel {
            name,
            iterations,
            think_ms,
        }
    }
    [
        level("random", 0, 0),
        level("greedy", 0, 0),
        level(SEARCH_LEVELS[0], iterations[0], think_ms[0]),
        level(SEARCH_LEVELS[1], iterations[1], think_ms[1]),
        level(SEARCH_LEVELS[2], iterations[2], think_ms[2]),
        level(SEARCH_LEVELS[3], iterations[3], think_ms[3]),
    ]
}

/// One kind of move: its `kind` tag in the structured form, its fields, and an example of its
/// record text.
#[derive(Debug, Serialize)]
pub struct MoveKind {
    pub kind: &'static str,
    pub fields: &'static [&'static str],
    pub example: &'static str,
}

impl GameDescriptor {
    pub fn bot_level(&self, name: &str) -> Option<&'static BotLevel> {
        self.bot_levels.iter().find(|l| l.name == name)
    }

    pub fn option(&self, key: &str) -> Option<&'static OptionDescriptor> {
        self.options.iter().find(|o| o.key == key)
    }

    pub fn move_kind(&self, kind: &str) -> Option<&'static MoveKind> {
        self.moves.iter().find(|m| m.kind == kind)
    }
}
