//! The rulebook's worked examples, as constructed positions scored by the real engine.
//!
//! The rulebook's pictures are not available as data, so each stage example is rebuilt as a
//! pyramid with the same activated areas (icon counts) and the same gem payments; areas that
//! span stages are built across stages on purpose.
use pyramidion_core::{Rules, Seat, ToMove};
use pyramidion_pyramid::{Block, Dir, Placement, Pyramid};
use pyramidion_treasures::state::Phase;
use pyramidion_treasures::{Game, Gem, Gems, Move, Options, Payment, SeatSetup, SoloMode};

const COLOURS: &str = "OBPGR"; // orange, blue, purple, green, red

/// Lays a domino whose blocks are given *as they lie* (icons included) at `p`.
fn lay(pyramid: &mut Pyramid, p: Placement, lying: [Block; 2]) {
    assert_eq!(pyramid.check(&p), Ok(()), "{p}");
    let undo = (4 - p.dir.quarters()) % 4;
    pyramid.place(&p, lying.map(|b| b.rotated(undo)));
}

/// `"O2"` → an orange block with icons in its first two quadrants (nw, ne).
fn block(code: &str, icon_quadrants: Option<u8>) -> Block {
    let colour = COLOURS.find(&code[..1]).expect("colour letter") as u8;
    let n: u32 = code[1..].parse().expect("icon count");
    Block {
        colour,
        icons: icon_quadrants.unwrap_or(((1u32 << n) - 1) as u8),
    }
}

/// Stage 1 from 4 rows of 5 blocks, tiled by vertical dominoes column by column.
fn stage_one(rows: [&str; 4]) -> Pyramid {
    let grid: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.split_whitespace().collect())
        .collect();
    let mut p = Pyramid::default();
    for x in 0..5u8 {
        for y in [0u8, 2] {
            let (a, b) = (
                grid[y as usize][x as usize],
                grid[y as usize + 1][x as usize],
            );
            lay(
                &mut p,
                Placement::new(4 + x, 4 + y, Dir::S),
                [block(a, None), block(b, None)],
            );
        }
    }
    assert!(!p.has_slot());
    p.next_stage();
    p
}

fn all_red_stage_one() -> Pyramid {
    stage_one(["R0 R0 R0 R0 R0"; 4])
}

/// Fills the current upper stage (2 or 3) with red dominoes, icons as given per block:
/// horizontal pairs on stage 2 (4×3), vertical ones on stage 3 (3×2).
fn red_stage(p: &mut Pyramid, icons: impl Fn(u8, u8) -> u8) {
    let b = |x, y| Block {
        colour: 4,
        icons: icons(x, y),
    };
    match p.stage() {
        1 => {
            for y in 0..3 {
                for x in [0, 2] {
                    lay(p, Placement::new(x, y, Dir::E), [b(x, y), b(x + 1, y)]);
                }
            }
        }
        2 => {
            for x in 0..3 {
                lay(p, Placement::new(x, 0, Dir::S), [b(x, 0), b(x, 1)]);
            }
        }
        _ => unreachable!(),
    }
    p.next_stage();
}

fn gems(list: &[(Gem, u8)]) -> Gems {
    let mut g = Gems::default();
    for &(gem, n) in list {
        g.add(gem, n);
    }
    g
}

/// Scores one constructed pyramid: activates the areas with the given icon counts using the
/// given payments (in order), then `done`; returns the stage score and the areas seen.
fn score(
    pyramid: Pyramid,
    stage: u8,
    inventory: Gems,
    activations: &[(u8, Payment)],
) -> (u16, Vec<u8>) {
    let seat = SeatSetup {
        pyramid,
        gems: inventory,
        ..Default::default()
    };
    let mut game = Game::constructed_stage_end(
        &Options::multiplayer(2),
        stage,
        0,
        vec![seat, SeatSetup::default()],
        Gems::default(),
    )
    .unwrap();
    let mut icons: Vec<u8> = game
        .scoring()
        .unwrap()
        .areas()
        .iter()
        .map(|a| a.icons)
        .collect();
    icons.sort();
    for &(n, payment) in activations {
        let area = game
            .scoring()
            .unwrap()
            .areas()
            .iter()
            .find(|a| {
                a.icons == n
                    && !game
                        .scoring()
                        .unwrap()
                        .activations()
                        .iter()
                        .any(|(x, _)| *x == a.anchor)
            })
            .expect("area with that many icons")
            .anchor;
        game.play(&Move::Activate { area, payment }).unwrap();
    }
    game.play(&Move::Done).unwrap();
    (game.player(Seat(0)).stage_scores()[stage as usize], icons)
}

#[test]
fn stage_one_example_scores_23() {
    // Areas: orange 2, blue 3, purple 3, green 4, red 5 icons.
    let p = stage_one([
        "O1 O1 B1 B1 B1",
        "O0 P1 P1 G1 B0",
        "R1 R1 P1 G1 G1",
        "R1 R1 R1 G1 G0",
    ]);
    let inv = gems(&[
        (Gem::Orange, 1),
        (Gem::Blue, 1),
        (Gem::Purple, 1),
        (Gem::Green, 1),
        (Gem::Red, 3),
        (Gem::Mythical, 1),
    ]);
    let (points, areas) = score(
        p,
        0,
        inv,
        &[
            (2, Payment::C1),
            (3, Payment::C1),
            (3, Payment::C1),
            (4, Payment::C1),
            (5, Payment::C3),
        ],
    );
    assert_eq!(areas, vec![2, 3, 3, 4, 5]);
    assert_eq!(points, 2 + 3 + 3 + 4 + 10 + 1);
    assert_eq!(points, 23);
}

#[test]
fn stage_two_example_scores_20_with_an_area_spanning_stages() {
    let mut p = all_red_stage_one();
    // Stage 2 (4×3): orange 4, blue 3, purple 5, green 2, and red 5 joined to the red ring of
    // stage 1 still visible around it.
    let rows = [
        ["O2", "O2", "B1", "B2"],
        ["P2", "P1", "G2", "B0"],
        ["P1", "P1", "R2", "R3"],
    ];
    let b = |x: usize, y: usize| block(rows[y][x], None);
    lay(&mut p, Placement::new(0, 0, Dir::E), [b(0, 0), b(1, 0)]);
    lay(&mut p, Placement::new(2, 0, Dir::E), [b(2, 0), b(3, 0)]);
    lay(&mut p, Placement::new(0, 1, Dir::S), [b(0, 1), b(0, 2)]);
    lay(&mut p, Placement::new(1, 1, Dir::S), [b(1, 1), b(1, 2)]);
    lay(&mut p, Placement::new(2, 1, Dir::S), [b(2, 1), b(2, 2)]);
    lay(&mut p, Placement::new(3, 1, Dir::S), [b(3, 1), b(3, 2)]);
    let inv = gems(&[
        (Gem::Orange, 1),
        (Gem::Blue, 1),
        (Gem::Purple, 1),
        (Gem::Green, 1),
        (Gem::Red, 1),
        (Gem::Mythical, 1),
    ]);
    let (points, areas) = score(
        p,
        1,
        inv,
        &[
            (4, Payment::C1),
            (3, Payment::C1),
            (5, Payment::C1),
            (2, Payment::C1),
            (5, Payment::C1),
        ],
    );
    assert_eq!(areas, vec![2, 3, 4, 5, 5]);
    assert_eq!(points, 4 + 3 + 5 + 2 + 5 + 1);
    assert_eq!(points, 20);
}

#[test]
fn stage_three_example_scores_21_and_covered_icons_do_not_count() {
    let mut p = all_red_stage_one();
    // Stage 2 all red; block (0,0) has icons in all four quadrants, but stage 3 will cover its
    // south-east one: only 3 stay visible. Block (3,2) has two icons, one of them covered.
    red_stage(&mut p, |x, y| match (x, y) {
        (0, 0) => 0b1111,
        _ => 0,
    });
    // Stage 3 (3×2): orange 4, blue 8, purple 2, and a red block with 3 icons joined to the
    // red ring below, which shows 3 of its 4 icons: red 6.
    lay(
        &mut p,
        Placement::new(0, 0, Dir::E),
        [block("O2", None), block("O2", None)],
    );
    lay(
        &mut p,
        Placement::new(2, 0, Dir::S),
        [block("B4", None), block("B4", None)],
    );
    lay(
        &mut p,
        Placement::new(0, 1, Dir::E),
        [block("P2", None), block("R3", None)],
    );
    let inv = gems(&[
        (Gem::Orange, 1),
        (Gem::Blue, 1),
        (Gem::Purple, 1),
        (Gem::Red, 1),
        (Gem::Mythical, 1),
    ]);
    let (points, areas) = score(
        p,
        2,
        inv,
        &[
            (4, Payment::C1),
            (8, Payment::C1),
            (2, Payment::C1),
            (6, Payment::C1),
        ],
    );
    assert_eq!(areas, vec![2, 4, 6, 8]);
    assert_eq!(points, 4 + 8 + 2 + 6 + 1);
    assert_eq!(points, 21);
}

#[test]
fn stage_four_example_scores_14() {
    let mut p = all_red_stage_one();
    red_stage(&mut p, |_, _| 0);
    // Stage 3: orange column (icons on the quadrants stage 4 leaves visible), red middle,
    // blue column; the stage-4 domino joins them into areas of 8 and 6 icons.
    let nw_ne_sw = 0b0111;
    let nw = 0b0001;
    let nw_ne = 0b0011;
    lay(
        &mut p,
        Placement::new(0, 0, Dir::S),
        [block("O3", Some(nw_ne_sw)), block("O1", Some(nw))],
    );
    lay(
        &mut p,
        Placement::new(1, 0, Dir::S),
        [block("R0", None), block("R0", None)],
    );
    lay(
        &mut p,
        Placement::new(2, 0, Dir::S),
        [block("B2", Some(nw_ne)), block("B0", None)],
    );
    p.next_stage();
    lay(
        &mut p,
        Placement::new(0, 0, Dir::E),
        [block("O4", None), block("B4", None)],
    );
    let inv = gems(&[(Gem::Orange, 1), (Gem::Blue, 1)]);
    let (points, areas) = score(p, 3, inv, &[(8, Payment::C1), (6, Payment::C1)]);
    assert_eq!(areas, vec![6, 8]);
    assert_eq!(points, 14);
}

/// Carl 23/20/21/14 (the examples above), and the other scores of the scoring pad.
const PAD: [(&str, [u16; 4]); 4] = [
    ("Carl", [23, 20, 21, 14]),
    ("Marc", [25, 22, 21, 19]),
    ("Min", [24, 25, 23, 18]),
    ("Jo", [18, 24, 22, 18]),
];

fn pad_position(stage: u8, stage_first: u8) -> Game {
    let seats = PAD
        .iter()
        .map(|(_, s)| {
            let mut scores = [0; 4];
            scores[..stage as usize + 1].copy_from_slice(&s[..stage as usize + 1]);
            SeatSetup {
                stage_scores: scores,
                ..Default::default()
            }
        })
        .collect();
    Game::constructed_stage_end(
        &Options::multiplayer(4),
        stage,
        stage_first,
        seats,
        Gems::default(),
    )
    .unwrap()
}

#[test]
fn next_stage_first_players_are_jo_carl_carl() {
    // Stage 1 starts with Carl (seat 0). Lowest score starts; ties → first in turn order.
    assert_eq!(PAD[pad_position(0, 0).next_first_player() as usize].0, "Jo");
    assert_eq!(
        PAD[pad_position(1, 3).next_first_player() as usize].0,
        "Carl"
    );
    // Carl and Marc both 21; Carl is first in stage 3's turn order (Carl, Marc, Min, Jo).
    assert_eq!(
        PAD[pad_position(2, 0).next_first_player() as usize].0,
        "Carl"
    );
    // Had Marc been earlier in the turn order, Marc would start.
    assert_eq!(
        PAD[pad_position(2, 1).next_first_player() as usize].0,
        "Marc"
    );
}

#[test]
fn scoring_pad_totals_and_winner_through_play() {
    // Stage 4 of the pad, played out through real moves: each player's stage-4 score comes
    // from Mythicals kept (no areas), so the totals are exactly the pad's.
    let seats = PAD
        .iter()
        .map(|(_, s)| SeatSetup {
            stage_scores: [s[0], s[1], s[2], 0],
            gems: gems(&[(Gem::Mythical, s[3] as u8)]),
            ..Default::default()
        })
        .collect();
    let mut game =
        Game::constructed_stage_end(&Options::multiplayer(4), 3, 0, seats, Gems::default())
            .unwrap();
    while let ToMove::Seat(_) = game.to_move() {
        game.play(&Move::Done).unwrap();
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.scores, vec![78, 87, 90, 82]);
    assert_eq!(
        outcome
            .winners()
            .map(|s| PAD[s.index()].0)
            .collect::<Vec<_>>(),
        vec!["Min"]
    );
    assert_eq!(outcome.ranks, vec![3, 1, 0, 2]);
}

#[test]
fn final_ties_break_on_gems_then_best_stage_then_share() {
    let play_out = |setups: Vec<([u16; 4], u8)>| {
        let seats = setups
            .into_iter()
            .map(|(scores, mythicals)| SeatSetup {
                stage_scores: scores,
                gems: gems(&[(Gem::Mythical, mythicals)]),
                ..Default::default()
            })
            .collect();
        let mut game =
            Game::constructed_stage_end(&Options::multiplayer(3), 3, 0, seats, Gems::default())
                .unwrap();
        while let ToMove::Seat(_) = game.to_move() {
            game.play(&Move::Done).unwrap();
        }
        game.outcome().unwrap().ranks
    };
    // Equal totals (stage 4 = Mythicals kept): more gems left wins.
    assert_eq!(
        play_out(vec![
            ([20, 20, 20, 0], 5),
            ([21, 20, 20, 0], 4),
            ([10, 10, 10, 0], 0)
        ]),
        vec![0, 1, 2]
    );
    // Equal totals and gems: best single stage wins.
    assert_eq!(
        play_out(vec![
            ([20, 20, 20, 0], 4),
            ([30, 15, 15, 0], 4),
            ([10, 10, 10, 0], 0)
        ]),
        vec![1, 0, 2]
    );
    // Equal everything: shared victory.
    assert_eq!(
        play_out(vec![
            ([20, 20, 20, 0], 4),
            ([20, 20, 20, 0], 4),
            ([10, 10, 10, 0], 0)
        ]),
        vec![0, 0, 2]
    );
}

#[test]
fn legend_stage_three_example_scores_27() {
    assert_eq!(pyramidion_treasures::legend_stage_points(2, 5, 6), 27);
    // Through play: a solo game at the end of stage 3, the Legend holding 5 coloured gems and
    // 6 Mythicals; after the player's scoring he scores 27, keeps his Mythicals, and his
    // coloured gems go to the discard.
    let legend = gems(&[(Gem::Red, 2), (Gem::Blue, 3), (Gem::Mythical, 6)]);
    let mut pyramid = all_red_stage_one();
    red_stage(&mut pyramid, |_, _| 0);
    red_stage(&mut pyramid, |_, _| 0);
    let seat = SeatSetup {
        pyramid,
        ..Default::default()
    };
    let mut game =
        Game::constructed_stage_end(&Options::solo(SoloMode::ALegend), 2, 0, vec![seat], legend)
            .unwrap();
    let discard_before = game.discard();
    game.play(&Move::Done).unwrap();
    let l = game.legend().unwrap();
    assert_eq!(l.total(), 27);
    assert_eq!(l.gems(), gems(&[(Gem::Mythical, 6)]));
    assert_eq!(game.discard().total(), discard_before.total() + 5);
    assert_eq!(game.phase(), Phase::Take);
    assert_eq!(
        game.current(),
        Seat(0),
        "the player starts every stage in solo"
    );
}

#[test]
fn solo_legend_wins_ties() {
    let mut game = Game::constructed_stage_end(
        &Options::solo(SoloMode::ALegend),
        3,
        0,
        vec![SeatSetup {
            stage_scores: [10, 10, 10, 0],
            gems: gems(&[(Gem::Mythical, 2)]),
            ..Default::default()
        }],
        gems(&[(Gem::Mythical, 4)]),
    )
    .unwrap();
    game.play(&Move::Done).unwrap();
    let o = game.outcome().unwrap();
    // Player 32, Legend 4 × 2 = 8 in stage 4 only: the player wins.
    assert_eq!((o.scores[0], o.automa, o.ranks[0]), (32, Some(8), 0));
    let mut tie = Game::constructed_stage_end(
        &Options::solo(SoloMode::ALegend),
        3,
        0,
        vec![SeatSetup {
            stage_scores: [0, 0, 0, 0],
            gems: gems(&[(Gem::Mythical, 8)]),
            ..Default::default()
        }],
        gems(&[(Gem::Mythical, 4)]),
    )
    .unwrap();
    tie.play(&Move::Done).unwrap();
    let o = tie.outcome().unwrap();
    assert_eq!((o.scores[0], o.automa, o.ranks[0]), (8, Some(8), 1));
}
