//! The state of a Pyramido game: the table, the players, the step, and their accessors.
use crate::data::{CARDS, COLOURS, DOMINO_COUNT};
use crate::options::Options;
use crate::scoring::{StageScore, stage_total};
use arrayvec::ArrayVec;
use pyramidion_core::{Outcome, RankKey, Seat, SetupError};
use pyramidion_pyramid::Pyramid;
use serde::Serialize;

/// Blocks of each stage: 5×4, 4×3, 3×2, 2×1.
pub const STAGE_BLOCKS: [u8; 4] = [20, 12, 6, 2];
pub const QUARRY_SLOTS: usize = 3;
pub const PILES: usize = 4;
pub const MAX_PLAYERS: usize = 4;
/// Dominoes in the piles at setup (the rest of the 90 after the quarry).
pub const PILE_CAPACITY: usize = DOMINO_COUNT - QUARRY_SLOTS;
/// Most dominoes one player places: 10 + 6 + 3 + 1.
pub const MAX_DOMINOES_PER_PLAYER: usize = 20;

/// What the seat to move decides now.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Take a quarry domino.
    Take,
    /// Place the domino taken.
    Place,
    /// Choose which block of the new domino gets a jewel marker (only asked when there are two
    /// options; a single option is applied at once, none skips the step).
    Mark,
    /// Resurface an unmarked block of the new domino, or pass.
    Resurface,
    /// Refill the empty quarry slot from one of the two piles next to it.
    Refill,
    /// Cover the next hole of a stage no domino can complete.
    Cover,
    Over,
}

impl Phase {
    pub(crate) fn expected(self) -> &'static str {
        match self {
            Phase::Take => "'take <slot>'",
            Phase::Place => "'place <cell> <dir>'",
            Phase::Mark => "'mark <A|B>'",
            Phase::Resurface => "'resurface <A|B> <colour> <quadrant>' or 'pass'",
            Phase::Refill => "'refill <pile>'",
            Phase::Cover => "'cover <hole> <colour> <quadrant>'",
            Phase::Over => "nothing",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Still placing dominoes on the current stage.
    Building,
    /// Current stage complete; waits for the others.
    Done,
    /// Could not cover the holes of a stage: lost the game.
    Eliminated,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub(crate) pyramid: Pyramid,
    /// Block index (in `pyramid.blocks()`) of each placed jewel marker, by colour.
    pub(crate) markers: [Option<u8>; COLOURS],
    /// Block index of each used resurfacing card (card k: colours 2k / 2k+1).
    pub(crate) cards: [Option<u8>; CARDS],
    pub(crate) status: Status,
    /// Blocks on the current stage (dominoes and hole cards).
    pub(crate) stage_blocks: u8,
    /// Ids of the dominoes in this pyramid, in placing order.
    pub(crate) dominoes: ArrayVec<u8, MAX_DOMINOES_PER_PLAYER>,
    /// Block index of block A of the domino placed last (B follows).
    pub(crate) last_domino: Option<u8>,
    pub(crate) scores: ArrayVec<StageScore, 4>,
    pub(crate) total: u16,
}

impl Player {
    pub(crate) fn new() -> Player {
        Player {
            pyramid: Pyramid::default(),
            markers: [None; COLOURS],
            cards: [None; CARDS],
            status: Status::Building,
            stage_blocks: 0,
            dominoes: ArrayVec::new(),
            last_domino: None,
            scores: ArrayVec::new(),
            total: 0,
        }
    }

    pub fn pyramid(&self) -> &Pyramid {
        &self.pyramid
    }
    /// Block index of the placed marker of each colour.
    pub fn markers(&self) -> &[Option<u8>; COLOURS] {
        &self.markers
    }
    /// Block index where each resurfacing card lies, `None` while unused.
    pub fn cards(&self) -> &[Option<u8>; CARDS] {
        &self.cards
    }
    pub fn unused_cards(&self) -> u32 {
        self.cards.iter().filter(|c| c.is_none()).count() as u32
    }
    pub fn status(&self) -> Status {
        self.status
    }
    /// Block index of block A of the domino placed last (B follows).
    pub fn last_domino(&self) -> Option<usize> {
        self.last_domino.map(usize::from)
    }
    pub fn dominoes(&self) -> &[u8] {
        &self.dominoes
    }
    /// Scores of the stages completed so far.
    pub fn scores(&self) -> &[StageScore] {
        &self.scores
    }
    pub fn total(&self) -> u16 {
        self.total
    }
    pub fn best_stage(&self) -> u16 {
        self.scores.iter().map(|s| s.total).max().unwrap_or(0)
    }
    pub(crate) fn alive(&self) -> bool {
        self.status != Status::Eliminated
    }
    /// Score of the current stage if it ended now.
    pub fn stage_value(&self) -> u16 {
        stage_total(&self.pyramid, &self.markers)
    }
}

/// What the current turn has done so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Turn {
    /// Quarry slot taken.
    pub(crate) slot: u8,
    /// Domino taken (valid from `Phase::Place`).
    pub(crate) domino: u8,
    /// Index of the new domino's block A in the pyramid's blocks (B follows).
    pub(crate) first_block: u8,
    /// Blocks of the new domino marked this turn (bit 0: A, bit 1: B).
    pub(crate) marked: u8,
    /// Holes to cover, lowest first (`Phase::Cover`).
    pub(crate) holes: [(u8, u8); CARDS],
    pub(crate) hole_count: u8,
    pub(crate) hole_next: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) options: Options,
    pub(crate) seats: u8,
    /// Stage index, 0 = stage 1.
    pub(crate) stage: u8,
    pub(crate) phase: Phase,
    pub(crate) current: u8,
    /// First seat of the current stage.
    pub(crate) first: u8,
    pub(crate) quarry: [Option<u8>; QUARRY_SLOTS],
    /// Face-up piles; the top is the last element.
    pub(crate) piles: [ArrayVec<u8, PILE_CAPACITY>; PILES],
    pub(crate) turn: Turn,
    pub(crate) players: ArrayVec<Player, MAX_PLAYERS>,
    pub(crate) ply: u32,
}

impl Game {
    /// A game whose shuffled tiles are `deck` (a permutation of the 90 ids): the first 3 form
    /// the quarry (slot 1, 2, 3), the rest are dealt into piles of 22, 22, 22, 21 in order,
    /// the last of each pile's run on top. [`pyramidion_core::Rules::new`] shuffles the deck with the seed.
    pub fn from_deck(options: &Options, deck: &[u8]) -> Result<Game, SetupError> {
        if !(2..=MAX_PLAYERS as u8).contains(&options.players) {
            return Err(SetupError::new(
                "bad_player_count",
                format!("Pyramido is for 2 to 4 players, not {}", options.players),
            ));
        }
        let mut seen = 0u128;
        for &d in deck {
            if d as usize >= DOMINO_COUNT || seen >> d & 1 == 1 {
                return Err(SetupError::new(
                    "bad_deck",
                    "the deck is not a permutation of the 90 dominoes",
                ));
            }
            seen |= 1 << d;
        }
        if deck.len() != DOMINO_COUNT {
            return Err(SetupError::new(
                "bad_deck",
                "the deck must hold the 90 dominoes",
            ));
        }
        let mut piles: [ArrayVec<u8, PILE_CAPACITY>; PILES] = Default::default();
        let mut start = QUARRY_SLOTS;
        for (p, pile) in piles.iter_mut().enumerate() {
            let len = PILE_CAPACITY / PILES + usize::from(p < PILE_CAPACITY % PILES);
            pile.extend(deck[start..start + len].iter().copied());
            start += len;
        }
        Ok(Game {
            options: options.clone(),
            seats: options.players,
            stage: 0,
            phase: Phase::Take,
            current: 0,
            first: 0,
            quarry: [Some(deck[0]), Some(deck[1]), Some(deck[2])],
            piles,
            turn: Turn::default(),
            players: (0..options.players).map(|_| Player::new()).collect(),
            ply: 0,
        })
    }

    /// Stage index (0 = stage 1).
    pub fn stage(&self) -> u8 {
        self.stage
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn current(&self) -> Seat {
        Seat(self.current)
    }
    /// First seat of the current stage.
    pub fn first_player(&self) -> Seat {
        Seat(self.first)
    }
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    pub fn quarry(&self) -> [Option<u8>; QUARRY_SLOTS] {
        self.quarry
    }
    pub fn pile_top(&self, pile: usize) -> Option<u8> {
        self.piles[pile].last().copied()
    }
    pub fn pile_size(&self, pile: usize) -> usize {
        self.piles[pile].len()
    }
    /// The domino taken and not yet placed.
    pub fn held(&self) -> Option<u8> {
        (self.phase == Phase::Place).then_some(self.turn.domino)
    }
    /// The quarry slot taken this turn, until it is refilled.
    pub fn empty_slot(&self) -> Option<u8> {
        matches!(
            self.phase,
            Phase::Place | Phase::Mark | Phase::Resurface | Phase::Refill
        )
        .then_some(self.turn.slot)
    }
    /// Index of the block A of the domino placed this turn (B follows), during the mark and
    /// resurface steps.
    pub fn new_blocks(&self) -> Option<usize> {
        matches!(self.phase, Phase::Mark | Phase::Resurface)
            .then_some(self.turn.first_block as usize)
    }
    /// Holes still to cover, the next first (`Phase::Cover`).
    pub fn holes(&self) -> &[(u8, u8)] {
        if self.phase == Phase::Cover {
            &self.turn.holes[self.turn.hole_next as usize..self.turn.hole_count as usize]
        } else {
            &[]
        }
    }
    /// Score `seat` would get for the current stage if it ended now.
    pub fn stage_value(&self, seat: Seat) -> u16 {
        self.players[seat.index()].stage_value()
    }

    /// The ranking if the game ended now: the final one once it is over (`Rules::outcome`),
    /// and before that the points banked at the stage ends so far (what a search that stops
    /// its playouts at a stage end counts). An eliminated player ranks below every player
    /// still in the game, whatever the points (RULES.md); then points, unused resurfacing
    /// cards, best stage.
    pub fn standings(&self) -> Outcome {
        let in_game = |p: &Player, value: i32| if p.alive() { value } else { 0 };
        let keys = vec![
            RankKey::new("in_game", self.players.iter().map(|p| in_game(p, 1))),
            RankKey::new(
                "score",
                self.players.iter().map(|p| in_game(p, p.total as i32)),
            ),
            RankKey::new(
                "unused_cards",
                self.players
                    .iter()
                    .map(|p| in_game(p, p.unused_cards() as i32)),
            ),
            RankKey::new(
                "best_stage",
                self.players
                    .iter()
                    .map(|p| in_game(p, p.best_stage() as i32)),
            ),
        ];
        Outcome::ranked(self.players.iter().map(|p| p.total as i32).collect(), keys)
    }

    pub(crate) fn cur(&self) -> &Player {
        &self.players[self.current as usize]
    }
    pub(crate) fn cur_mut(&mut self) -> &mut Player {
        &mut self.players[self.current as usize]
    }

    #[cfg(feature = "testkit")]
    pub(crate) fn pile_contents(&self, pile: usize) -> &[u8] {
        &self.piles[pile]
    }

    /// Hidden dominoes: every pile below its top.
    pub(crate) fn hidden(&self) -> impl Iterator<Item = u8> + '_ {
        self.piles
            .iter()
            .flat_map(|p| p[..p.len().saturating_sub(1)].iter().copied())
    }
}
