//! The state of a Pyramids game: the table, the phase, and their accessors.
use crate::data::{CARD_COUNT, CardId};
use crate::moves::{Allowed, God, MAX_HAND};
use crate::necropolis::{NONE, Necropolis, Score, Stack, score_all, score_of};
use crate::options::Options;
use pyramidion_core::{GameRng, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Rounds in a game (one Pyramid card per round: 10 cards).
pub const ROUNDS: u8 = 10;
pub const MIN_PLAYERS: u8 = 2;
pub const MAX_PLAYERS: u8 = 5;

pub(crate) const BUILT_OBELISK: u8 = 1;
pub(crate) const BUILT_TOMB: u8 = 2;

/// What the seat to move decides now.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Phase 2: take a God tile (`god N`).
    ChooseGod,
    /// Phase 3.a: take a pair from the quarry (`pair N`).
    ChoosePair,
    /// Phase 3.b: the mandatory Pyramid card (`pyramid H P`).
    BuildPyramid,
    /// Phase 3.b: optional Obelisk / Tomb cards, or `done`.
    BuildMore,
    /// Phase 4: discard down to one card (`discard H`).
    Discard,
    Over,
}

/// The three edifices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edifice {
    Pyramid,
    Obelisk,
    Tomb,
}

impl fmt::Display for Edifice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Edifice::Pyramid => "Pyramid",
            Edifice::Obelisk => "Obelisk",
            Edifice::Tomb => "Tomb",
        })
    }
}

/// A game of Pyramids. All randomness comes from the owned, seeded [`GameRng`].
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub(crate) options: Options,
    pub(crate) n: u8,
    pub(crate) rng: GameRng,
    pub(crate) ply: u32,
    /// 0-based.
    pub(crate) round: u8,
    pub(crate) first: u8,
    pub(crate) phase: Phase,
    /// Shuffled at setup; cards are drawn from `deck_pos` on.
    pub(crate) deck: [u8; CARD_COUNT],
    pub(crate) deck_pos: u8,
    /// Pair `i` of the quarry (`NONE` once taken).
    pub(crate) quarry: [[u8; 2]; 5],
    pub(crate) pair_owner: [u8; 5],
    /// Seat holding each God tile this round.
    pub(crate) god_owner: [u8; 5],
    /// God index (0-based) of each seat this round.
    pub(crate) seat_god: [u8; 5],
    /// The God index set aside this round (2 players), else `NONE`.
    pub(crate) set_aside: u8,
    /// God tiles taken this round.
    pub(crate) picks: u8,
    /// Seats in God-number order (the building order of this round).
    pub(crate) order: [u8; 5],
    /// Index in `order` of the seat building.
    pub(crate) turn: u8,
    /// Optional edifices already built this turn (`BUILT_*`).
    pub(crate) built: u8,
    /// Discard phase: the seat at `first + cursor` decides.
    pub(crate) cursor: u8,
    /// Discarded cards (face up).
    pub(crate) discard: u128,
    /// Per seat, the pair it took from the quarry this round (`NONE` until it takes one).
    /// Public: a pair is taken face up, in front of everyone (RULES.md, "What each seat may
    /// see").
    pub(crate) took: [[u8; 2]; 5],
    /// Per seat, the cards it discarded face up at the latest round end (a set of ids).
    pub(crate) round_discards: [u128; 5],
    pub(crate) hands: [Stack<{ MAX_HAND as usize }>; 5],
    pub(crate) necropolis: [Necropolis; 5],
}

impl Game {
    /// Number of God tiles used at this table (Thoth only with 4–5 players).
    pub fn gods_in_game(&self) -> u8 {
        if self.n <= 3 { 4 } else { 5 }
    }

    /// Whether `god` can be taken now (ignores whose turn it is and the phase).
    pub fn god_available(&self, god: God) -> bool {
        let g = god.index();
        g < self.gods_in_game() as usize && g as u8 != self.set_aside && self.god_owner[g] == NONE
    }

    /// The God tile set aside this round (2 players only).
    pub fn set_aside(&self) -> Option<God> {
        (self.set_aside != NONE).then(|| God::ALL[self.set_aside as usize])
    }

    /// Who holds `god` this round.
    pub fn god_owner(&self, god: God) -> Option<Seat> {
        let s = self.god_owner[god.index()];
        (s != NONE).then_some(Seat(s))
    }

    /// The God tile of `seat` this round.
    pub fn god_of(&self, seat: Seat) -> Option<God> {
        let g = self.seat_god[seat.index()];
        (g != NONE).then(|| God::ALL[g as usize])
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Current round, 1-based (`ROUNDS` once over).
    pub fn round(&self) -> u8 {
        self.round + 1
    }

    pub fn first_player(&self) -> Seat {
        Seat(self.first)
    }

    /// The quarry's pairs; `None` for a pair already taken.
    pub fn quarry(&self) -> impl Iterator<Item = Option<[CardId; 2]>> + '_ {
        self.quarry[..self.n as usize]
            .iter()
            .map(|&q| (q[0] != NONE).then_some(q))
    }

    /// Who took pair `index` (0-based) this round.
    pub fn pair_owner(&self, index: usize) -> Option<Seat> {
        let s = self.pair_owner[index];
        (s != NONE).then_some(Seat(s))
    }

    /// Cards left in the deck.
    pub fn deck_len(&self) -> usize {
        CARD_COUNT - self.deck_pos as usize
    }

    /// The hand of `seat`. **Hidden information**: only for that seat (or for a determinised
    /// copy); views are the way to show a game.
    pub fn hand(&self, seat: Seat) -> &[CardId] {
        self.hands[seat.index()].as_slice()
    }

    /// The necropolis of `seat` (its Tomb is hidden information until the end).
    pub fn necropolis(&self, seat: Seat) -> &Necropolis {
        &self.necropolis[seat.index()]
    }

    /// The pair `seat` took from the quarry this round, if it took one (public: taken face up).
    pub fn took(&self, seat: Seat) -> Option<[CardId; 2]> {
        let pair = self.took[seat.index()];
        (pair[0] != NONE).then_some(pair)
    }

    /// The cards `seat` discarded face up at the latest round end (public), by id.
    pub fn round_discards(&self, seat: Seat) -> impl Iterator<Item = CardId> + '_ {
        let set = self.round_discards[seat.index()];
        (0..CARD_COUNT as u8).filter(move |&id| set & (1u128 << id) != 0)
    }

    /// The discarded cards (public), by id.
    pub fn discarded(&self) -> impl Iterator<Item = CardId> + '_ {
        (0..CARD_COUNT as u8).filter(|&id| self.discard & (1u128 << id) != 0)
    }

    /// What `seat`'s God tile allows this round.
    pub fn allowed(&self, seat: Seat) -> Option<Allowed> {
        self.god_of(seat).map(|g| g.allows(self.n))
    }

    /// The seat building now, with the optional edifices it has already built this turn.
    pub fn builder(&self) -> Option<(Seat, bool, bool)> {
        matches!(
            self.phase,
            Phase::ChoosePair | Phase::BuildPyramid | Phase::BuildMore
        )
        .then(|| {
            (
                Seat(self.order[self.turn as usize]),
                self.built & BUILT_OBELISK != 0,
                self.built & BUILT_TOMB != 0,
            )
        })
    }

    /// The full score of `seat` now. Uses every Tomb, so it is **omniscient**: a bot must call
    /// it on a determinised copy.
    pub fn score(&self, seat: Seat) -> Score {
        score_of(&self.necropolis[..self.n as usize], seat.index())
    }

    /// Every seat's full score (omniscient, see [`Game::score`]).
    pub fn scores(&self) -> Vec<Score> {
        score_all(&self.necropolis[..self.n as usize])
    }
}
