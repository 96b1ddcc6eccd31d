//! The rulebook's scoring examples as constructed positions, scored by the engine's own code
//! (`Pyramid::score`, `Obelisk::score`, `necropolis::score_of`, which `Game::score` uses).
use pyramidion_core::{Rules, ToMove};
use pyramidion_pyramids::data::{CardId, cards};
use pyramidion_pyramids::necropolis::{Obelisk, Pyramid, Tomb, score_all, score_of};
use pyramidion_pyramids::{Colour, Game, Glyph, Necropolis, Options, Place};
use std::collections::HashSet;

use Colour::{Blue as B, Green as G, Red as R, White as W, Yellow as Y};

/// Picks an unused card with exactly these stone colours (left to right) and this glyph.
fn find_glyph(
    used: &mut HashSet<CardId>,
    colours: &[Colour],
    glyph: Option<Glyph>,
) -> Option<CardId> {
    let c = cards().iter().find(|c| {
        c.colours().eq(colours.iter().copied()) && c.glyph == glyph && !used.contains(&c.id)
    })?;
    used.insert(c.id);
    Some(c.id)
}

/// An unused card with these stone colours, without a glyph if one is left.
fn find(used: &mut HashSet<CardId>, colours: &[Colour]) -> CardId {
    find_glyph(used, colours, None)
        .or_else(|| {
            Glyph::ALL
                .into_iter()
                .find_map(|g| find_glyph(used, colours, Some(g)))
        })
        .unwrap_or_else(|| panic!("no unused card {colours:?}"))
}

fn place(s: &str) -> Place {
    s.parse().unwrap()
}

/// Builds a pyramid from `(colours, place)` in order, through the placement rules.
fn build(layout: &[([Colour; 2], &str)]) -> Pyramid {
    let mut used = HashSet::new();
    let mut p = Pyramid::new();
    for (colours, at) in layout {
        let id = find(&mut used, colours);
        p.place(id, place(at))
            .unwrap_or_else(|e| panic!("{at}: {e}"));
    }
    p
}

/// Our reconstruction of the rulebook's pyramid: red 6, blue 4, green 3, white 2, yellow 1.
/// Stone columns (3 units each) per row, bottom row first:
/// ```text
/// d:          R W
/// c:        Y R W Y
/// b:      G R R B B W
/// a:    Y G G R R B B Y
/// ```
const EXAMPLE: [([Colour; 2], &str); 10] = [
    ([Y, G], "a1"),
    ([G, R], "a2"),
    ([R, B], "a3"),
    ([B, Y], "a4"),
    ([G, R], "b1"),
    ([R, B], "b2"),
    ([B, W], "b3"),
    ([Y, R], "c1"),
    ([W, Y], "c2"),
    ([R, W], "d1"),
];

#[test]
fn rulebook_pyramid_scores_22_without_bonus() {
    let p = build(&EXAMPLE);
    assert!(p.is_complete());
    let s = p.score();
    // Blue, white, red, green, yellow.
    assert_eq!(s.groups, [4, 2, 6, 3, 1]);
    assert_eq!(s.longest, 6);
    assert_eq!(s.bonus, 0);
    assert_eq!(s.total, 4 + 2 + 6 + 6 + 3 + 1);
    assert_eq!(s.total, 22);
}

#[test]
fn the_bottom_row_can_grow_on_both_sides() {
    // Same pyramid, bottom row started in the middle and extended left, left, then right.
    let mut order = EXAMPLE;
    order[0] = ([R, B], "a1");
    order[1] = ([G, R], "a0");
    order[2] = ([Y, G], "a0");
    order[3] = ([B, Y], "a4");
    let p = build(&order);
    let reference = build(&EXAMPLE);
    for i in 0..4 {
        let colours = |p: &Pyramid| {
            cards()[p.card_at(0, i).unwrap() as usize]
                .colours()
                .collect::<Vec<_>>()
        };
        assert_eq!(colours(&p), colours(&reference));
    }
    assert_eq!(p.score(), reference.score());
}

#[test]
fn pyramid_bonus_when_every_colour_has_three() {
    // d:          Y W
    // c:        W Y Y G
    // b:      R W B G G R
    // a:    Y G W B B R R Y
    let p = build(&[
        ([Y, G], "a1"),
        ([W, B], "a2"),
        ([B, R], "a3"),
        ([R, Y], "a4"),
        ([R, W], "b1"),
        ([B, G], "b2"),
        ([G, R], "b3"),
        ([W, Y], "c1"),
        ([Y, G], "c2"),
        ([Y, W], "d1"),
    ]);
    let s = p.score();
    assert_eq!(s.groups, [3; 5]);
    assert_eq!(s.bonus, 10);
    assert_eq!(s.total, 15 + 3 + 10);
}

#[test]
fn stones_touch_only_with_positive_overlap() {
    // Three-stone cards (width 2) over two-stone cards (width 3): the card on b1 spans x 3..9
    // with stones 3-5, 5-7, 7-9; below, a1 has 0-3, 3-6 and a2 has 6-9, 9-12.
    let mut used = HashSet::new();
    let mut p = Pyramid::new();
    for (colours, at) in [
        ([W, R], "a1"),
        ([G, B], "a2"),
        ([Y, W], "a3"),
        ([Y, B], "a4"),
    ] {
        p.place(find(&mut used, &colours), place(at)).unwrap();
    }
    assert_eq!(p.current_row(), Some(1));
    // b1: green 3-5 (over red 3-6: no), red 5-7 (over red 3-6 and green 6-9), blue 7-9.
    let b1 = find(&mut used, &[G, R, B]);
    p.place(b1, place("b1")).unwrap();
    assert_eq!(p.largest_group(R), 2, "red 5-7 overlaps red 3-6 on 5-6");
    assert_eq!(p.largest_group(G), 1, "green 3-5 lies over red only");
    // Blue 7-9 is over green 6-9 only (blue 9-12 starts at its right edge: no overlap).
    assert_eq!(p.largest_group(B), 1);
}

fn obelisk(used: &mut HashSet<CardId>, stages: &[&[Colour]]) -> Obelisk {
    let mut o = Obelisk::new();
    for colours in stages {
        o.push(find(used, colours));
    }
    o
}

#[test]
fn rulebook_obelisk_red_and_blue_on_three_cards_score_6() {
    let mut used = HashSet::new();
    let o = obelisk(&mut used, &[&[R, B], &[R, G], &[B, W], &[R, B, Y]]);
    assert_eq!((o.stages_with(R), o.stages_with(B)), (3, 3));
    assert_eq!(o.score(), 6);
    assert_eq!(Obelisk::new().score(), 0);
    let table: Vec<u8> = (1..=6)
        .map(|k| {
            let stages: Vec<&[Colour]> = (0..k)
                .map(|i| if i % 2 == 0 { &[G, W][..] } else { &[W, G][..] })
                .collect();
            obelisk(&mut HashSet::new(), &stages).score()
        })
        .collect();
    assert_eq!(table, [1, 3, 6, 10, 15, 15]);
}

fn tomb(used: &mut HashSet<CardId>, cards: &[&[Colour]]) -> Necropolis {
    let mut t = Tomb::new();
    for colours in cards {
        t.push(find(used, colours));
    }
    Necropolis {
        tomb: t,
        ..Necropolis::default()
    }
}

#[test]
fn tomb_majorities_and_ties() {
    let mut used = HashSet::new();
    // Red tied 1-1: nobody scores it. Blue and green are single majorities.
    let necs = [tomb(&mut used, &[&[R, B]]), tomb(&mut used, &[&[R, G]])];
    let scores = score_all(&necs);
    assert_eq!((scores[0].tomb, scores[1].tomb), (5, 5));
    // Three tombs: two tie for the most red (2), the third has less: no red majority.
    let necs = [
        tomb(&mut used, &[&[R, W], &[R, Y]]),
        tomb(&mut used, &[&[R, W], &[G, R]]),
        tomb(&mut used, &[&[R, B, Y]]),
    ];
    let s: Vec<u8> = score_all(&necs).iter().map(|s| s.tomb).collect();
    // Red: 2, 2, 1 → tie. White: 1, 1, 0 → tie. Yellow: 1, 0, 1 → tie. Green: seat 1. Blue: seat 2.
    assert_eq!(s, [0, 5, 5]);
    // An empty tomb never scores; a colour nobody has scores nothing.
    let necs = [Necropolis::default(), tomb(&mut used, &[&[W, Y]])];
    let s: Vec<u8> = score_all(&necs).iter().map(|s| s.tomb).collect();
    assert_eq!(s, [0, 10]);
}

#[test]
fn glyphs_score_only_in_their_own_edifice() {
    let mut used = HashSet::new();
    let mut nec = Necropolis::default();
    let pyramid_glyph = find_glyph(&mut used, &[B, W], Some(Glyph::Pyramid)).unwrap();
    let obelisk_glyph = find_glyph(&mut used, &[W, B], Some(Glyph::Obelisk)).unwrap();
    nec.pyramid.place(pyramid_glyph, place("a1")).unwrap();
    nec.pyramid.place(obelisk_glyph, place("a2")).unwrap();
    assert_eq!(
        score_of(&[nec], 0).glyphs,
        2,
        "only the Pyramid glyph counts in the pyramid"
    );

    let mut nec = Necropolis::default();
    let tomb_glyph = cards()
        .iter()
        .find(|c| c.glyph == Some(Glyph::Tomb))
        .unwrap()
        .id;
    let another_pyramid_glyph = find_glyph(&mut used, &[B, R], Some(Glyph::Pyramid)).unwrap();
    nec.obelisk.push(another_pyramid_glyph);
    nec.obelisk.push(tomb_glyph);
    assert_eq!(
        score_of(&[nec], 0).glyphs,
        0,
        "no Obelisk glyph in the obelisk"
    );
    let another_obelisk_glyph = find_glyph(&mut used, &[R, B], Some(Glyph::Obelisk)).unwrap();
    nec.obelisk.push(another_obelisk_glyph);
    nec.tomb.push(pyramid_glyph);
    assert_eq!(score_of(&[nec], 0).glyphs, 2);
    let another_tomb_glyph = cards()
        .iter()
        .find(|c| c.glyph == Some(Glyph::Tomb) && c.id != tomb_glyph)
        .unwrap()
        .id;
    nec.tomb.push(another_tomb_glyph);
    let s = score_of(&[nec], 0);
    assert_eq!(s.glyphs, 4);
    assert_eq!(
        s.total,
        s.pyramid.total as u16 + s.obelisk as u16 + s.tomb as u16 + 4
    );
}

#[test]
fn finished_games_rank_by_score_and_share_ties() {
    let mut moves = Vec::new();
    let mut rng = pyramidion_core::GameRng::from_seed(5);
    let mut ties = 0;
    for seed in 0..400 {
        let mut game = Game::new(&Options { players: 2 }, seed).unwrap();
        while let ToMove::Seat(_) = game.to_move() {
            game.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u32) as usize];
            game.play(&m).unwrap();
        }
        let outcome = game.outcome().unwrap();
        let totals: Vec<i32> = game.scores().iter().map(|s| s.total as i32).collect();
        assert_eq!(outcome.scores, totals);
        let expected = match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => [0, 1],
            std::cmp::Ordering::Less => [1, 0],
            std::cmp::Ordering::Equal => {
                ties += 1;
                [0, 0]
            }
        };
        assert_eq!(outcome.ranks, expected);
        assert_eq!(outcome.automa, None);
    }
    assert!(ties > 0, "some random game ends in a tie");
}
