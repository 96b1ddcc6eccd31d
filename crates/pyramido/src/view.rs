//! What a seat (or a spectator) sees. Everything is public in Pyramido except the order of
//! the dominoes below the pile tops, so every seat gets the same picture.
//!
//! The platform's envelope ([`Envelope`]: `seats`, each a [`SeatSummary`] with `stage_points`,
//! `to_move`, `phase`, `stage`, `stages`, `first_player` and `outcome`) and the game's own
//! board; colours by name, jewel quadrants and cards as arrays of names.
use crate::data::{CARD_SIDES, COLOUR_NAMES, COLOURS, colour_name, dominoes};
use crate::scoring::StageScore;
use crate::state::{Game, PILES, Phase, QUARRY_SLOTS, Status};
use pyramidion_core::{Envelope, Seat, SeatSummary};
use pyramidion_pyramid::placement::format_cell;
use pyramidion_pyramid::{Block, FrameRect, STAGES};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct BlockView {
    pub colour: &'static str,
    /// Jewel quadrants, e.g. `["nw", "se"]` (empty: none).
    pub jewels: &'static [&'static str],
}

impl From<Block> for BlockView {
    fn from(b: Block) -> Self {
        BlockView {
            colour: colour_name(b.colour),
            jewels: JEWELS[b.icons as usize & 15],
        }
    }
}

/// A tile face up: block A (west) and block B (east) in canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct DominoView {
    pub id: u8,
    pub a: BlockView,
    pub b: BlockView,
}

impl DominoView {
    pub fn new(id: u8) -> DominoView {
        let [a, b] = dominoes()[id as usize].blocks;
        DominoView {
            id,
            a: a.into(),
            b: b.into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct PileView {
    pub size: usize,
    pub top: Option<DominoView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct PlacedBlockView {
    /// 1 to 4.
    pub stage: u8,
    /// Stage-local block coordinates (stage 1: on the 9×9 canvas; cell `a1` is (0, 0)).
    pub x: u8,
    pub y: u8,
    pub colour: &'static str,
    /// Jewel quadrants, e.g. `["nw", "se"]` (empty: none).
    pub jewels: &'static [&'static str],
    /// The resurfacing card this block is (its two sides' colours), if it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<[&'static str; 2]>,
    /// Carries a jewel marker (of its colour).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub marker: bool,
}

/// The quadrants of every mask, as `format_quadrants` names them, without allocating.
const JEWELS: [&[&str]; 16] = [
    &[],
    &["nw"],
    &["ne"],
    &["nw", "ne"],
    &["sw"],
    &["nw", "sw"],
    &["ne", "sw"],
    &["nw", "ne", "sw"],
    &["se"],
    &["nw", "se"],
    &["ne", "se"],
    &["nw", "ne", "se"],
    &["sw", "se"],
    &["nw", "sw", "se"],
    &["ne", "sw", "se"],
    &["nw", "ne", "sw", "se"],
];

/// A marked area of the stage being built, as it would score now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct LiveAreaView {
    pub colour: &'static str,
    /// Visible jewels in the area (its points).
    pub jewels: u8,
    /// Its quadrants on the top-view grid (10 wide: `q % 10`, `q / 10`), whose top-left is
    /// block `grid_origin` of the stage-1 canvas.
    pub cells: Vec<u8>,
}

/// Why a player was eliminated: their stage `stage` got stuck with `holes` cells no domino
/// could fill and only `cards` unused resurfacing cards to cover them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct EliminationView {
    pub stage: u8,
    pub holes: u8,
    pub cards: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct SeatView {
    /// Points of the completed stages; per stage (1–4 at 0–3), its points once this seat
    /// completed it.
    #[serde(flatten)]
    pub summary: SeatSummary,
    pub status: Status,
    /// Set once the player is eliminated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elimination: Option<EliminationView>,
    /// The stage-1 frame once forced.
    pub frame: Option<FrameRect>,
    /// Blocks in placing order (the order the top view stacks them).
    pub blocks: Vec<PlacedBlockView>,
    pub dominoes: Vec<u8>,
    /// Indices (in `blocks`) of the blocks A and B of the domino placed last.
    pub last_domino: Option<[usize; 2]>,
    pub markers_in_hand: Vec<&'static str>,
    /// Unused resurfacing cards, each as its two sides' colours.
    pub cards_in_hand: Vec<[&'static str; 2]>,
    /// The completed stages' scores with their marked areas and Mino bonus (the totals are
    /// the summary's `stage_points`).
    pub stage_breakdowns: Vec<StageScore>,
    /// What the current stage would score if it ended now.
    pub stage_value: u16,
    /// The marked areas of the stage being built, as they would score now (their Mino bonus
    /// is the smallest `jewels`).
    pub live_areas: Vec<LiveAreaView>,
    /// Stage-1 canvas block at the top-left of the top-view grid `live_areas` use.
    pub grid_origin: (u8, u8),
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct View {
    #[serde(flatten)]
    pub envelope: Envelope<SeatView, Phase>,
    /// Whose view this is (`None`: a spectator).
    pub seat: Option<Seat>,
    pub quarry: [Option<DominoView>; QUARRY_SLOTS],
    pub piles: [PileView; PILES],
    /// The domino taken, to place now.
    pub held: Option<DominoView>,
    /// The quarry slot (1–3) taken this turn, until refilled.
    pub empty_slot: Option<u8>,
    /// Indices (in the mover's `blocks`) of the new domino's blocks A and B while marking or
    /// resurfacing.
    pub new_blocks: Option<[usize; 2]>,
    /// Holes the mover must still cover, the next first.
    pub holes: Vec<String>,
}

/// The areas under `p`'s placed jewel markers, with their quadrants.
fn live_areas(p: &crate::state::Player) -> Vec<LiveAreaView> {
    let markers = p.markers();
    if markers.iter().all(Option::is_none) {
        return Vec::new();
    }
    let top = p.pyramid().top_view();
    let quadrants: Vec<u32> = p.pyramid().block_quadrants().collect();
    let mut out: Vec<(u8, LiveAreaView)> = Vec::new();
    for block in markers.iter().flatten() {
        let Some(area) = quadrants.get(*block as usize).and_then(|q| top.area_at(*q)) else {
            continue;
        };
        if out.iter().any(|(anchor, _)| *anchor == area.anchor) {
            continue;
        }
        let cells = (0..128u8).filter(|q| area.cells >> q & 1 == 1).collect();
        out.push((
            area.anchor,
            LiveAreaView {
                colour: colour_name(area.colour),
                jewels: area.icons,
                cells,
            },
        ));
    }
    out.into_iter().map(|(_, a)| a).collect()
}

impl View {
    pub(crate) fn new(game: &Game, seat: Option<Seat>) -> View {
        let seats = game
            .players()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let markers = p.markers();
                let blocks = p
                    .pyramid()
                    .blocks()
                    .iter()
                    .enumerate()
                    .map(|(index, pb)| PlacedBlockView {
                        stage: pb.stage + 1,
                        x: pb.x,
                        y: pb.y,
                        colour: colour_name(pb.block.colour),
                        jewels: JEWELS[pb.block.icons as usize & 15],
                        card: p
                            .cards()
                            .iter()
                            .position(|c| *c == Some(index as u8))
                            .map(|k| CARD_SIDES[k]),
                        marker: markers.contains(&Some(index as u8)),
                    })
                    .collect();
                SeatView {
                    summary: SeatSummary::by_stage(
                        Seat(i as u8),
                        i32::from(p.total()),
                        (0..usize::from(STAGES))
                            .map(|s| p.scores().get(s).map(|sc| i32::from(sc.total)))
                            .collect(),
                    ),
                    status: p.status(),
                    // The pyramid stays as it was when the stage got stuck: its free cells
                    // are the holes that could not be covered.
                    elimination: (p.status() == Status::Eliminated).then(|| EliminationView {
                        stage: p.pyramid().stage() + 1,
                        holes: crate::free_cells(p.pyramid()).count_ones() as u8,
                        cards: p.unused_cards() as u8,
                    }),
                    frame: p.pyramid().frame().or(p.pyramid().canvas().frame()),
                    blocks,
                    dominoes: p.dominoes().to_vec(),
                    last_domino: p.last_domino().map(|a| [a, a + 1]),
                    markers_in_hand: (0..COLOURS)
                        .filter(|&c| markers[c].is_none())
                        .map(|c| COLOUR_NAMES[c])
                        .collect(),
                    cards_in_hand: (0..CARD_SIDES.len())
                        .filter(|&k| p.cards()[k].is_none())
                        .map(|k| CARD_SIDES[k])
                        .collect(),
                    stage_breakdowns: p.scores().to_vec(),
                    stage_value: if p.status() == Status::Eliminated {
                        0
                    } else {
                        p.stage_value()
                    },
                    live_areas: if p.status() == Status::Eliminated {
                        Vec::new()
                    } else {
                        live_areas(p)
                    },
                    grid_origin: p
                        .pyramid()
                        .frame()
                        .map_or(p.pyramid().canvas().min(), |f| (f.x, f.y)),
                }
            })
            .collect();
        View {
            envelope: Envelope::of(game, seats, game.phase(), game.first_player()),
            seat,
            quarry: game.quarry().map(|d| d.map(DominoView::new)),
            piles: std::array::from_fn(|p| PileView {
                size: game.pile_size(p),
                top: game.pile_top(p).map(DominoView::new),
            }),
            held: game.held().map(DominoView::new),
            empty_slot: game.empty_slot().map(|s| s + 1),
            new_blocks: game.new_blocks().map(|a| [a, a + 1]),
            holes: game
                .holes()
                .iter()
                .map(|&(x, y)| format_cell(x, y))
                .collect(),
        }
    }

    /// Every domino id the view shows.
    pub fn domino_ids(&self) -> Vec<u8> {
        let mut ids: Vec<u8> = self.quarry.iter().flatten().map(|d| d.id).collect();
        ids.extend(
            self.piles
                .iter()
                .filter_map(|p| p.top.as_ref())
                .map(|d| d.id),
        );
        ids.extend(self.held.iter().map(|d| d.id));
        for s in &self.envelope.seats {
            ids.extend(&s.dominoes);
        }
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramidion_pyramid::placement::format_quadrants;

    #[test]
    fn the_last_domino_placed_is_named_by_its_blocks() {
        use pyramidion_core::Rules;
        let mut game = Game::new(&crate::options::Options::players(2), 7).expect("a game");
        assert_eq!(View::new(&game, None).envelope.seats[0].last_domino, None);
        // Take, place, and whatever follows until seat 0's turn is over.
        let mut plies = 0;
        let mut moves = Vec::new();
        while game.current() == Seat(0) || plies == 0 {
            game.legal_moves(&mut moves);
            game.play(&moves[0]).expect("a legal move");
            plies += 1;
        }
        let view = View::new(&game, None);
        let last = view.envelope.seats[0]
            .last_domino
            .expect("seat 0 placed a domino");
        assert_eq!(last, [0, 1]);
        assert_eq!(view.envelope.seats[0].blocks.len(), 2);
        assert_eq!(view.envelope.seats[1].last_domino, None);
    }

    #[test]
    fn live_areas_add_up_to_the_stage_value() {
        use pyramidion_core::Rules;
        let mut game = Game::new(&crate::options::Options::players(2), 11).expect("a game");
        let mut moves = Vec::new();
        let mut seen = false;
        for _ in 0..200 {
            let view = View::new(&game, None);
            if view.envelope.stage > 1 || game.to_move() == pyramidion_core::ToMove::Over {
                break;
            }
            for p in &view.envelope.seats {
                let sum: u16 = p.live_areas.iter().map(|a| a.jewels as u16).sum();
                let mino = p
                    .live_areas
                    .iter()
                    .map(|a| a.jewels as u16)
                    .min()
                    .unwrap_or(0);
                assert_eq!(sum + mino, p.stage_value, "seat {:?}", p.summary.seat);
                for a in &p.live_areas {
                    assert!(!a.cells.is_empty());
                    assert!(a.cells.iter().all(|&q| q < 100));
                }
                seen |= !p.live_areas.is_empty();
            }
            game.legal_moves(&mut moves);
            game.play(&moves[moves.len() / 2]).expect("a legal move");
        }
        assert!(seen, "some marker was placed");
    }

    /// A scored stage's marked areas come with the quadrants they covered then, listed (as
    /// numbers, the area's name being the lowest) in the view a table outlines them from.
    #[test]
    fn scored_areas_carry_their_quadrants() {
        use pyramidion_core::Rules;
        let mut moves = Vec::new();
        let mut checked = 0;
        for seed in 0..8 {
            let mut game = Game::new(&crate::options::Options::players(2), seed).expect("a game");
            while game.to_move() != pyramidion_core::ToMove::Over {
                game.legal_moves(&mut moves);
                game.play(&moves[moves.len() / 2]).expect("a legal move");
            }
            let view = serde_json::to_value(View::new(&game, None)).expect("a view");
            for seat in view["seats"].as_array().expect("seats") {
                for stage in seat["stage_breakdowns"].as_array().expect("stage scores") {
                    for area in stage["areas"].as_array().expect("areas") {
                        let cells: Vec<u64> = area["cells"]
                            .as_array()
                            .expect("cells")
                            .iter()
                            .map(|q| q.as_u64().expect("a quadrant"))
                            .collect();
                        assert!(!cells.is_empty());
                        assert!(cells.iter().all(|&q| q < 100));
                        assert_eq!(cells.iter().min(), area["anchor"].as_u64().as_ref());
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 0, "some stage scored a marked area");
    }

    /// A placement whose form says it eliminates the mover never lets them finish that
    /// stage; every eliminated player's view says why (more holes than cards); and random
    /// play meets both.
    #[test]
    fn eliminating_placements_are_flagged_and_eliminations_explained() {
        use crate::moves::MoveForm;
        use crate::{Move, Status};
        use pyramidion_core::{GameRng, Rules, ToMove};
        let (mut flagged, mut eliminated, mut safe) = (0, 0, 0);
        for seed in 0..30 {
            let mut game = Game::new(&crate::options::Options::players(3), seed).expect("a game");
            let mut rng = GameRng::from_seed(seed);
            let mut doomed: [Option<u8>; 4] = [None; 4];
            let mut moves = Vec::new();
            while let ToMove::Seat(seat) = game.to_move() {
                game.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u32) as usize];
                if let Move::Place(_) = m {
                    let MoveForm::Place { eliminates, .. } = MoveForm::of(&game, &m) else {
                        panic!("a place form");
                    };
                    if eliminates {
                        flagged += 1;
                        doomed[seat.0 as usize] = Some(game.stage());
                    } else {
                        safe += 1;
                    }
                }
                let stage = game.stage();
                game.play(&m).expect("a legal move");
                let player = game.player(seat);
                if player.status() == Status::Done || game.stage() != stage {
                    assert_ne!(
                        (doomed[seat.0 as usize], player.status()),
                        (Some(stage), Status::Done),
                        "seed {seed}: a flagged placement let seat {} finish stage {stage}",
                        seat.0
                    );
                }
            }
            for p in View::new(&game, None).envelope.seats {
                if p.status == Status::Eliminated {
                    let why = p.elimination.expect("an eliminated player's reason");
                    assert!(why.holes > why.cards, "seed {seed}: {why:?}");
                    eliminated += 1;
                } else {
                    assert_eq!(p.elimination, None);
                }
            }
        }
        assert!(
            flagged > 0 && safe > 0 && eliminated > 0,
            "{flagged} {safe} {eliminated}"
        );
    }

    #[test]
    fn jewel_table_matches_core_names() {
        for (m, names) in JEWELS.iter().enumerate() {
            assert_eq!(names.join(" "), format_quadrants(m as u8));
        }
    }
}
