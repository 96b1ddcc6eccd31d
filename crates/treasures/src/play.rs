//! `Rules` for Forgotten Treasures: checking and playing moves.
use crate::error::IllegalMove;
use crate::game::{Game, Phase};
use crate::moves::{Move, MoveForm};
use crate::options::Options;
use crate::view::View;
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{GameRng, Outcome, Rules, Seat, Seed, SetupError, ToMove};
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

    /// [`Game::check`] then [`Game::apply`], with one dispatch on the phase and move kind
    /// instead of one in each (this runs for every move of every simulated game). Always
    /// inlined: `play` is all it does, and callers in other crates (the bench, the bots' play
    /// loops) otherwise paid a call per move.
    #[inline(always)]
    fn check_and_apply(&mut self, m: &Move) -> Result<(), IllegalMove> {
        match (self.phase, *m) {
            (Phase::Take, Move::Take { space, gem }) => {
                self.check_take(space, gem)?;
                self.apply_take(space, gem);
            }
            (Phase::Flip, Move::Flip { pile }) => {
                self.check_flip(pile)?;
                self.apply_flip(pile);
            }
            (Phase::Place, Move::Place(p)) => {
                self.check_place(&p)?;
                self.apply_place(&p);
            }
            (Phase::Activate, Move::Activate { area, payment }) => {
                let i = self.checked_area_index(area, payment)?;
                self.apply_activate_at(i, area, payment);
            }
            (Phase::Activate, Move::Done) => self.apply_done(),
            (Phase::Discard, Move::Discard(g)) => {
                self.check_discard(g)?;
                self.apply_discard(g);
            }
            _ => return Err(self.phase_error()),
        }
        self.ply += 1;
        Ok(())
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
    type Form = MoveForm;

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
    fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        self.check_and_apply(m)
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

    fn bench_cases() -> Vec<pyramidion_core::bench::BenchCase> {
        crate::bench::cases()
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
