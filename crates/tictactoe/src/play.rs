//! The rules trait for tic-tac-toe.
use crate::descriptor::DESCRIPTOR;
use crate::error::IllegalMove;
use crate::moves::{Move, MoveForm};
use crate::state::Game;
use crate::view::View;
use crate::{Options, heuristic};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_core::{
    BotHooks, GameRng, Notation, Outcome, RankKey, Rules, Seat, Seed, SetupError, ToMove,
};

impl Rules for Game {
    type Options = Options;
    type Move = Move;
    type View = View;
    type Error = IllegalMove;

    const DESCRIPTOR: &'static GameDescriptor = &DESCRIPTOR;

    fn new(options: &Options, seed: Seed) -> Result<Self, SetupError> {
        if options.players != 2 {
            return Err(SetupError::new(
                "bad_player_count",
                format!("tic-tac-toe is for 2 players, not {}", options.players),
            ));
        }
        Ok(Game {
            options: options.clone(),
            board: [None; 9],
            first: GameRng::from_seed(seed).below(2) as u8,
            ply: 0,
        })
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn seats(&self) -> u8 {
        2
    }

    fn to_move(&self) -> ToMove {
        if self.is_over() {
            ToMove::Over
        } else {
            // X (the first player) moves on even plies.
            ToMove::Seat(Seat((self.first + (self.ply % 2) as u8) % 2))
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        out.extend(
            (0..9)
                .filter(|&c| self.board[c].is_none())
                .map(Move::from_cell),
        );
    }

    fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if self.board[m.cell()].is_some() {
            return Err(IllegalMove::CellTaken(*m));
        }
        Ok(())
    }

    fn play_unchecked(&mut self, m: &Move) {
        self.board[m.cell()] = Some(self.mark_to_move());
        self.ply += 1;
    }

    fn view(&self, _seat: Option<Seat>) -> View {
        View::of(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        // A win scores 1, a draw is shared (both 0).
        let winner = self.winner();
        let scores: Vec<i32> = (0..2)
            .map(|seat| i32::from(winner == Some(self.mark_of(seat))))
            .collect();
        let keys = vec![RankKey::new("score", scores.iter().copied())];
        Some(Outcome::ranked(scores, keys))
    }

    /// Nothing is hidden and nothing is left to chance: the position is its own sample.
    fn determinize(&self, _seat: Seat, _rng: &mut GameRng) -> Self {
        self.clone()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn stage_number(&self) -> u8 {
        1
    }
}

impl Notation for Game {
    type Form = MoveForm;

    fn form(&self, m: &Move) -> MoveForm {
        MoveForm::Mark {
            row: m.row,
            column: m.column,
        }
    }

    fn themes(&self, m: &Move) -> Vec<&'static str> {
        heuristic::themes(self, m.cell())
    }
}

impl BotHooks for Game {
    fn greedy_move(&self, rng: &mut GameRng) -> Option<Move> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        heuristic::favourite(self, &legal, rng)
    }

    fn favourite_move(&self, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
        heuristic::favourite(self, candidates, rng)
    }
}
