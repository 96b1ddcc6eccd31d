//! The rulebook's scoring examples as constructed positions: real tiles placed with
//! `Pyramid::place` under the game's rules (legal placements, the mandatory marker, resurfacing
//! cards marked when possible), scored by the game's own `score_stage`.
//!
//! The rulebook's pictures are not available as data, so the pyramids below were found by a
//! search over the real tile list for positions whose marked areas give exactly the breakdowns
//! the rulebook prints: stage 1 4+4+3+4+3+3 + Mino 3 = 24 (21 jewels from 10 dominoes: one
//! resurfacing card on a blank block is needed), stage 2 6+5+4+4 + 4 = 23 with jewels left
//! unmarked, stage 3 7+6+6+5 + 5 = 29 (four marked areas from three dominoes: one card marked),
//! stage 4 7 + 7 = 14, or 8 + 7 + 7 = 22 with one resurfacing card.
use pyramidion_pyramid::{Block, Placement, Pyramid};
use pyramidion_pyramido::data::{COLOURS, dominoes, parse_colour};
use pyramidion_pyramido::{StageScore, mark_options, score_stage};

/// Pyramid A, stages 1–3. Each turn: domino id, placement, the marker chosen (absent when the
/// rules allow none), and an optional resurfacing card (block, side colour, jewel quadrant).
const PYRAMID_A: [&str; 3] = [
    "0 e5 E mark A; 26 g5 E mark A; 86 i5 S mark B resurface A green nw; 11 e6 E; 28 g6 E; \
     67 e7 E mark A; 78 g7 E mark A; 50 i7 S mark A; 68 e8 E; 59 g8 E",
    "33 a1 S mark B; 66 b1 S mark A; 5 c2 N mark A; 88 d1 S; 15 b3 W mark A; 52 d3 W",
    "14 a2 N mark A resurface B brown sw; 3 c1 W mark A; 36 b2 E mark A",
];

/// Pyramid B: stages 1–3 under the stage-4 example.
const PYRAMID_B: [&str; 3] = [
    "14 e5 S mark A; 10 f6 N mark B; 60 g5 E mark B; 62 i5 S mark A; 67 h6 W; 46 f7 W; 0 g7 S; \
     79 h8 N mark A; 30 i7 S mark B; 37 f8 W",
    "64 b1 W mark A; 28 c1 E mark A; 16 a2 E mark A; 74 c2 S; 26 d2 S; 38 a3 E mark A",
    "61 a1 E mark A; 2 c1 S mark A; 45 a2 E",
];
const STAGE_4_PLAIN: &str = "18 a1 E mark A";
const STAGE_4_CARD: &str = "18 a1 E mark A resurface B blue nw";

struct Builder {
    pyramid: Pyramid,
    markers: [Option<u8>; COLOURS],
    used: u128,
    cards: [bool; 3],
}

impl Builder {
    fn new() -> Builder {
        Builder {
            pyramid: Pyramid::default(),
            markers: [None; COLOURS],
            used: 0,
            cards: [true; 3],
        }
    }

    /// Plays one stage's turns, checking each against the rules.
    fn stage(&mut self, turns: &str) {
        for turn in turns.split(';') {
            let words: Vec<&str> = turn.split_whitespace().collect();
            let id: u8 = words[0].parse().unwrap();
            assert_eq!(self.used >> id & 1, 0, "domino {id} used twice");
            self.used |= 1 << id;
            let p: Placement = format!("{} {}", words[1], words[2]).parse().unwrap();
            assert_eq!(self.pyramid.check(&p), Ok(()), "{turn}");
            let a = self.pyramid.blocks().len();
            self.pyramid.place(&p, dominoes()[id as usize].blocks);
            let side = |w: &str| if w == "A" { 0 } else { 1 };
            let block = |s: usize, py: &Pyramid| py.blocks()[a + s].block;
            let options = mark_options(
                [block(0, &self.pyramid), block(1, &self.pyramid)],
                &self.markers,
            );
            let mut rest = &words[3..];
            let mut marked = None;
            if rest.first() == Some(&"mark") {
                let s = side(rest[1]);
                assert_eq!(options >> s & 1, 1, "{turn}: that block may not be marked");
                let colour = block(s, &self.pyramid).colour;
                self.markers[colour as usize] = Some((a + s) as u8);
                marked = Some(s);
                rest = &rest[2..];
            } else {
                assert_eq!(options, 0, "{turn}: a marker is mandatory");
            }
            if rest.first() == Some(&"resurface") {
                let s = side(rest[1]);
                assert_ne!(marked, Some(s), "{turn}: only an unmarked block");
                let colour = parse_colour(rest[2]).unwrap();
                let quadrant = ["nw", "ne", "sw", "se"]
                    .iter()
                    .position(|q| *q == rest[3])
                    .unwrap();
                let card = colour as usize / 2;
                assert!(self.cards[card], "{turn}: card used twice");
                self.cards[card] = false;
                self.pyramid.replace_block(
                    a + s,
                    Block {
                        colour,
                        icons: 1 << quadrant,
                    },
                );
                if self.markers[colour as usize].is_none() {
                    self.markers[colour as usize] = Some((a + s) as u8);
                }
                rest = &rest[4..];
            }
            assert!(rest.is_empty(), "{turn}");
        }
        assert!(!self.pyramid.has_slot(), "the stage is complete");
    }

    fn score(&self) -> StageScore {
        score_stage(&self.pyramid, &self.markers)
    }

    fn next_stage(&mut self) {
        self.pyramid.next_stage();
        self.markers = [None; COLOURS];
    }

    /// Visible jewels outside every marked area.
    fn unmarked_jewels(&self, score: &StageScore) -> u32 {
        let top = self.pyramid.top_view();
        let marked = score
            .areas
            .iter()
            .map(|a| top.area_at(a.anchor as u32).unwrap().cells)
            .fold(0, |m, c| m | c);
        (top.icons() & !marked).count_ones()
    }
}

fn jewels(score: &StageScore) -> Vec<u8> {
    let mut v: Vec<u8> = score.areas.iter().map(|a| a.jewels).collect();
    v.sort();
    v
}

fn colours(score: &StageScore) -> Vec<&'static str> {
    score
        .areas
        .iter()
        .map(|a| pyramidion_pyramido::data::COLOUR_NAMES[a.colour as usize])
        .collect()
}

#[test]
fn stage_1_scores_24() {
    let mut b = Builder::new();
    b.stage(PYRAMID_A[0]);
    let s = b.score();
    // Every colour marked: brown, blue, yellow, turquoise, red, green.
    assert_eq!(s.areas.len(), 6);
    assert_eq!(jewels(&s), [3, 3, 3, 4, 4, 4]);
    assert_eq!(s.mino, 3);
    assert_eq!(s.total, 24);
}

#[test]
fn stage_2_scores_23_and_unmarked_jewels_do_not_count() {
    let mut b = Builder::new();
    b.stage(PYRAMID_A[0]);
    b.next_stage();
    b.stage(PYRAMID_A[1]);
    let s = b.score();
    assert_eq!(jewels(&s), [4, 4, 5, 6]);
    assert_eq!((s.mino, s.total), (4, 23));
    assert_eq!(
        b.unmarked_jewels(&s),
        4,
        "visible jewels in no marked area score nothing"
    );
}

#[test]
fn stage_3_scores_29_with_areas_across_stages() {
    let mut b = Builder::new();
    for (i, stage) in PYRAMID_A.iter().enumerate() {
        if i > 0 {
            b.next_stage();
        }
        b.stage(stage);
    }
    let s = b.score();
    assert_eq!(jewels(&s), [5, 6, 6, 7]);
    assert_eq!((s.mino, s.total), (5, 29));
    // Four marked areas from three dominoes: a resurfacing card was marked.
    assert_eq!(s.areas.len(), 4);
    // The marked areas reach down into stages 1 and 2, whose jewels count again.
    let top = b.pyramid.top_view();
    let stage_3_quadrants: u128 = b
        .pyramid
        .blocks()
        .iter()
        .zip(b.pyramid.block_quadrants())
        .filter(|(pb, _)| pb.stage == 2)
        .map(|(_, q)| 0b11u128 << q | 0b11u128 << (q + 10))
        .fold(0, |m, c| m | c);
    let below: u32 = s
        .areas
        .iter()
        .map(|a| {
            (top.area_at(a.anchor as u32).unwrap().cells & top.icons() & !stage_3_quadrants)
                .count_ones()
        })
        .sum();
    assert!(
        below >= 10,
        "only {below} counted jewels lie on lower stages"
    );
}

fn pyramid_b() -> Builder {
    let mut b = Builder::new();
    for stage in PYRAMID_B {
        b.stage(stage);
        b.next_stage();
    }
    b
}

#[test]
fn stage_4_scores_14_one_area_still_earns_the_mino_bonus() {
    let mut b = pyramid_b();
    b.stage(STAGE_4_PLAIN);
    let s = b.score();
    assert_eq!(jewels(&s), [7]);
    assert_eq!((s.mino, s.total), (7, 14));
    assert_eq!(colours(&s), ["red"]);
}

#[test]
fn stage_4_with_a_resurfacing_card_scores_22() {
    let mut b = pyramid_b();
    b.stage(STAGE_4_CARD);
    let s = b.score();
    assert_eq!(jewels(&s), [7, 8]);
    assert_eq!((s.mino, s.total), (7, 22));
    assert_eq!(colours(&s), ["blue", "red"]);
}

#[test]
fn nothing_marked_scores_nothing() {
    let mut b = pyramid_b();
    b.stage(STAGE_4_PLAIN);
    b.markers = [None; COLOURS];
    assert_eq!(b.score(), StageScore::default());
}
