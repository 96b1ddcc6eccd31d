//! A puzzle's themes in the rulebook's words (`Notation::themes`): the part of the turn the
//! decision is (the move's kind), and what a placement does to the scoring surface, read from
//! the seat's own pyramid and the domino it holds (nothing its view does not show).
use crate::data::dominoes;
use crate::moves::Move;
use crate::scoring::stage_total;
use crate::state::{Game, Phase, STAGE_BLOCKS};

impl Game {
    pub(crate) fn themes_of(&self, m: &Move) -> Vec<&'static str> {
        let mut out = vec![match m {
            Move::Take(_) => "quarry",
            Move::Place(_) => "placement",
            Move::Mark(_) => "marker",
            Move::Resurface { .. } | Move::Pass => "resurface",
            Move::Refill(_) => "refill",
            Move::Cover { .. } => "cover",
        }];
        if let (Move::Place(p), Phase::Place) = (m, self.phase) {
            let player = self.cur();
            let domino = dominoes()[self.turn.domino as usize].blocks;
            // Two areas of one colour become one: a bigger area to mark, or a marked one
            // gaining another's jewels.
            if player.pyramid.joins_areas(p, domino) {
                out.push("join_areas");
            }
            // A marked area gains visible jewels: the stage's score grows at once (the markers
            // already placed stay on their blocks; the new domino's own marker comes after).
            let mut after = player.pyramid.clone();
            after.place(p, domino);
            if stage_total(&after, &player.markers) > player.stage_value() {
                out.push("grow_marked_area");
            }
            // The stage's last domino: the stage is scored once every pyramid is complete.
            if let Some(&blocks) = STAGE_BLOCKS.get(player.pyramid.stage() as usize)
                && player.stage_blocks + 2 == blocks
            {
                out.push("complete_stage");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::data::{COLOURS, dominoes};
    use crate::moves::Move;
    use crate::options::Options;
    use crate::state::{Game, Phase};
    use pyramidion_core::{Notation, Rules};
    use pyramidion_pyramid::{Block, CANVAS_START, Dir, Placement, Pyramid};

    fn block(colour: u8, icons: u8) -> [Block; 2] {
        [Block { colour, icons }, Block { colour, icons }]
    }

    /// Seat 0 to place a domino with one block of `c` and one of another colour. Its stage 1
    /// holds a block of `c` at (x, y) and another at (x + 1, y + 1), apart (touching at a
    /// corner), each with a jewel, on two 2-block columns of other colours. Returns the game
    /// and the placement that puts the `c` block at (x + 1, y), between them.
    fn between_two_areas(c: u8) -> (Game, Placement, Placement) {
        let other = (c + 1) % COLOURS as u8;
        let (x, y) = CANVAS_START;
        let mut pyramid = Pyramid::default();
        let jewel = 1;
        pyramid.place(
            &Placement::new(x, y, Dir::S),
            [block(c, jewel)[0], block(other, 0)[0]],
        );
        pyramid.place(
            &Placement::new(x + 1, y + 1, Dir::E),
            [block(c, jewel)[0], block(other, 0)[0]],
        );
        let mut g = Game::new(&Options::default(), 3).unwrap();
        let id = dominoes()
            .iter()
            .find(|d| (d.blocks[0].colour == c) != (d.blocks[1].colour == c))
            .expect("a domino with one block of the colour")
            .id;
        let join = if dominoes()[id as usize].blocks[0].colour == c {
            Placement::new(x + 1, y, Dir::E)
        } else {
            Placement::new(x + 2, y, Dir::W)
        };
        // The same domino turned: its `c` block at (x + 2, y), beside the second area only.
        let apart = if dominoes()[id as usize].blocks[0].colour == c {
            Placement::new(x + 2, y, Dir::W)
        } else {
            Placement::new(x + 1, y, Dir::E)
        };
        g.phase = Phase::Place;
        g.turn.domino = id;
        let seat = g.current as usize;
        g.players[seat].pyramid = pyramid;
        g.players[seat].stage_blocks = 4;
        assert!(g.is_legal(&Move::Place(join)) && g.is_legal(&Move::Place(apart)));
        (g, join, apart)
    }

    #[test]
    fn a_block_between_two_areas_of_its_colour_is_join_areas() {
        let (g, join, apart) = between_two_areas(1);
        assert!(g.themes(&Move::Place(join)).contains(&"join_areas"));
        assert!(!g.themes(&Move::Place(apart)).contains(&"join_areas"));
        assert_eq!(g.themes(&Move::Place(apart)), vec!["placement"]);
    }

    #[test]
    fn joining_a_marked_area_to_another_with_jewels_is_grow_marked_area() {
        let (mut g, join, apart) = between_two_areas(2);
        let seat = g.current as usize;
        // The marker of colour 2 on the first block (index 0).
        g.players[seat].markers[2] = Some(0);
        let themes = g.themes(&Move::Place(join));
        assert!(themes.contains(&"grow_marked_area"), "{themes:?}");
        // Beside the unmarked area only: the stage's score does not move.
        assert!(!g.themes(&Move::Place(apart)).contains(&"grow_marked_area"));
        // Unmarked, the same join scores nothing yet.
        g.players[seat].markers[2] = None;
        assert!(!g.themes(&Move::Place(join)).contains(&"grow_marked_area"));
    }

    #[test]
    fn the_stages_last_domino_is_complete_stage() {
        let (mut g, join, _) = between_two_areas(0);
        assert!(!g.themes(&Move::Place(join)).contains(&"complete_stage"));
        let seat = g.current as usize;
        // Two blocks short of stage 1's twenty.
        g.players[seat].stage_blocks = 18;
        assert!(g.themes(&Move::Place(join)).contains(&"complete_stage"));
    }

    #[test]
    fn only_a_placement_reads_the_board() {
        let (g, ..) = between_two_areas(0);
        assert_eq!(g.themes(&Move::Take(0)), vec!["quarry"]);
        assert_eq!(g.themes(&Move::Pass), vec!["resurface"]);
    }
}
