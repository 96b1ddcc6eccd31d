//! The flow and the checks of Pyramids: the [`Rules`] implementation.
use crate::data::CARD_COUNT;
use crate::error::IllegalMove;
use crate::moves::{God, Move, MoveForm};
use crate::necropolis::{NONE, Necropolis, Place, Stack};
use crate::options::Options;
use crate::state::{
    BUILT_OBELISK, BUILT_TOMB, Edifice, Game, MAX_PLAYERS, MIN_PLAYERS, Phase, ROUNDS,
};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{
    BotHooks, GameRng, Notation, Outcome, RankKey, Redacted, Rules, Seat, Seed, SetupError, ToMove,
};

impl Game {
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
        self.took = [[NONE; 2]; 5];
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
        self.took[seat] = [x, y];
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
            self.round_discards = [0; 5];
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

impl Notation for Game {
    type Form = MoveForm;

    /// The rulebook's part of a turn the decision belongs to (a god tile, which quarry pair,
    /// a card for the pyramid, the obelisk or the Tomb, when to stop, which card to discard),
    /// and for a card what it does to the builder's own edifices (`themes.rs`). It names no
    /// card of the hand (a theme is shown before the try).
    fn themes(&self, m: &Move) -> Vec<&'static str> {
        self.themes_of(m)
    }

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
}

impl BotHooks for Game {
    fn greedy_move(&self, rng: &mut GameRng) -> Option<Move> {
        crate::heuristic::greedy_move(self, rng)
    }

    fn favourite_move(&self, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
        crate::heuristic::favourite(self, candidates, rng)
    }
}

impl Rules for Game {
    type Options = Options;
    type Move = Move;
    type View = crate::view::View;
    type Error = IllegalMove;

    const DESCRIPTOR: &'static GameDescriptor = &crate::descriptor::DESCRIPTOR;

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
            took: [[NONE; 2]; 5],
            round_discards: [0; 5],
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

    fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        Game::check(self, m)
    }

    fn undoable(&self, m: &Move) -> bool {
        crate::undo::undoable(self, m)
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
                self.round_discards[seat] |= 1u128 << id;
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
        self.determinized(seat, rng)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn stage_number(&self) -> u8 {
        self.round().min(ROUNDS)
    }
}
