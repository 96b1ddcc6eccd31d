//! No move shown to a seat (or a spectator) tells it more than its view does: two moves the
//! seat cannot tell apart by the views they lead to must reach it as the same text and form.
//! (Pyramids' `tomb 2` named a hand position and so, through the known hand order, the card.)
use pyramidion_core::{GameRng, Seat, ToMove};
use pyramidion_games::{AnyGame, GameKind};
use serde_json::json;
use std::collections::HashMap;

fn check_game(kind: GameKind, players: u8, seed: u64) {
    let mut game = AnyGame::new(kind, &json!({ "players": players }), seed).unwrap();
    let mut rng = GameRng::from_seed(seed ^ 0x1ea6);
    while let ToMove::Seat(mover) = game.to_move() {
        let legal = game.legal_moves();
        let viewers: Vec<Option<Seat>> = (0..game.seats())
            .map(|s| Some(Seat(s)))
            .filter(|v| *v != Some(mover))
            .chain([None])
            .collect();
        if game.ply().is_multiple_of(3) && legal.len() > 1 {
            let outcomes: Vec<_> = legal
                .iter()
                .map(|m| {
                    let mut next = game.clone();
                    let played = next.play_text(&m.text).unwrap();
                    (next, played)
                })
                .collect();
            for viewer in &viewers {
                let mut by_view: HashMap<String, &pyramidion_games::MoveInfo> = HashMap::new();
                for (next, played) in &outcomes {
                    let over = next.outcome().is_some();
                    let seen = played.seen_by(*viewer, over);
                    // Serialised straight to text, as the server sends it (no `Value` tree:
                    // this comparison is most of the test's time).
                    let view = next.view_json(*viewer).get().to_owned();
                    if let Some(other) = by_view.insert(view, seen) {
                        assert_eq!(
                            other,
                            seen,
                            "{kind} seed {seed} ply {}: {viewer:?} can tell apart two moves \
                             with the same view",
                            game.ply()
                        );
                    }
                }
            }
        }
        let pick = rng.below(legal.len() as u32) as usize;
        let played = game.play_text(&legal[pick].text).unwrap();
        // The redacted text never names a hand position or card.
        for viewer in &viewers {
            let seen = played.seen_by(*viewer, false);
            if seen.text != played.full.text {
                assert!(seen.text.ends_with('?'), "{}", seen.text);
            }
        }
    }
}

#[test]
fn move_texts_tell_no_seat_more_than_its_view() {
    for &kind in GameKind::ALL {
        let d = kind.descriptor();
        // Hidden hands make Pyramids the game to search hardest: 2,000 games in the second
        // test tier, 200 in plain `cargo test` (the one tiering switch, `tier_games`).
        let seeds = match d.key {
            "pyramids" => pyramidion_testkit::tier_games(2000),
            _ => 6,
        };
        // The seeds are independent: spread them over the cores (the second tier's 2,000
        // Pyramids games took most of this binary's time on one).
        pyramidion_testkit::each_seed_on_every_core(seeds, |seed| {
            let players = d.seats.min.max(2) + (seed % 2) as u8;
            check_game(kind, players.min(d.seats.max), seed);
        });
    }
}
