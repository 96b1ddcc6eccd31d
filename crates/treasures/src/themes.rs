//! A puzzle's themes in the rulebook's words (`Notation::themes`): the part of the turn the
//! decision is (the move's kind), and what the move does: a placement joining areas of one
//! colour, a gem taken from under THE Legend's nose. Read from what the seat sees: its own
//! pyramid, the domino it holds, the gem areas and the Legend's face-up pile.
use crate::data;
use crate::legend::legend_pick;
use crate::moves::Move;
use crate::state::{Game, Phase};

impl Game {
    pub(crate) fn themes_of(&self, m: &Move) -> Vec<&'static str> {
        let mut out = vec![match m {
            Move::Take { .. } => "tile_choice",
            Move::Flip { .. } => "flip_pile",
            Move::Place(_) => "tile_placement",
            Move::Activate { .. } => "activation",
            Move::Done => "scoring_end",
            Move::Discard(_) => "gem_discard",
        }];
        match (*m, self.phase) {
            (
                Move::Take {
                    space,
                    gem: Some(gem),
                },
                Phase::Take,
            ) => {
                // THE Legend plays right after this turn and takes the gems his top domino
                // wishes for, from the left: taking one he would take denies it to him.
                if let Some(legend) = &self.legend
                    && let Some(&top) = legend.pile.last()
                {
                    let wishes = data::get(top).icon_colours();
                    let pick = legend_pick(wishes, &self.gem_areas, self.face_up_spaces());
                    if pick.taken[space as usize].get(gem) > 0 {
                        out.push("deny_legend");
                    }
                }
            }
            (Move::Place(p), Phase::Place) => {
                if let (Some(id), Some(player)) =
                    (self.hand, self.players.get(self.current as usize))
                    && player.pyramid.joins_areas(&p, data::get(id).blocks)
                {
                    out.push("join_areas");
                }
            }
            _ => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::data;
    use crate::gems::{Gem, Gems};
    use crate::moves::Move;
    use crate::options::{Options, SoloMode};
    use crate::state::{Game, Phase, SPACES};
    use pyramidion_core::{Notation, Rules};
    use pyramidion_pyramid::{Block, CANVAS_START, Dir, Placement, Pyramid};

    #[test]
    fn taking_a_gem_the_legend_would_take_is_deny_legend() {
        let mut g = Game::setup(&Options::solo(SoloMode::ALegend), 7).unwrap();
        let top = *g.legend.as_ref().unwrap().pile.last().unwrap();
        let wish = data::get(top).icon_colours()[0];
        let other = (0..5u8)
            .find(|c| !data::get(top).icon_colours().contains(c))
            .unwrap();
        let space = g.face_up_spaces().trailing_zeros() as usize;
        let mut area = Gems::default();
        area.add(Gem::colour(wish), 1);
        area.add(Gem::colour(other), 1);
        g.gem_areas = [Gems::default(); SPACES];
        g.gem_areas[space] = area;
        assert_eq!(g.phase, Phase::Take);
        let deny = Move::Take {
            space: space as u8,
            gem: Some(Gem::colour(wish)),
        };
        let leave = Move::Take {
            space: space as u8,
            gem: Some(Gem::colour(other)),
        };
        assert!(g.is_legal(&deny) && g.is_legal(&leave));
        assert_eq!(g.themes(&deny), vec!["tile_choice", "deny_legend"]);
        assert_eq!(g.themes(&leave), vec!["tile_choice"]);
        // Without THE Legend there is nobody to deny.
        let mut two = Game::setup(&Options::default(), 7).unwrap();
        two.gem_areas = g.gem_areas;
        assert_eq!(two.themes(&deny), vec!["tile_choice"]);
    }

    #[test]
    fn a_block_between_two_areas_of_its_colour_is_join_areas() {
        let mut g = Game::setup(&Options::default(), 7).unwrap();
        let (id, d) = (0..90u8)
            .map(|id| (id, data::get(id)))
            .find(|(_, d)| d.blocks[0].colour != d.blocks[1].colour)
            .unwrap();
        let (c, o) = (d.blocks[0].colour, d.blocks[1].colour);
        let one = |colour| Block { colour, icons: 1 };
        let (x, y) = CANVAS_START;
        // `c` at (x, y) and at (x + 1, y + 1): apart, touching at a corner.
        let mut pyramid = Pyramid::default();
        pyramid.place(&Placement::new(x, y, Dir::S), [one(c), one(o)]);
        pyramid.place(&Placement::new(x + 1, y + 1, Dir::E), [one(c), one(o)]);
        let seat = g.current as usize;
        g.players[seat].pyramid = pyramid;
        g.hand = Some(id);
        g.phase = Phase::Place;
        // Block A (`c`) at (x + 1, y) touches both; turned, block B (`o`) lies there.
        let join = Move::Place(Placement::new(x + 1, y, Dir::E));
        let apart = Move::Place(Placement::new(x + 2, y, Dir::W));
        assert!(g.is_legal(&join) && g.is_legal(&apart));
        assert_eq!(g.themes(&join), vec!["tile_placement", "join_areas"]);
        assert_eq!(g.themes(&apart), vec!["tile_placement"]);
    }
}
