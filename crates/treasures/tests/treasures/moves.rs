//! Placement counts and every illegal move kind (refused with its own code, state unchanged).
use pyramidion_core::{ErrorCode, GameRng, Rules, Seat, ToMove};
use pyramidion_testkit::Simulate;
use pyramidion_treasures::state::Phase;
use pyramidion_treasures::{Game, Gem, Gems, Move, Options, Payment, SeatSetup};

fn legal(g: &Game) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v
}

fn play(g: &mut Game, text: &str) {
    let m: Move = text.parse().unwrap();
    g.play(&m).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// Plays the first legal move until `phase`.
fn advance_to(g: &mut Game, phase: Phase) {
    while g.phase() != phase {
        let m = legal(g)[0];
        g.play(&m).unwrap();
    }
}

fn refused(g: &mut Game, text: &str, code: &str) {
    let before = g.clone();
    let m: Move = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let err = g.play(&m).expect_err(text);
    assert_eq!(err.code(), code, "{text}: {err}");
    assert_eq!(*g, before, "{text}: state changed");
}

#[test]
fn stage_one_placement_counts() {
    let mut g = Game::new(&Options::multiplayer(2), 3).unwrap();
    advance_to(&mut g, Phase::Place);
    assert_eq!(legal(&g).len(), 4, "empty stage 1");
    play(&mut g, "place e5 E");
    advance_to(&mut g, Phase::Place);
    assert_eq!(legal(&g).len(), 4, "second player, empty stage 1");
    play(&mut g, "place e5 S");
    advance_to(&mut g, Phase::Place);
    assert_eq!(g.current(), Seat(0));
    assert_eq!(legal(&g).len(), 32, "after one horizontal domino");
}

/// On thousands of random games: the first placement of every stage 2, 3, 4 offers
/// 17, 7, 1 slots (each in both block orders).
#[test]
fn empty_upper_stages_offer_17_7_1_slots() {
    let mut seen = [0u32; 3];
    for seed in 0..300 {
        let players = 1 + (seed % 4) as u8;
        let options = if players == 1 {
            Options::solo(pyramidion_treasures::SoloMode::ALegend)
        } else {
            Options::multiplayer(players)
        };
        let mut g = Game::new(&options, seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        while let ToMove::Seat(s) = g.to_move() {
            let moves = legal(&g);
            if g.phase() == Phase::Place {
                let p = g.player(s).pyramid();
                if p.stage() > 0 && p.dominoes_on_stage() == 0 {
                    let stage = p.stage() as usize;
                    assert_eq!(
                        moves.len(),
                        [34, 14, 2][stage - 1],
                        "seed {seed} stage {}",
                        stage + 1
                    );
                    seen[stage - 1] += 1;
                }
            }
            let m = moves[rng.below(moves.len() as u32) as usize];
            g.play(&m).unwrap();
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

#[test]
fn turn_moves_are_refused_with_their_codes() {
    let mut g = Game::new(&Options::multiplayer(2), 5).unwrap();
    assert_eq!(g.phase(), Phase::Take);
    refused(&mut g, "flip 2", "wrong_phase");
    refused(&mut g, "place e5 E", "wrong_phase");
    refused(&mut g, "done", "wrong_phase");
    refused(&mut g, "take 6 red", "no_such_space");
    refused(&mut g, "take 2 red", "space_face_down");
    let area = g.gem_areas()[0];
    let missing = Gem::ALL
        .into_iter()
        .find(|&gem| area.get(gem) == 0)
        .unwrap();
    refused(&mut g, &format!("take 1 {missing}"), "gem_not_available");
    refused(&mut g, "take 1", "gem_required");
    let present = area.kinds().next().unwrap();
    play(&mut g, &format!("take 1 {present}"));
    assert_eq!(g.phase(), Phase::Flip);
    refused(&mut g, "flip 3", "pile_not_flippable");
    refused(&mut g, "flip 7", "no_such_space");
    refused(&mut g, "take 3 red", "wrong_phase");
    play(&mut g, "flip 2");
    refused(&mut g, "place a1 E", "first_domino_not_at_start");
    refused(&mut g, "place i5 E", "off_board");
    refused(&mut g, "place e1 N", "off_board");
    play(&mut g, "place e5 E");
    advance_to(&mut g, Phase::Place);
    play(&mut g, "place e5 E");
    advance_to(&mut g, Phase::Place);
    refused(&mut g, "place e5 S", "slot_occupied");
    refused(&mut g, "place a1 E", "not_connected");
    play(&mut g, "place g5 E");
    advance_to(&mut g, Phase::Place);
    advance_to(&mut g, Phase::Take);
    advance_to(&mut g, Phase::Place);
    assert_eq!(g.current(), Seat(0));
    // Seat 0 spans e–h on row 5: a domino reaching column c would make it 6 wide.
    refused(&mut g, "place c5 E", "outside_frame");
}

#[test]
fn scoring_moves_are_refused_with_their_codes() {
    let mut pyramid = pyramidion_pyramid::Pyramid::default();
    let block = |colour, icons| pyramidion_pyramid::Block { colour, icons };
    pyramid.place(&"e5 E".parse().unwrap(), [block(0, 0b11), block(1, 0b1)]);
    let mut gems = Gems::default();
    gems.add(Gem::Orange, 1);
    gems.add(Gem::Red, 6);
    let seat = SeatSetup {
        pyramid,
        gems,
        ..Default::default()
    };
    let mut g = Game::constructed_stage_end(
        &Options::multiplayer(2),
        0,
        0,
        vec![seat, SeatSetup::default()],
        Gems::default(),
    )
    .unwrap();
    let orange = g
        .scoring()
        .unwrap()
        .areas()
        .iter()
        .find(|a| a.colour == 0)
        .unwrap()
        .anchor;
    let blue = g
        .scoring()
        .unwrap()
        .areas()
        .iter()
        .find(|a| a.colour == 1)
        .unwrap()
        .anchor;
    let name = pyramidion_pyramid::topview::area_name;
    refused(&mut g, "activate j10 1c", "unknown_area");
    refused(
        &mut g,
        &format!("activate {} 1c", name(blue)),
        "insufficient_gems",
    );
    refused(
        &mut g,
        &format!("activate {} 3c", name(orange)),
        "insufficient_gems",
    );
    refused(
        &mut g,
        &format!("activate {} 2m", name(orange)),
        "insufficient_gems",
    );
    refused(&mut g, "discard red", "wrong_phase");
    play(&mut g, &format!("activate {} 1c", name(orange)));
    refused(
        &mut g,
        &format!("activate {} 1c", name(orange)),
        "area_already_activated",
    );
    play(&mut g, "done");
    assert_eq!(g.player(Seat(0)).stage_scores()[0], 2);
    // 6 red gems left: discard down to 5.
    assert_eq!(g.phase(), Phase::Discard);
    refused(&mut g, "discard blue", "gem_not_in_inventory");
    refused(&mut g, "done", "wrong_phase");
    play(&mut g, "discard red");
    assert_eq!(g.current(), Seat(1));
    assert_eq!(g.phase(), Phase::Activate);
    let _ = Payment::C1;
}

#[test]
fn moves_after_the_end_are_refused() {
    let mut g = Game::new(&Options::multiplayer(2), 9).unwrap();
    let mut rng = GameRng::from_seed(1);
    while let ToMove::Seat(_) = g.to_move() {
        let moves = legal(&g);
        g.play(&moves[rng.below(moves.len() as u32) as usize])
            .unwrap();
    }
    refused(&mut g, "done", "game_over");
    refused(&mut g, "take 1 red", "game_over");
    assert!(g.check_invariants().is_ok());
}

/// `pick_legal_move` (what random playouts use) finds exactly the move of `legal_moves` at
/// the index it is given, and is told the number of legal moves, at every position of random
/// games of every player count.
#[test]
fn picking_by_index_matches_the_move_list() {
    let mut rng = GameRng::from_seed(17);
    let mut scratch = Vec::new();
    for seed in 0..400 {
        let players = 1 + (seed % 4) as u8;
        let options = if players == 1 {
            Options::solo(pyramidion_treasures::SoloMode::TheLegend)
        } else {
            Options::multiplayer(players)
        };
        let mut g = Game::new(&options, seed).unwrap();
        loop {
            let moves = legal(&g);
            for (i, &m) in moves.iter().enumerate() {
                let picked = g.pick_legal_move(&mut scratch, |n| {
                    assert_eq!(n, moves.len(), "seed {seed}, ply {}", g.ply());
                    i
                });
                assert_eq!(picked, Some(m), "seed {seed}, ply {}, move {i}", g.ply());
            }
            let chosen = g.pick_legal_move(&mut scratch, |n| rng.below(n as u32) as usize);
            let Some(m) = chosen else {
                assert!(moves.is_empty());
                break;
            };
            g.play(&m).unwrap();
        }
        assert!(matches!(g.to_move(), ToMove::Over));
    }
}
