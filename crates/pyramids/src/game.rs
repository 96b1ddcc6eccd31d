//! The game state, its flow, and the [`Rules`] implementation.
use crate::cards::{CARD_COUNT, CardId};
use crate::moves::{Allowed, God, MAX_HAND, Move, MoveForm};
use crate::necropolis::{NONE, Necropolis, Place, Score, Stack, score_all, score_of};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{
    ErrorCode, GameRng, Outcome, RankKey, Redacted, Rules, Seat, Seed, SetupError, ToMove,
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Rounds in a game (one Pyramid card per round: 10 cards).
pub const ROUNDS: u8 = 10;
pub const MIN_PLAYERS: u8 = 2;
pub const MAX_PLAYERS: u8 = 5;

const BUILT_OBELISK: u8 = 1;
const BUILT_TOMB: u8 = 2;

/// Game options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// 2 to 5.
    pub players: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { players: 2 }
    }
}

impl Options {
    pub fn players(players: u8) -> Options {
        Options { players }
    }
}

/// What the seat to move decides now.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

/// Why a move is refused. Each kind has its own stable [`ErrorCode::code`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("a '{keyword}' move does not fit the current phase ({phase:?})")]
    WrongPhase { phase: Phase, keyword: &'static str },
    #[error("{0:?} is not used at a table of this size")]
    GodNotInGame(God),
    #[error("{0:?} is set aside this round")]
    GodSetAside(God),
    #[error("{0:?} is already taken this round")]
    GodTaken(God),
    #[error("there is no pair {0} in the quarry")]
    NoSuchPair(u8),
    #[error("pair {0} is already taken")]
    PairTaken(u8),
    #[error("there is no card {0} in your hand")]
    NoSuchCard(u8),
    #[error("{0} is not an open place of your Pyramid")]
    PlaceNotOpen(Place),
    #[error("place your Pyramid card first")]
    PyramidFirst,
    #[error("your God tile does not let you build your {0}")]
    EdificeNotAllowed(Edifice),
    #[error("you already placed a card in your {0} this turn")]
    EdificeAlreadyBuilt(Edifice),
}

impl ErrorCode for IllegalMove {
    fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::WrongPhase { .. } => "wrong_phase",
            IllegalMove::GodNotInGame(_) => "god_not_in_game",
            IllegalMove::GodSetAside(_) => "god_set_aside",
            IllegalMove::GodTaken(_) => "god_taken",
            IllegalMove::NoSuchPair(_) => "no_such_pair",
            IllegalMove::PairTaken(_) => "pair_taken",
            IllegalMove::NoSuchCard(_) => "no_such_card",
            IllegalMove::PlaceNotOpen(_) => "place_not_open",
            IllegalMove::PyramidFirst => "pyramid_first",
            IllegalMove::EdificeNotAllowed(_) => "edifice_not_allowed",
            IllegalMove::EdificeAlreadyBuilt(_) => "edifice_already_built",
        }
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

    fn god_picker(&self) -> u8 {
        (self.first + self.picks) % self.n
    }

    fn builder_seat(&self) -> usize {
        self.order[self.turn as usize] as usize
    }

    /// Optional edifices `seat` may still build this turn: `(obelisk, tomb)`.
    fn optional(&self, seat: usize) -> (bool, bool) {
        if self.hands[seat].len() == 0 {
            return (false, false);
        }
        let a = God::ALL[self.seat_god[seat] as usize].allows(self.n);
        let blocked = a.one_of && self.built != 0;
        (
            a.obelisk && self.built & BUILT_OBELISK == 0 && !blocked,
            a.tomb && self.built & BUILT_TOMB == 0 && !blocked,
        )
    }

    fn start_round(&mut self) {
        let n = self.n as usize;
        for i in 0..n {
            let p = self.deck_pos as usize;
            self.quarry[i] = [self.deck[p], self.deck[p + 1]];
            self.deck_pos += 2;
            self.pair_owner[i] = NONE;
        }
        self.god_owner = [NONE; 5];
        self.seat_god = [NONE; 5];
        self.picks = 0;
        self.phase = Phase::ChooseGod;
        self.auto_god();
    }

    /// A picker left with a single tile (the 5th player of a 5-player game) takes it at once.
    fn auto_god(&mut self) {
        let mut only = None;
        for g in 0..self.gods_in_game() as usize {
            if g as u8 != self.set_aside && self.god_owner[g] == NONE {
                if only.is_some() {
                    return;
                }
                only = Some(g);
            }
        }
        if let Some(g) = only {
            self.take_god(g);
        }
    }

    fn take_god(&mut self, g: usize) {
        let seat = self.god_picker();
        self.god_owner[g] = seat;
        self.seat_god[seat as usize] = g as u8;
        self.picks += 1;
        if self.picks == self.n {
            let mut k = 0;
            for &owner in &self.god_owner {
                if owner != NONE {
                    self.order[k] = owner;
                    k += 1;
                }
            }
            self.turn = 0;
            self.start_turn();
        } else {
            self.auto_god();
        }
    }

    /// The last builder of a round takes the last pair at once.
    fn start_turn(&mut self) {
        self.built = 0;
        self.phase = Phase::ChoosePair;
        if self.turn + 1 == self.n {
            let p = (0..self.n as usize)
                .find(|&p| self.pair_owner[p] == NONE)
                .expect("one pair left for the last builder");
            self.take_pair(p);
        }
    }

    fn take_pair(&mut self, p: usize) {
        let seat = self.builder_seat();
        let [x, y] = self.quarry[p];
        self.hands[seat].push(x);
        self.hands[seat].push(y);
        self.quarry[p] = [NONE; 2];
        self.pair_owner[p] = seat as u8;
        self.phase = Phase::BuildPyramid;
    }

    /// Ends the turn when no optional edifice is left.
    fn after_build(&mut self) {
        let (obelisk, tomb) = self.optional(self.builder_seat());
        if !obelisk && !tomb {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        self.turn += 1;
        if self.turn < self.n {
            self.start_turn();
        } else if self.round + 1 == ROUNDS {
            // Cards left in hand are simply out of the game: no decision to make.
            self.phase = Phase::Over;
        } else {
            self.phase = Phase::Discard;
            self.cursor = 0;
            self.next_discarder();
        }
    }

    /// Moves the discard cursor to the next seat (from the first player, clockwise) holding
    /// more than one card; starts the next round when there is none.
    fn next_discarder(&mut self) {
        while self.cursor < self.n {
            let seat = (self.first + self.cursor) % self.n;
            if self.hands[seat as usize].len() > 1 {
                return;
            }
            self.cursor += 1;
        }
        self.round += 1;
        self.first = (self.first + 1) % self.n;
        if self.n == 2 {
            self.set_aside = (self.set_aside + 1) % 4;
        }
        self.start_round();
    }

    fn discarder(&self) -> usize {
        ((self.first + self.cursor) % self.n) as usize
    }

    fn check_hand(&self, seat: usize, h: u8) -> Result<(), IllegalMove> {
        if (h as usize) < self.hands[seat].len() {
            Ok(())
        } else {
            Err(IllegalMove::NoSuchCard(h + 1))
        }
    }

    fn check_optional(&self, edifice: Edifice, h: u8) -> Result<(), IllegalMove> {
        let seat = self.builder_seat();
        let a = God::ALL[self.seat_god[seat] as usize].allows(self.n);
        let (allowed, flag) = match edifice {
            Edifice::Obelisk => (a.obelisk, BUILT_OBELISK),
            _ => (a.tomb, BUILT_TOMB),
        };
        if !allowed {
            return Err(IllegalMove::EdificeNotAllowed(edifice));
        }
        // Sekhmet with 4-5 players: the turn ends after the first optional card, so `built`
        // is never set here for a `one_of` tile.
        if self.built & flag != 0 {
            return Err(IllegalMove::EdificeAlreadyBuilt(edifice));
        }
        self.check_hand(seat, h)
    }

    /// Checks `m` for the seat to move without playing it.
    pub fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        match (self.phase, *m) {
            (Phase::Over, _) => Err(IllegalMove::GameOver),
            (Phase::ChooseGod, Move::God(god)) => {
                let g = god.index();
                if g >= self.gods_in_game() as usize {
                    Err(IllegalMove::GodNotInGame(god))
                } else if g as u8 == self.set_aside {
                    Err(IllegalMove::GodSetAside(god))
                } else if self.god_owner[g] != NONE {
                    Err(IllegalMove::GodTaken(god))
                } else {
                    Ok(())
                }
            }
            (Phase::ChoosePair, Move::Pair(p)) => {
                if p >= self.n {
                    Err(IllegalMove::NoSuchPair(p + 1))
                } else if self.pair_owner[p as usize] != NONE {
                    Err(IllegalMove::PairTaken(p + 1))
                } else {
                    Ok(())
                }
            }
            (Phase::BuildPyramid, Move::Pyramid(h, place)) => {
                let seat = self.builder_seat();
                self.check_hand(seat, h)?;
                if self.necropolis[seat].pyramid.is_open(place) {
                    Ok(())
                } else {
                    Err(IllegalMove::PlaceNotOpen(place))
                }
            }
            (Phase::BuildPyramid, Move::Obelisk(_) | Move::Tomb(_) | Move::Done) => {
                Err(IllegalMove::PyramidFirst)
            }
            (Phase::BuildMore, Move::Pyramid(..)) => {
                Err(IllegalMove::EdificeAlreadyBuilt(Edifice::Pyramid))
            }
            (Phase::BuildMore, Move::Obelisk(h)) => self.check_optional(Edifice::Obelisk, h),
            (Phase::BuildMore, Move::Tomb(h)) => self.check_optional(Edifice::Tomb, h),
            (Phase::BuildMore, Move::Done) => Ok(()),
            (Phase::Discard, Move::Discard(h)) => self.check_hand(self.discarder(), h),
            (phase, m) => Err(IllegalMove::WrongPhase {
                phase,
                keyword: m.keyword(),
            }),
        }
    }
}

impl Rules for Game {
    type Options = Options;
    type Move = Move;
    type View = crate::view::View;
    type Error = IllegalMove;
    type Form = MoveForm;

    const DESCRIPTOR: &'static GameDescriptor = &crate::descriptor::DESCRIPTOR;

    fn form(&self, m: &Move) -> MoveForm {
        match self.to_move() {
            ToMove::Seat(seat) => MoveForm::of(m, self.hand(seat)),
            ToMove::Over => MoveForm::of(m, &[]),
        }
    }

    fn redacted(&self, m: &Move, viewer: Option<Seat>) -> Option<Redacted<MoveForm>> {
        let mover = match self.to_move() {
            ToMove::Seat(seat) => seat,
            ToMove::Over => return None,
        };
        if viewer == Some(mover) {
            return None;
        }
        MoveForm::redacted(m).map(|(text, form)| Redacted { text, form })
    }

    fn new(options: &Options, seed: Seed) -> Result<Self, SetupError> {
        let n = options.players;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(SetupError::new(
                "bad_player_count",
                format!("Pyramids is for 2 to 5 players, not {n}"),
            ));
        }
        let mut rng = GameRng::from_seed(seed);
        let mut deck = [0u8; CARD_COUNT];
        for (i, c) in deck.iter_mut().enumerate() {
            *c = i as u8;
        }
        rng.shuffle(&mut deck);
        let mut hands = [Stack::new(); 5];
        for (s, hand) in hands.iter_mut().take(n as usize).enumerate() {
            hand.push(deck[s]);
        }
        let set_aside = if n == 2 { rng.below(4) as u8 } else { NONE };
        let mut game = Game {
            options: options.clone(),
            n,
            rng,
            ply: 0,
            round: 0,
            first: 0,
            phase: Phase::ChooseGod,
            deck,
            deck_pos: n,
            quarry: [[NONE; 2]; 5],
            pair_owner: [NONE; 5],
            god_owner: [NONE; 5],
            seat_god: [NONE; 5],
            set_aside,
            picks: 0,
            order: [NONE; 5],
            turn: 0,
            built: 0,
            cursor: 0,
            discard: 0,
            hands,
            necropolis: [Necropolis::default(); 5],
        };
        game.start_round();
        Ok(game)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn seats(&self) -> u8 {
        self.n
    }

    fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::ChooseGod => ToMove::Seat(Seat(self.god_picker())),
            Phase::ChoosePair | Phase::BuildPyramid | Phase::BuildMore => {
                ToMove::Seat(Seat(self.order[self.turn as usize]))
            }
            Phase::Discard => ToMove::Seat(Seat(self.discarder() as u8)),
            Phase::Over => ToMove::Over,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::ChooseGod => {
                for god in God::ALL {
                    if self.god_available(god) {
                        out.push(Move::God(god));
                    }
                }
            }
            Phase::ChoosePair => {
                for p in 0..self.n {
                    if self.pair_owner[p as usize] == NONE {
                        out.push(Move::Pair(p));
                    }
                }
            }
            Phase::BuildPyramid => {
                let seat = self.builder_seat();
                let mut places = [Place::new(0, 0); 3];
                let mut k = 0;
                for place in self.necropolis[seat].pyramid.open_places() {
                    places[k] = place;
                    k += 1;
                }
                for h in 0..self.hands[seat].len() as u8 {
                    for &place in &places[..k] {
                        out.push(Move::Pyramid(h, place));
                    }
                }
            }
            Phase::BuildMore => {
                let seat = self.builder_seat();
                let (obelisk, tomb) = self.optional(seat);
                let len = self.hands[seat].len() as u8;
                if obelisk {
                    out.extend((0..len).map(Move::Obelisk));
                }
                if tomb {
                    out.extend((0..len).map(Move::Tomb));
                }
                out.push(Move::Done);
            }
            Phase::Discard => {
                let len = self.hands[self.discarder()].len() as u8;
                out.extend((0..len).map(Move::Discard));
            }
            Phase::Over => {}
        }
    }

    fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    fn play_unchecked(&mut self, m: &Move) {
        match *m {
            Move::God(god) => self.take_god(god.index()),
            Move::Pair(p) => self.take_pair(p as usize),
            Move::Pyramid(h, place) => {
                let seat = self.builder_seat();
                let id = self.hands[seat].remove(h as usize);
                self.necropolis[seat].pyramid.place_unchecked(id, place);
                self.phase = Phase::BuildMore;
                self.after_build();
            }
            Move::Obelisk(h) => {
                let seat = self.builder_seat();
                let id = self.hands[seat].remove(h as usize);
                self.necropolis[seat].obelisk.push(id);
                self.built |= BUILT_OBELISK;
                self.after_build();
            }
            Move::Tomb(h) => {
                let seat = self.builder_seat();
                let id = self.hands[seat].remove(h as usize);
                self.necropolis[seat].tomb.push(id);
                self.built |= BUILT_TOMB;
                self.after_build();
            }
            Move::Done => self.end_turn(),
            Move::Discard(h) => {
                let seat = self.discarder();
                let id = self.hands[seat].remove(h as usize);
                self.discard |= 1u128 << id;
                if self.hands[seat].len() <= 1 {
                    self.cursor += 1;
                }
                self.next_discarder();
            }
        }
        self.ply += 1;
    }

    fn view(&self, seat: Option<Seat>) -> crate::view::View {
        crate::view::View::new(self, seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        // Ties are shared victories: no tie-break (rulebook, "End of the game").
        let scores: Vec<i32> = self.scores().iter().map(|s| s.total as i32).collect();
        let keys = vec![RankKey::new("score", scores.iter().copied())];
        Some(Outcome::ranked(scores, keys))
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        let me = seat.index();
        let tombs_hidden = self.phase != Phase::Over;
        let mut pool = [0u8; CARD_COUNT];
        let mut k = 0;
        let mut take = |cards: &[u8]| {
            pool[k..k + cards.len()].copy_from_slice(cards);
            k += cards.len();
        };
        take(&self.deck[self.deck_pos as usize..]);
        for s in (0..self.n as usize).filter(|&s| s != me) {
            take(self.hands[s].as_slice());
            if tombs_hidden {
                take(self.necropolis[s].tomb.cards());
            }
        }
        // Sorted first, so that the sample depends on what is hidden, not on its true order.
        pool[..k].sort_unstable();
        rng.shuffle(&mut pool[..k]);
        let mut cards = pool[..k].iter().copied();
        for slot in &mut g.deck[self.deck_pos as usize..] {
            *slot = cards.next().expect("pool covers the deck");
        }
        for s in (0..self.n as usize).filter(|&s| s != me) {
            let hand_len = g.hands[s].len();
            g.hands[s].clear();
            for _ in 0..hand_len {
                g.hands[s].push(cards.next().expect("pool covers the hands"));
            }
            if tombs_hidden {
                let tomb_len = g.necropolis[s].tomb.len();
                g.necropolis[s].tomb.clear();
                for _ in 0..tomb_len {
                    g.necropolis[s]
                        .tomb
                        .push(cards.next().expect("pool covers the tombs"));
                }
            }
        }
        debug_assert!(cards.next().is_none());
        g.rng = rng.fork();
        g
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}
