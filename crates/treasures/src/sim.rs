//! What Forgotten Treasures adds to the shared random-simulation harness (`pyramidion-testkit`):
//! component conservation, score bounds, what views hide, and illegal-move probes. Built only
//! with the `testkit` feature, which only this crate's tests enable.
use crate::data::{self, DOMINO_COUNT, DominoId};
use crate::gems::{Gem, Gems};
use crate::moves::{Move, Payment};
use crate::state::{Game, Phase, SPACES};
use crate::view::{DominoView, PileTop};
use pyramidion_core::{GameRng, Rules, Seat};
use pyramidion_pyramid::{Dir, Placement};
use pyramidion_testkit::Simulate;

impl Game {
    fn component_totals(&self) -> Result<(), String> {
        let mut seen = [0u8; DOMINO_COUNT];
        let mut count = |id: DominoId| seen[id as usize] += 1;
        self.piles
            .iter()
            .flat_map(|p| p.dominoes.iter())
            .copied()
            .for_each(&mut count);
        self.players
            .iter()
            .flat_map(|p| p.dominoes.iter())
            .copied()
            .for_each(&mut count);
        self.legend
            .iter()
            .flat_map(|l| l.pile.iter())
            .copied()
            .for_each(&mut count);
        self.hand.into_iter().for_each(&mut count);
        if let Some(id) = seen.iter().position(|&n| n != 1) {
            return Err(format!("domino {id} appears {} times", seen[id]));
        }
        let mut gems = self.bag + self.discard;
        self.gem_areas.iter().for_each(|a| gems.add_all(a));
        self.players.iter().for_each(|p| gems.add_all(&p.gems));
        if let Some(l) = &self.legend {
            gems.add_all(&l.gems);
        }
        if let Some(s) = &self.scoring {
            gems.add_all(&s.spent);
            if s.colour_index() != (s.colour_starts, s.open_by_colour) {
                return Err("stage scoring: per-colour index out of date".into());
            }
            if (0..s.areas.len()).any(|i| s.area_index(s.areas[i].anchor) != Some(i)) {
                return Err("stage scoring: an area is not found by its anchor".into());
            }
        }
        if gems != Gems::full_supply() {
            return Err(format!("gems not conserved: {gems:?}"));
        }
        for (i, p) in self.players.iter().enumerate() {
            if p.pyramid.blocks().len() != 2 * p.dominoes.len() {
                return Err(format!("seat {i}: pyramid blocks and dominoes disagree"));
            }
        }
        Ok(())
    }
}

/// The most a stage can score: every visible quadrant an icon, all doubled, plus every
/// Mythical in the box kept.
const MAX_STAGE_POINTS: u16 = 80 * 2 + 18;

impl Simulate for Game {
    const MAX_PLIES: u32 = 4000;

    fn check_invariants(&self) -> Result<(), String> {
        self.component_totals()?;
        for (i, p) in self.players.iter().enumerate() {
            if p.stage_scores.iter().any(|&s| s > MAX_STAGE_POINTS) {
                return Err(format!(
                    "seat {i}: stage score out of bounds {:?}",
                    p.stage_scores
                ));
            }
            if p.dominoes.len() > 20 {
                return Err(format!("seat {i}: more than 20 dominoes"));
            }
        }
        if self.phase == Phase::Place && self.hand.is_none() {
            return Err("place phase without a domino in hand".into());
        }
        if self.phase == Phase::Take {
            let fresh_stage = self
                .players
                .iter()
                .all(|p| p.pyramid.dominoes_on_stage() == 0);
            if fresh_stage && self.stage > 0 && self.players.iter().any(|p| p.gems.total() > 5) {
                return Err("a player starts a stage with more than 5 gems".into());
            }
        }
        Ok(())
    }

    fn check_view(&self, seat: Option<Seat>) -> Result<(), String> {
        // Walks the view's own structs (no serialisation: the harness runs it thousands of
        // times). The view type has no field for the bag's order, the seed or the RNG, so only
        // domino fronts and pile backs can leak.
        let view = self.view(seat);
        let hidden: Vec<DominoId> = self.hidden_dominoes().collect();
        let mut shown: Vec<DominoId> = view.hand.iter().map(|d| d.id).collect();
        for space in &view.spaces {
            if let PileTop::FaceUp { domino } = &space.top {
                shown.push(domino.id);
            }
        }
        for p in &view.envelope.seats {
            shown.extend(p.dominoes.iter().copied());
        }
        if let Some(l) = &view.legend {
            shown.extend(l.pile.iter().map(|d| d.id));
        }
        if let Some(id) = shown.iter().find(|id| hidden.contains(id)) {
            return Err(format!(
                "view for {seat:?} shows the front of hidden domino {id}"
            ));
        }
        if view.spaces.len() != self.piles.len() {
            return Err("view has a space per pile".into());
        }
        for (s, (space, pile)) in view.spaces.iter().zip(&self.piles).enumerate() {
            if space.pile_size != pile.len() {
                return Err(format!("space {s}: wrong pile size"));
            }
            let expected = match pile.top() {
                None => PileTop::Empty,
                Some(id) if pile.face_up => PileTop::FaceUp {
                    domino: DominoView::of(id),
                },
                Some(id) => PileTop::FaceDown {
                    back: data::get(id).back(),
                },
            };
            if space.top != expected {
                return Err(format!("space {s}: pile top not shown as it is"));
            }
        }
        Ok(())
    }

    fn probe_moves(&self, rng: &mut GameRng, out: &mut Vec<Move>) {
        out.clear();
        let gem = |rng: &mut GameRng| Gem::from_index(rng.below(6) as usize);
        for _ in 0..3 {
            out.push(Move::Take {
                space: rng.below(6) as u8,
                gem: Some(gem(rng)),
            });
        }
        out.push(Move::Take {
            space: rng.below(5) as u8,
            gem: None,
        });
        out.push(Move::Flip {
            pile: rng.below(6) as u8,
        });
        for _ in 0..4 {
            let p = Placement::new(
                rng.below(10) as u8,
                rng.below(10) as u8,
                Dir::ALL[rng.below(4) as usize],
            );
            out.push(Move::Place(p));
        }
        for _ in 0..3 {
            let payment = Payment::ALL[rng.below(6) as usize];
            out.push(Move::Activate {
                area: rng.below(100) as u8,
                payment,
            });
        }
        if let Some(sc) = &self.scoring
            && let Some(a) = sc.areas.first()
        {
            for payment in Payment::ALL {
                out.push(Move::Activate {
                    area: a.anchor,
                    payment,
                });
            }
        }
        out.push(Move::Done);
        out.push(Move::Discard(gem(rng)));
        let _ = SPACES;
    }
}
