//! Turn rules through the public API: placement counts, markers, resurfacing, holes,
//! elimination, the market, illegal moves, views.

use crate::common::{careful_move, safe_move};
use pyramidion_core::{ErrorCode, GameRng, Rules, Seat, ToMove};
use pyramidion_pyramid::{Dir, Placement, StageGrid};
use pyramidion_pyramido::data::{BLUE, BROWN, DOMINO_COUNT, GREEN, RED, dominoes};
use pyramidion_pyramido::{Game, IllegalMove, Move, Options, Phase, Side, Status};

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn play(g: &mut Game, text: &str) {
    let m = mv(text);
    g.play(&m)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}"));
}

fn legal(g: &Game) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v
}

/// The move is refused with `code` and the state does not change.
fn refused(g: &Game, m: Move, code: &str) {
    let mut copy = g.clone();
    let err = copy
        .play(&m)
        .expect_err(&format!("'{m}' should be refused"));
    assert_eq!(err.code(), code, "'{m}': {err}");
    assert_eq!(&copy, g, "'{m}' changed the state");
    assert!(!legal(g).contains(&m), "'{m}' is listed as legal");
}

/// A deck whose quarry is `quarry` and whose piles hold the other ids in increasing order.
fn deck_with(quarry: [u8; 3]) -> Vec<u8> {
    let mut deck = quarry.to_vec();
    deck.extend((0..DOMINO_COUNT as u8).filter(|d| !quarry.contains(d)));
    deck
}

/// Ends the current seat's turn: marks A, passes on resurfacing, refills from the left pile.
fn finish_turn(g: &mut Game) {
    let seat = g.current();
    while g.to_move() == ToMove::Seat(seat) {
        match g.phase() {
            Phase::Mark => play(g, "mark A"),
            Phase::Resurface => play(g, "pass"),
            Phase::Refill => {
                let m = legal(g)[0];
                g.play(&m).unwrap();
            }
            _ => break,
        }
    }
}

/// Lets the other seats play safely until `seat` is to take a domino again.
fn others_until(g: &mut Game, seat: Seat, rng: &mut GameRng) {
    let mut buf = Vec::new();
    while g.to_move() == ToMove::Seat(g.current())
        && (g.current() != seat || g.phase() != Phase::Take)
    {
        assert_ne!(
            g.current(),
            seat,
            "{seat} has a decision pending: {:?}",
            g.phase()
        );
        let m = safe_move(g, rng, &mut buf);
        g.play(&m).unwrap();
    }
}

// ----- placement counts --------------------------------------------------------------------------

#[test]
fn empty_stage_one_has_four_placements() {
    let mut g = Game::new(&Options::default(), 1).unwrap();
    play(&mut g, "take 2");
    let moves = legal(&g);
    assert_eq!(moves.len(), 4);
    for m in ["place e5 E", "place e5 S", "place e5 W", "place e5 N"] {
        assert!(moves.contains(&mv(m)), "{m}");
    }
}

#[test]
fn one_horizontal_domino_leaves_32_placements() {
    let mut g = Game::new(&Options::default(), 2).unwrap();
    let mut rng = GameRng::from_seed(2);
    play(&mut g, "take 1");
    play(&mut g, "place e5 E");
    finish_turn(&mut g);
    others_until(&mut g, Seat(0), &mut rng);
    play(&mut g, "take 1");
    assert_eq!(legal(&g).len(), 32);
}

/// Every placement of the current stage (2–4) by plain loops: both cells inside the stage grid
/// and free of this stage's blocks.
fn brute_force_upper(g: &Game) -> Vec<Move> {
    let p = g.player(g.current()).pyramid();
    let grid = StageGrid::new(p.frame().unwrap(), p.stage());
    let taken: Vec<(u8, u8)> = p
        .blocks()
        .iter()
        .filter(|b| b.stage == p.stage())
        .map(|b| (b.x, b.y))
        .collect();
    let mut out = Vec::new();
    for y in 0..grid.height {
        for x in 0..grid.width {
            for dir in Dir::ALL {
                let (dx, dy) = dir.delta();
                let (bx, by) = (x as i32 + dx, y as i32 + dy);
                if bx < 0 || by < 0 || bx >= grid.width as i32 || by >= grid.height as i32 {
                    continue;
                }
                if taken.contains(&(x, y)) || taken.contains(&(bx as u8, by as u8)) {
                    continue;
                }
                out.push(Move::Place(Placement::new(x, y, dir)));
            }
        }
    }
    out
}

fn same_set(mut a: Vec<Move>, mut b: Vec<Move>) {
    a.sort_by_key(|m| m.to_string());
    b.sort_by_key(|m| m.to_string());
    assert_eq!(a, b);
}

#[test]
fn stage_two_with_one_domino_placed() {
    let mut g = Game::new(&Options::default(), 3).unwrap();
    let mut rng = GameRng::from_seed(3);
    let mut buf = Vec::new();
    // Safe play to the first placement of stage 2.
    while !(g.stage() == 1 && g.phase() == Phase::Place) {
        let m = safe_move(&g, &mut rng, &mut buf);
        g.play(&m).unwrap();
    }
    let seat = g.current();
    // Empty 4×3 (or 3×4) grid: 17 slots, both block orders.
    assert_eq!(legal(&g).len(), 34);
    same_set(legal(&g), brute_force_upper(&g));
    play(&mut g, "place a1 E");
    finish_turn(&mut g);
    others_until(&mut g, seat, &mut rng);
    play(&mut g, "take 3");
    // a1–b1 blocks two horizontal slots of row 1 and the vertical slots under a1 and b1:
    // 17 − 4 = 13 slots.
    assert_eq!(legal(&g).len(), 26);
    same_set(legal(&g), brute_force_upper(&g));
}

#[test]
fn upper_stage_placements_match_brute_force_in_many_games() {
    let mut checked = 0;
    for seed in 0..30 {
        let mut g = Game::new(&Options::players(2 + (seed % 3) as u8), seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        let mut buf = Vec::new();
        while g.to_move() != ToMove::Over {
            if g.phase() == Phase::Place && g.stage() > 0 {
                same_set(legal(&g), brute_force_upper(&g));
                checked += 1;
            }
            let m = careful_move(&g, &mut rng, &mut buf);
            g.play(&m).unwrap();
        }
    }
    assert!(checked > 300, "{checked}");
}

// ----- markers and resurfacing ----------------------------------------------------------------

#[test]
fn markers_choices_skips_and_resurfacing() {
    // 78: red sw | red ne. 85: red (blank) | red nw se. 0: brown sw | brown ne. 1: blue nw | brown sw.
    let mut g = Game::from_deck(&Options::default(), &deck_with([78, 85, 1])).unwrap();
    play(&mut g, "take 1");
    play(&mut g, "place e5 E");
    // Two eligible blocks of one colour: the player chooses (it matters for resurfacing).
    assert_eq!(g.phase(), Phase::Mark);
    same_set(legal(&g), vec![mv("mark A"), mv("mark B")]);
    play(&mut g, "mark B");
    assert_eq!(g.player(Seat(0)).markers()[RED as usize], Some(1));
    // Resurfacing: only the unmarked block; the card is marked in the same turn (a second
    // marker on this domino).
    assert_eq!(g.phase(), Phase::Resurface);
    assert_eq!(
        legal(&g).len(),
        1 + 3 * 2 * 4,
        "pass, or block A with 3 cards × 2 sides × 4 quadrants"
    );
    refused(&g, mv("resurface B green se"), "block_marked");
    play(&mut g, "resurface A green se");
    let p0 = g.player(Seat(0));
    assert_eq!(p0.markers()[GREEN as usize], Some(0));
    assert_eq!(p0.cards()[2], Some(0));
    assert_eq!(p0.pyramid().blocks()[0].block.colour, GREEN);
    assert_eq!(p0.pyramid().blocks()[0].block.icons, 8);
    // Refill the slot from either pile next to it.
    assert_eq!(g.phase(), Phase::Refill);
    same_set(legal(&g), vec![mv("refill 1"), mv("refill 2")]);
    play(&mut g, "refill 2");

    // Seat 1 takes domino 1: two eligible blocks of different colours.
    play(&mut g, "take 3");
    play(&mut g, "place e5 E");
    assert_eq!(g.phase(), Phase::Mark);
    play(&mut g, "mark B");
    let p1 = g.player(Seat(1));
    assert_eq!(p1.markers()[BROWN as usize], Some(1));
    assert_eq!(p1.markers()[BLUE as usize], None);
    play(&mut g, "pass");
    play(&mut g, "refill 4");

    // Seat 0 takes 85: its only jewels are red and the red marker is placed: no marker.
    play(&mut g, "take 2");
    play(&mut g, "place e6 E");
    assert_eq!(g.phase(), Phase::Resurface, "the marker step is skipped");
    let markers = *g.player(Seat(0)).markers();
    assert_eq!(markers.iter().flatten().count(), 2);
    refused(&g, mv("resurface A red nw"), "card_already_used");
    // The card's blue side is marked with the free blue marker.
    play(&mut g, "resurface A blue nw");
    assert_eq!(g.player(Seat(0)).markers()[BLUE as usize], Some(2));
    assert_eq!(g.player(Seat(0)).unused_cards(), 1);
}

#[test]
fn a_single_marker_option_is_applied_and_none_skips() {
    // 4: yellow nw | brown ne (two colours, one option each): both free → choice.
    // 2: blue nw sw | brown (blank): a single option → applied at once.
    let mut g = Game::from_deck(&Options::default(), &deck_with([2, 4, 5])).unwrap();
    play(&mut g, "take 1");
    play(&mut g, "place e5 E");
    assert_eq!(g.phase(), Phase::Resurface);
    assert_eq!(g.player(Seat(0)).markers()[BLUE as usize], Some(0));
    // Block A carries the marker: only B may be resurfaced.
    assert!(
        legal(&g)
            .iter()
            .all(|m| !matches!(m, Move::Resurface { side: Side::A, .. }))
    );
}

#[test]
fn no_resurfacing_step_without_cards() {
    let mut g = Game::from_deck(&Options::default(), &deck_with([78, 85, 11])).unwrap();
    let mut rng = GameRng::from_seed(5);
    for turn in 0..4 {
        play(&mut g, "take 1");
        let m = legal(&g)[0];
        g.play(&m).unwrap();
        if g.phase() == Phase::Mark {
            play(&mut g, "mark A");
        }
        if turn < 3 {
            assert_eq!(g.phase(), Phase::Resurface);
            let m = *legal(&g)
                .iter()
                .find(|m| matches!(m, Move::Resurface { .. }))
                .unwrap();
            g.play(&m).unwrap();
        } else {
            assert_eq!(
                g.phase(),
                Phase::Refill,
                "no card left: the resurfacing step is skipped"
            );
        }
        finish_turn(&mut g);
        others_until(&mut g, Seat(0), &mut rng);
    }
    assert_eq!(g.player(Seat(0)).unused_cards(), 0);
}

// ----- holes, cards and elimination -----------------------------------------------------------

/// Nine dominoes filling the frame e5–i8 except the corners i5 and e8.
const HOLEY: [&str; 9] = [
    "place e5 E",
    "place g5 E",
    "place e6 S",
    "place f6 S",
    "place g6 S",
    "place h6 S",
    "place i6 S",
    "place f8 E",
    "place h8 E",
];

/// Seat 0 builds `HOLEY`, resurfacing on its first `spend` turns; the others play safely.
fn build_holey(players: u8, spend: usize) -> Game {
    let mut g = Game::new(&Options::players(players), 77).unwrap();
    let mut rng = GameRng::from_seed(77);
    for (turn, place) in HOLEY.iter().enumerate() {
        assert_eq!((g.current(), g.phase()), (Seat(0), Phase::Take));
        play(&mut g, "take 1");
        play(&mut g, place);
        if g.phase() == Phase::Mark {
            play(&mut g, "mark A");
        }
        if turn < spend {
            let m = *legal(&g)
                .iter()
                .find(|m| matches!(m, Move::Resurface { .. }))
                .unwrap();
            g.play(&m).unwrap();
        }
        finish_turn(&mut g);
        if turn + 1 < HOLEY.len() {
            others_until(&mut g, Seat(0), &mut rng);
        }
    }
    g
}

#[test]
fn holes_are_covered_with_cards() {
    let mut g = build_holey(2, 0);
    assert_eq!((g.current(), g.phase()), (Seat(0), Phase::Cover));
    assert_eq!(g.holes(), &[(8, 4), (4, 7)]);
    assert_eq!(legal(&g).len(), 3 * 2 * 4);
    refused(&g, mv("cover e8 red se"), "wrong_hole");
    let markers = *g.player(Seat(0)).markers();
    play(&mut g, "cover i5 red se");
    refused(&g, mv("cover e8 green nw"), "card_already_used");
    play(&mut g, "cover e8 blue nw");
    let p = g.player(Seat(0));
    assert_eq!(p.status(), Status::Done);
    assert_eq!(p.unused_cards(), 1);
    assert_eq!(p.pyramid().blocks().len(), 20);
    let cards: Vec<_> = p.pyramid().blocks()[18..]
        .iter()
        .map(|b| (b.x, b.y, b.block.colour, b.block.icons))
        .collect();
    assert_eq!(cards, vec![(8, 4, RED, 8), (4, 7, BLUE, 1)]);
    // No marker goes on a hole card.
    assert_eq!(p.markers(), &markers);
    assert_eq!(g.current(), Seat(1));
    // Seat 0 waits for the others; the stage then ends and seat 0 goes on to stage 2.
    let mut rng = GameRng::from_seed(1);
    let mut buf = Vec::new();
    while g.stage() == 0 {
        assert_ne!(g.current(), Seat(0));
        let m = safe_move(&g, &mut rng, &mut buf);
        g.play(&m).unwrap();
    }
    assert_eq!(g.player(Seat(0)).scores().len(), 1);
    assert_eq!(g.player(Seat(0)).pyramid().stage(), 1);
}

#[test]
fn a_player_without_enough_cards_is_eliminated() {
    // Two players: the other one wins at once.
    let g = build_holey(2, 2);
    assert_eq!(g.player(Seat(0)).status(), Status::Eliminated);
    assert_eq!(g.to_move(), ToMove::Over);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.ranks, vec![1, 0]);
    refused(&g, mv("take 1"), "game_over");
}

#[test]
fn an_eliminated_player_is_skipped_and_ranked_last() {
    let mut g = build_holey(3, 2);
    assert_eq!(g.player(Seat(0)).status(), Status::Eliminated);
    assert_eq!(g.current(), Seat(1));
    let mut rng = GameRng::from_seed(9);
    let mut buf = Vec::new();
    while let ToMove::Seat(s) = g.to_move() {
        assert_ne!(s, Seat(0));
        let m = safe_move(&g, &mut rng, &mut buf);
        g.play(&m).unwrap();
    }
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.ranks[0], 2);
    assert_eq!(g.player(Seat(1)).scores().len(), 4);
}

// ----- the market -------------------------------------------------------------------------------

#[test]
fn setup_deals_a_quarry_and_four_face_up_piles() {
    let g = Game::from_deck(&Options::players(4), &deck_with([10, 20, 30])).unwrap();
    assert_eq!(g.quarry(), [Some(10), Some(20), Some(30)]);
    let sizes: Vec<usize> = (0..4).map(|p| g.pile_size(p)).collect();
    assert_eq!(sizes, vec![22, 22, 22, 21]);
    let deck = deck_with([10, 20, 30]);
    let tops: Vec<Option<u8>> = (0..4).map(|p| g.pile_top(p)).collect();
    assert_eq!(
        tops,
        vec![
            Some(deck[24]),
            Some(deck[46]),
            Some(deck[68]),
            Some(deck[89])
        ]
    );
    assert!(Game::from_deck(&Options::players(5), &deck).is_err());
    assert!(Game::from_deck(&Options::players(1), &deck).is_err());
    assert!(Game::from_deck(&Options::players(2), &deck[1..]).is_err());
}

#[test]
fn an_empty_pile_takes_the_bottom_half_of_the_largest() {
    let deck = deck_with([10, 20, 30]);
    let mut g = Game::from_deck(&Options::players(4), &deck).unwrap();
    let mut rng = GameRng::from_seed(4);
    let mut buf = Vec::new();
    let mut refills = 0;
    // Everyone takes slot 1 and refills it from pile 1.
    while refills < 22 {
        let m = match g.phase() {
            Phase::Take => mv("take 1"),
            Phase::Refill => {
                refills += 1;
                mv("refill 1")
            }
            Phase::Resurface => mv("pass"),
            _ => safe_move(&g, &mut rng, &mut buf),
        };
        let top = g.pile_top(0);
        g.play(&m).unwrap();
        if m == mv("refill 1") {
            assert_eq!(g.quarry()[0], top, "the quarry gets the pile's top");
        }
    }
    // Pile 1 ran out: piles 2 and 3 were the largest (22); the leftmost gave its bottom half.
    let sizes: Vec<usize> = (0..4).map(|p| g.pile_size(p)).collect();
    assert_eq!(sizes, vec![11, 11, 22, 21]);
    assert_eq!(g.pile_top(0), Some(deck[25 + 10]));
    assert_eq!(g.pile_top(1), Some(deck[46]));
}

// ----- illegal moves ------------------------------------------------------------------------

#[test]
fn every_illegal_move_kind_has_its_code() {
    let mut g = Game::from_deck(&Options::default(), &deck_with([78, 85, 1])).unwrap();
    // First placement: block A on e5.
    play(&mut g, "take 1");
    refused(&g, mv("place a1 E"), "first_domino_not_at_start");
    refused(&g, mv("take 2"), "wrong_step");
    let mut g2 = Game::new(&Options::default(), 0).unwrap();
    refused(&g2, Move::Take(3), "no_such_quarry_slot");
    refused(&g2, mv("mark A"), "wrong_step");
    refused(&g2, mv("pass"), "wrong_step");
    refused(&g2, mv("refill 1"), "wrong_step");
    play(&mut g2, "take 1");
    refused(&g2, mv("place i9 E"), "off_board");
    refused(&g2, mv("place a1 N"), "off_board");

    play(&mut g, "place e5 E");
    play(&mut g, "mark B");
    refused(&g, mv("resurface B red se"), "block_marked");
    refused(
        &g,
        Move::Resurface {
            side: Side::A,
            colour: 6,
            quadrant: 0,
        },
        "unknown_colour",
    );
    refused(
        &g,
        Move::Resurface {
            side: Side::A,
            colour: 0,
            quadrant: 4,
        },
        "bad_quadrant",
    );
    play(&mut g, "resurface A green se");
    refused(&g, mv("refill 3"), "pile_not_adjacent");
    refused(&g, Move::Refill(4), "no_such_pile");
    play(&mut g, "refill 1");
    play(&mut g, "take 1");
    play(&mut g, "place e5 S");
    finish_turn(&mut g);
    play(&mut g, "take 1");
    refused(&g, mv("place f5 S"), "slot_occupied");
    refused(&g, mv("place e7 E"), "not_connected");
    play(&mut g, "place g5 E");
    finish_turn(&mut g);
    play(&mut g, "take 1");
    play(&mut g, "place f5 S");
    finish_turn(&mut g);
    play(&mut g, "take 1");
    // e5–h5 is four wide: c5–d5 would make it six.
    refused(&g, mv("place c5 E"), "outside_frame");
    refused(&g, mv("resurface A red se"), "wrong_step");
    // card_already_used, wrong_hole and game_over: see the resurfacing, hole and elimination
    // tests; empty_quarry_slot and empty_pile cannot arise in play (unit tests in game.rs).
}

#[test]
fn error_codes_are_distinct() {
    use pyramidion_pyramid::PlacementError;
    let errors = [
        IllegalMove::GameOver,
        IllegalMove::WrongStep { expected: "x" },
        IllegalMove::NoSuchSlot(3),
        IllegalMove::EmptySlot(0),
        IllegalMove::Placement(PlacementError::OffBoard),
        IllegalMove::Placement(PlacementError::Occupied),
        IllegalMove::Placement(PlacementError::NotConnected),
        IllegalMove::Placement(PlacementError::OutsideFrame),
        IllegalMove::Placement(PlacementError::FirstNotAtStart),
        IllegalMove::BlockMarked(Side::A),
        IllegalMove::UnknownColour(6),
        IllegalMove::BadQuadrant(4),
        IllegalMove::CardUsed(0),
        IllegalMove::NoSuchPile(4),
        IllegalMove::PileNotAdjacent(3),
        IllegalMove::EmptyPile(0),
        IllegalMove::WrongHole { expected: (0, 0) },
    ];
    let mut codes: Vec<&str> = errors.iter().map(|e| e.code()).collect();
    assert!(
        codes
            .iter()
            .all(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'))
    );
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), errors.len());
}

// ----- views and hidden information ------------------------------------------------------------

#[test]
fn views_show_pile_tops_and_sizes_only() {
    let g = Game::from_deck(&Options::players(3), &deck_with([10, 20, 30])).unwrap();
    let deck = deck_with([10, 20, 30]);
    let json = serde_json::to_value(g.view(Some(Seat(1)))).unwrap();
    assert_eq!(json["piles"][0]["size"], 22);
    assert_eq!(json["piles"][0]["top"]["id"], deck[24]);
    assert_eq!(json["quarry"][1]["id"], 20);
    assert_eq!(json["phase"], "take");
    let ids = g.view(None).domino_ids();
    assert_eq!(ids.len(), 3 + 4);
    // Every seat and spectators see the same.
    let mut spectator = g.view(None);
    spectator.seat = Some(Seat(1));
    assert_eq!(spectator, g.view(Some(Seat(1))));
}

#[test]
fn determinize_reshuffles_what_is_hidden_only() {
    let g = Game::new(&Options::players(3), 12).unwrap();
    let mut rng = GameRng::from_seed(1);
    let d = g.determinize(Seat(2), &mut rng);
    assert_ne!(d, g, "the hidden order changed");
    assert_eq!(d.view(Some(Seat(2))), g.view(Some(Seat(2))));
    for p in 0..4 {
        assert_eq!(
            (d.pile_top(p), d.pile_size(p)),
            (g.pile_top(p), g.pile_size(p))
        );
    }
    // Games that differ only below the pile tops look the same.
    let mut deck: Vec<u8> = (0..90).collect();
    let a = Game::from_deck(&Options::default(), &deck).unwrap();
    deck.swap(3, 4);
    let b = Game::from_deck(&Options::default(), &deck).unwrap();
    assert_ne!(a, b);
    assert_eq!(a.view(Some(Seat(0))), b.view(Some(Seat(0))));
}

#[test]
fn the_view_explains_the_current_step() {
    let mut g = Game::from_deck(&Options::default(), &deck_with([78, 85, 1])).unwrap();
    play(&mut g, "take 2");
    let v = serde_json::to_value(g.view(Some(Seat(0)))).unwrap();
    assert_eq!(v["held"]["id"], 85);
    assert_eq!(v["empty_slot"], 2);
    assert!(v["quarry"][1].is_null());
    play(&mut g, "place e5 E");
    let v = serde_json::to_value(g.view(Some(Seat(0)))).unwrap();
    assert_eq!(v["phase"], "resurface");
    assert_eq!(v["new_blocks"], serde_json::json!([0, 1]));
    assert_eq!(v["seats"][0]["blocks"][1]["marker"], true);
    assert_eq!(
        v["seats"][0]["markers_in_hand"].as_array().unwrap().len(),
        5
    );
    assert_eq!(v["seats"][0]["stage_value"], 2 + 2);
    // Domino 85 lies as in the list: red blank on e5, red nw se on f5.
    assert_eq!(dominoes()[85].blocks[1].icons, 1 | 8);
}
