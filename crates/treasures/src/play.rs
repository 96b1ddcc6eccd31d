//! `Rules` for Forgotten Treasures: checking and playing moves, and a player's turn (take a
//! space and its gem, flip a pile, place), then whose turn it is next.
use crate::data;
use crate::error::IllegalMove;
use crate::gems::Gem;
use crate::moves::{Move, MoveForm};
use crate::options::Options;
use crate::pick::{locate, pick_index};
use crate::state::{Game, Phase, SPACES, STAGES};
use crate::view::View;
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{
    BotHooks, GameRng, Notation, Outcome, Rules, Seat, Seed, SetupError, ToMove,
};
use pyramidion_pyramid::Placement;
use pyramidion_pyramid::select::select_u8;
use pyramidion_pyramid::topview::area_name;

impl Game {
    /// Checks `m` against the current state without changing it.
    pub fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        match (self.phase, m) {
            (Phase::Take, Move::Take { space, gem }) => self.check_take(*space, *gem),
            (Phase::Flip, Move::Flip { pile }) => self.check_flip(*pile),
            (Phase::Place, Move::Place(p)) => self.check_place(p),
            (Phase::Activate, Move::Activate { area, payment }) => {
                self.check_activate(*area, *payment)
            }
            (Phase::Activate, Move::Done) => Ok(()),
            (Phase::Discard, Move::Discard(g)) => self.check_discard(*g),
            _ => Err(self.phase_error()),
        }
    }

    /// Why a move of the wrong kind for the phase is refused.
    #[cold]
    fn phase_error(&self) -> IllegalMove {
        let expected = match self.phase {
            Phase::Over => return IllegalMove::GameOver,
            Phase::Take => "take",
            Phase::Flip => "flip",
            Phase::Place => "place",
            Phase::Activate => "activate or done",
            Phase::Discard => "discard",
        };
        IllegalMove::WrongPhase { expected }
    }

    fn apply(&mut self, m: &Move) {
        match *m {
            Move::Take { space, gem } => self.apply_take(space, gem),
            Move::Flip { pile } => self.apply_flip(pile),
            Move::Place(p) => self.apply_place(&p),
            Move::Activate { area, payment } => self.apply_activate(area, payment),
            Move::Done => self.apply_done(),
            Move::Discard(g) => self.apply_discard(g),
        }
        self.ply += 1;
    }
}

impl Rules for Game {
    type Options = Options;
    type Move = Move;
    type View = View;
    type Error = IllegalMove;

    const DESCRIPTOR: &'static GameDescriptor = &crate::descriptor::DESCRIPTOR;

    fn new(options: &Options, seed: Seed) -> Result<Self, SetupError> {
        Game::setup(options, seed)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn seats(&self) -> u8 {
        self.players.len() as u8
    }

    fn to_move(&self) -> ToMove {
        match self.seat_to_move() {
            Some(s) => ToMove::Seat(s),
            None => ToMove::Over,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Take | Phase::Flip | Phase::Place => self.turn_moves(out),
            Phase::Activate | Phase::Discard => self.scoring_moves(out),
            Phase::Over => {}
        }
    }

    /// Counts the moves of the phase and finds the chosen one, without listing them.
    #[inline]
    fn pick_legal_move(
        &self,
        _scratch: &mut Vec<Move>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<Move> {
        let pick = |n: u32| pick(n as usize) as u32;
        match self.phase {
            Phase::Take | Phase::Flip | Phase::Place => self.pick_turn_move(pick),
            Phase::Activate | Phase::Discard => self.pick_scoring_move(pick),
            Phase::Over => None,
        }
    }

    #[inline]
    fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        Game::check(self, m)
    }

    fn undoable(&self, m: &Move) -> bool {
        crate::undo::undoable(self, m)
    }

    fn play_unchecked(&mut self, m: &Move) {
        self.apply(m);
    }

    fn view(&self, seat: Option<Seat>) -> View {
        View::of(self, seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn determinize(&self, _seat: Seat, rng: &mut GameRng) -> Self {
        // Everything hidden in this game is hidden from every seat alike.
        self.resample_hidden(rng)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn stage_number(&self) -> u8 {
        // Once the game is over the stage index has moved past the last stage.
        self.stage.min(STAGES - 1) + 1
    }

    fn turns_of_no_seat(&self) -> u32 {
        // THE Legend's (or A Legend's) turns, each kept for the view's log.
        self.legend.as_ref().map_or(0, |l| l.turns.len() as u32)
    }
}

impl Notation for Game {
    type Form = MoveForm;

    /// The rulebook's part of a turn the decision belongs to (which tile and gem to take,
    /// which pile to flip, where to place the tile, which area to activate and how to pay,
    /// when to finish the stage's scoring, which gem to discard), and what the move does to
    /// the areas or to THE Legend's next turn (`themes.rs`).
    fn themes(&self, m: &Move) -> Vec<&'static str> {
        self.themes_of(m)
    }

    fn form(&self, m: &Move) -> MoveForm {
        match *m {
            Move::Take { space, gem } => MoveForm::Take { space, gem },
            Move::Flip { pile } => MoveForm::Flip { pile },
            Move::Place(p) => {
                let second = p.second().unwrap_or((p.x, p.y));
                MoveForm::Place {
                    x: p.x,
                    y: p.y,
                    dir: p.dir,
                    cells: [(p.x, p.y), second],
                }
            }
            Move::Activate { area, payment } => {
                let icons = self.scoring.as_ref().map_or(0, |sc| {
                    sc.areas()
                        .iter()
                        .find(|a| a.anchor == area)
                        .map_or(0, |a| a.icons)
                });
                MoveForm::Activate {
                    area: area_name(area),
                    payment,
                    points: crate::scoring::activation_points(icons, payment),
                }
            }
            Move::Done => MoveForm::Done,
            Move::Discard(gem) => MoveForm::Discard { gem },
        }
    }
}

impl BotHooks for Game {
    fn bench_cases() -> Vec<pyramidion_core::bench::BenchCase> {
        crate::bench::cases()
    }

    fn greedy_move(&self, rng: &mut GameRng) -> Option<Move> {
        Some(crate::heuristic::greedy_move(self, rng))
    }

    fn favourite_move(&self, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
        crate::heuristic::favourite(self, candidates, rng)
    }
}

impl Game {
    #[inline]
    pub(crate) fn check_take(&self, space: u8, gem: Option<Gem>) -> Result<(), IllegalMove> {
        let s = space as usize;
        if s >= SPACES {
            return Err(IllegalMove::NoSuchSpace);
        }
        if self.piles[s].face_up_top().is_none() {
            return Err(IllegalMove::SpaceFaceDown);
        }
        let area = &self.gem_areas[s];
        match gem {
            Some(g) if area.get(g) == 0 => Err(IllegalMove::GemNotAvailable),
            None if !area.is_empty() => Err(IllegalMove::GemRequired),
            _ => Ok(()),
        }
    }

    pub(crate) fn apply_take(&mut self, space: u8, gem: Option<Gem>) {
        let s = space as usize;
        self.hand = Some(self.take_domino(s));
        if let Some(g) = gem {
            self.gem_areas[s].remove(g, 1);
            self.players[self.current as usize].gems.add(g, 1);
        }
        self.replenish(s);
        self.phase = if self.flippable != 0 {
            Phase::Flip
        } else {
            Phase::Place
        };
    }

    #[inline]
    pub(crate) fn check_flip(&self, pile: u8) -> Result<(), IllegalMove> {
        match self.piles.get(pile as usize) {
            None => Err(IllegalMove::NoSuchSpace),
            Some(p) if !p.flippable() => Err(IllegalMove::PileNotFlippable),
            Some(_) => Ok(()),
        }
    }

    #[inline]
    pub(crate) fn apply_flip(&mut self, pile: u8) {
        self.piles[pile as usize].face_up = true;
        self.refresh_space_moves(pile as usize);
        self.phase = Phase::Place;
    }

    #[inline]
    pub(crate) fn check_place(&self, p: &Placement) -> Result<(), IllegalMove> {
        self.players[self.current as usize]
            .pyramid
            .check(p)
            .map_err(IllegalMove::Placement)
    }

    pub(crate) fn apply_place(&mut self, p: &Placement) {
        let id = self.hand.take().expect("a domino in hand");
        let stage = self.stage;
        let player = &mut self.players[self.current as usize];
        player.pyramid.place(p, data::get(id).blocks);
        player.dominoes.push(id);
        player.last_placement = Some((stage, *p));
        if !player.pyramid.has_slot() {
            player.stage_complete = true;
        }
        let completed = player.stage_complete;
        if self.legend.is_some() && !completed {
            self.legend_turn();
        }
        self.next_turn();
    }

    /// Hands the turn to the next player (clockwise) whose stage is not complete, or ends the
    /// stage when every stage is complete.
    pub(crate) fn next_turn(&mut self) {
        let n = self.players.len() as u8;
        // A space offers take moves exactly when its pile shows a face-up domino.
        let no_face_up = self.take_options == [0; SPACES];
        for step in 1..=n {
            let seat = (self.current + step) % n;
            let player = &mut self.players[seat as usize];
            if player.stage_complete {
                continue;
            }
            if no_face_up {
                // Cannot happen with 90 dominoes (at most 80 are ever taken, and every turn
                // ends with a face-up domino); kept so the game always terminates.
                player.stage_complete = true;
                continue;
            }
            self.current = seat;
            self.phase = Phase::Take;
            return;
        }
        self.begin_stage_end();
    }

    /// The move of [`Game::turn_moves`] at index `pick(n)`, `n` being how many it lists, found
    /// without listing them (see [`pick_index`]).
    pub(crate) fn pick_turn_move(&self, pick: impl FnOnce(u32) -> u32) -> Option<Move> {
        match self.phase {
            Phase::Take => self.pick_take(pick),
            Phase::Flip => self.pick_flip(pick),
            Phase::Place => self.pick_place(pick),
            _ => None,
        }
    }

    fn pick_take(&self, pick: impl FnOnce(u32) -> u32) -> Option<Move> {
        let options = self.take_options;
        let counts = options.map(u8::count_ones);
        let n = pick_index(counts.iter().sum(), pick)?;
        let (space, n) = locate(&counts, n);
        Some(Move::Take {
            space: space as u8,
            gem: Gem::ALL.get(select_u8(options[space], n) as usize).copied(),
        })
    }

    fn pick_flip(&self, pick: impl FnOnce(u32) -> u32) -> Option<Move> {
        let n = pick_index(self.flippable.count_ones(), pick)?;
        Some(Move::Flip {
            pile: select_u8(self.flippable, n) as u8,
        })
    }

    fn pick_place(&self, pick: impl FnOnce(u32) -> u32) -> Option<Move> {
        self.players[self.current as usize]
            .pyramid
            .legal_pick(pick)
            .map(Move::Place)
    }

    /// Legal moves of the turn phases.
    pub(crate) fn turn_moves(&self, out: &mut Vec<Move>) {
        match self.phase {
            Phase::Take => {
                for (s, pile) in self.piles.iter().enumerate() {
                    if pile.face_up_top().is_none() {
                        continue;
                    }
                    let area = &self.gem_areas[s];
                    if area.is_empty() {
                        out.push(Move::Take {
                            space: s as u8,
                            gem: None,
                        });
                    }
                    for gem in area.kinds() {
                        out.push(Move::Take {
                            space: s as u8,
                            gem: Some(gem),
                        });
                    }
                }
            }
            Phase::Flip => {
                for (i, pile) in self.piles.iter().enumerate() {
                    if pile.flippable() {
                        out.push(Move::Flip { pile: i as u8 });
                    }
                }
            }
            Phase::Place => self.players[self.current as usize]
                .pyramid
                .legal(|p| out.push(Move::Place(p))),
            _ => {}
        }
    }
}
