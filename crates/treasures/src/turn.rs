//! A player's turn: take (space + gem), flip, place; then whose turn it is next.
use crate::dominoes;
use crate::error::IllegalMove;
use crate::game::{Game, Phase, SPACES};
use crate::gems::Gem;
use crate::moves::Move;
use crate::pick::{locate, pick_index};
use pyramidion_pyramid::Placement;
use pyramidion_pyramid::select::select_u8;

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
        player.pyramid.place(p, dominoes::get(id).blocks);
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
