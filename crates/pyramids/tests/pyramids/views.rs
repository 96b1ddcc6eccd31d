//! No view a seat can receive contains another seat's hand or tomb, or the deck; what a seat
//! may see is there; determinisation keeps what the seat sees and resamples the rest.
use pyramidion_core::{GameRng, Rules, Seat, ToMove};
use pyramidion_pyramids::data::CardId;
use pyramidion_pyramids::{Game, Options, Phase};
use std::collections::BTreeSet;

/// Every id under a "card" key, found by walking the JSON (independently of the crate's own
/// harness check, which scans the text).
fn ids(value: &serde_json::Value, out: &mut Vec<u64>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v.as_u64()) {
                    ("card", Some(id)) => out.push(id),
                    _ => ids(v, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| ids(v, out)),
        _ => {}
    }
}

fn shown(game: &Game, seat: Option<Seat>) -> (serde_json::Value, BTreeSet<u64>) {
    let json = serde_json::to_value(game.view(seat)).unwrap();
    let mut out = Vec::new();
    // The takes and discards of each seat repeat cards shown where they went: each card is
    // shown once elsewhere.
    let mut rest = json.clone();
    for table in rest["seats"].as_array_mut().unwrap() {
        table["took"].take();
        table["discarded"].take();
    }
    ids(&rest, &mut out);
    let set: BTreeSet<u64> = out.iter().copied().collect();
    assert_eq!(set.len(), out.len(), "a card shown twice");
    let mut all = Vec::new();
    ids(&json, &mut all);
    (json, all.into_iter().collect())
}

/// What an observer with perfect memory saw at the table (RULES.md, "What each seat may
/// see"): per seat, the pair it took this round and the cards it discarded face up at the
/// latest round end. Kept by watching the spectator's quarry and discard pile, not read from
/// the engine's records.
#[derive(Default)]
struct Memory {
    round: u8,
    took: Vec<BTreeSet<u64>>,
    discarded: Vec<BTreeSet<u64>>,
}

impl Memory {
    fn new(players: u8) -> Memory {
        Memory {
            round: 1,
            took: vec![BTreeSet::new(); players as usize],
            discarded: vec![BTreeSet::new(); players as usize],
        }
    }

    /// Plays `m` on `game` and remembers what everyone saw happen.
    fn play(&mut self, game: &mut Game, m: &pyramidion_pyramids::Move) {
        let before = game.view(None);
        let mover = match game.to_move() {
            ToMove::Seat(s) => s,
            ToMove::Over => unreachable!(),
        };
        game.play(m).unwrap();
        let after = game.view(None);
        // A round's building ends: its discards start (possibly none, the next round at once).
        let built =
            after.envelope.phase == Phase::Discard || after.envelope.stage != before.envelope.stage;
        if before.envelope.phase != Phase::Discard && built {
            self.discarded.iter_mut().for_each(BTreeSet::clear);
        }
        // Pairs that left the quarry this move (a builder's pick, and the last builder's pair
        // taken for them), if the round did not turn over in the same move.
        if after.envelope.stage == before.envelope.stage {
            for (b, a) in before.quarry.iter().zip(&after.quarry) {
                if let (Some(cards), None, Some(seat)) = (&b.cards, &a.cards, a.taken_by) {
                    self.took[seat.index()] = cards.iter().map(|c| u64::from(c.card)).collect();
                }
            }
        }
        let old: BTreeSet<u64> = before.discard.iter().map(|c| u64::from(c.card)).collect();
        for c in &after.discard {
            if !old.contains(&u64::from(c.card)) {
                self.discarded[mover.index()].insert(u64::from(c.card));
            }
        }
        if after.envelope.stage != self.round {
            self.round = after.envelope.stage;
            self.took.iter_mut().for_each(BTreeSet::clear);
            // The first pair of the new round may already be taken (a lone God tile is taken
            // at once, but pairs never are): nothing to remember yet.
        }
    }
}

/// The cards `seat` must not see, computed from the state's accessors and what everyone saw.
fn hidden_from(game: &Game, seat: Option<Seat>, memory: &Memory) -> BTreeSet<u64> {
    let mut all: BTreeSet<u64> = (0..105).collect();
    for seen in memory.took.iter().chain(&memory.discarded) {
        for id in seen {
            all.remove(id);
        }
    }
    let visible = |id: &CardId| u64::from(*id);
    for id in game.quarry().flatten().flatten() {
        all.remove(&visible(&id));
    }
    for id in game.discarded() {
        all.remove(&u64::from(id));
    }
    for s in 0..game.seats() {
        let nec = game.necropolis(Seat(s));
        for id in nec
            .pyramid
            .cards()
            .chain(nec.obelisk.cards().iter().copied())
        {
            all.remove(&u64::from(id));
        }
        if seat == Some(Seat(s)) || game.phase() == Phase::Over {
            for id in nec.tomb.cards() {
                all.remove(&u64::from(*id));
            }
        }
        if seat == Some(Seat(s)) {
            for id in game.hand(Seat(s)) {
                all.remove(&u64::from(*id));
            }
        }
    }
    all
}

#[test]
fn views_hide_hands_tombs_and_deck() {
    let mut rng = GameRng::from_seed(21);
    let mut moves = Vec::new();
    for players in 2..=5u8 {
        for seed in 0..4 {
            let mut game = Game::new(&Options { players }, seed).unwrap();
            let mut memory = Memory::new(players);
            loop {
                for viewer in (0..players).map(|s| Some(Seat(s))).chain([None]) {
                    let (json, shown) = shown(&game, viewer);
                    let hidden = hidden_from(&game, viewer, &memory);
                    assert!(
                        shown.is_disjoint(&hidden),
                        "{viewer:?} sees {:?}",
                        shown.intersection(&hidden).collect::<Vec<_>>()
                    );
                    assert_eq!(
                        shown.len() + hidden.len(),
                        105,
                        "everything visible is shown"
                    );
                    let text = json.to_string();
                    assert!(
                        !text.contains("\"deck\"")
                            && !text.contains("\"rng\"")
                            && !text.contains("\"seed\"")
                    );
                    for (s, table) in json["seats"].as_array().unwrap().iter().enumerate() {
                        let own = viewer == Some(Seat(s as u8));
                        assert_eq!(table["hand"].is_null(), !own);
                        assert_eq!(table["tomb"].is_null(), !own && game.phase() != Phase::Over);
                        assert_eq!(table["hand_size"], game.hand(Seat(s as u8)).len());
                        assert_eq!(table["final_score"].is_null(), game.phase() != Phase::Over);
                        assert_eq!(table["detail"].is_null(), game.phase() != Phase::Over);
                        // Counts per colour travel keyed by colour name.
                        let names = BTreeSet::from(
                            ["blue", "white", "red", "green", "yellow"].map(String::from),
                        );
                        let keys = |v: &serde_json::Value| -> BTreeSet<String> {
                            v.as_object().unwrap().keys().cloned().collect()
                        };
                        assert_eq!(keys(&table["obelisk_stages"]), names);
                        assert_eq!(keys(&table["public_score"]["pyramid"]["groups"]), names);
                        // Every seat's takes and discards, exactly as everyone saw them.
                        for (key, seen) in
                            [("took", &memory.took), ("discarded", &memory.discarded)]
                        {
                            let mut cards = Vec::new();
                            ids(&table[key], &mut cards);
                            let cards: BTreeSet<u64> = cards.into_iter().collect();
                            assert_eq!(cards, seen[s], "{key} of seat {s}");
                        }
                        if game.phase() == Phase::Over {
                            // The breakdown adds up to the score it explains.
                            let (score, detail) = (&table["final_score"], &table["detail"]);
                            let majorities = detail["tomb_majorities"].as_array().unwrap();
                            assert_eq!(score["tomb"], 5 * majorities.len() as u64);
                            let g = &detail["glyphs"];
                            let glyphs = g["pyramid"].as_u64().unwrap()
                                + g["obelisk"].as_u64().unwrap()
                                + g["tomb"].as_u64().unwrap();
                            assert_eq!(score["glyphs"], glyphs);
                            // A tie for the most stones is named, and scores nothing.
                            for tie in detail["tomb_ties"].as_array().unwrap() {
                                assert!(!majorities.contains(tie));
                                let c = tie.as_str().unwrap();
                                let own = detail["tomb_stones"][c].as_u64().unwrap();
                                let tables = json["seats"].as_array().unwrap();
                                let most = tables
                                    .iter()
                                    .map(|t| t["detail"]["tomb_stones"][c].as_u64().unwrap())
                                    .max()
                                    .unwrap();
                                assert_eq!(own, most);
                                let level = tables
                                    .iter()
                                    .filter(|t| {
                                        t["detail"]["tomb_stones"][c].as_u64().unwrap() == own
                                    })
                                    .count();
                                assert!(level >= 2);
                            }
                            // A majority is strict: nobody else has as many stones of it.
                            for m in majorities {
                                let c = m.as_str().unwrap();
                                let own = detail["tomb_stones"][c].as_u64().unwrap();
                                for other in json["seats"].as_array().unwrap() {
                                    if other["seat"] != table["seat"] {
                                        assert!(
                                            other["detail"]["tomb_stones"][c].as_u64().unwrap()
                                                < own
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
                let ToMove::Seat(_) = game.to_move() else {
                    break;
                };
                game.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u32) as usize];
                memory.play(&mut game, &m);
            }
        }
    }
}

#[test]
fn determinize_keeps_the_seat_view_and_resamples_the_rest() {
    let mut rng = GameRng::from_seed(8);
    let mut moves = Vec::new();
    let mut changed_hands = 0;
    let mut changed_tombs = 0;
    let mut changed_decks = 0;
    for players in 2..=5u8 {
        let mut game = Game::new(&Options { players }, 40 + players as u64).unwrap();
        while let ToMove::Seat(_) = game.to_move() {
            for s in 0..players {
                let me = Seat(s);
                let det = game.determinize(me, &mut rng);
                assert_eq!(
                    serde_json::to_value(det.view(Some(me))).unwrap(),
                    serde_json::to_value(game.view(Some(me))).unwrap()
                );
                assert_eq!(det.hand(me), game.hand(me));
                assert_eq!(det.necropolis(me), game.necropolis(me));
                for o in (0..players).map(Seat).filter(|&o| o != me) {
                    assert_eq!(det.hand(o).len(), game.hand(o).len());
                    assert_eq!(det.necropolis(o).tomb.len(), game.necropolis(o).tomb.len());
                    assert_eq!(det.necropolis(o).pyramid, game.necropolis(o).pyramid);
                    changed_hands += (det.hand(o) != game.hand(o)) as u32;
                    changed_tombs += (det.necropolis(o).tomb != game.necropolis(o).tomb) as u32;
                }
                // Same legal moves for the seat to move when it is `me`.
                if game.to_move() == ToMove::Seat(me) {
                    let mut a = Vec::new();
                    let mut b = Vec::new();
                    game.legal_moves(&mut a);
                    det.legal_moves(&mut b);
                    assert_eq!(a, b);
                }
                // The future differs: play the same moves and compare the next quarry.
                let mut x = game.clone();
                let mut y = det.clone();
                let round = x.round();
                let mut r2 = GameRng::from_seed(1);
                while x.round() == round && x.phase() != Phase::Over {
                    x.legal_moves(&mut moves);
                    let m = moves[r2.below(moves.len() as u32) as usize];
                    if y.play(&m).is_err() {
                        break;
                    }
                    x.play(&m).unwrap();
                }
                if x.round() != round && y.round() != round {
                    let qx: Vec<_> = x.quarry().collect();
                    let qy: Vec<_> = y.quarry().collect();
                    changed_decks += (qx != qy) as u32;
                }
            }
            game.legal_moves(&mut moves);
            game.play(&moves[rng.below(moves.len() as u32) as usize])
                .unwrap();
        }
        // At the end every tomb is public: determinising keeps them.
        let det = game.determinize(Seat(0), &mut rng);
        for o in 0..players {
            assert_eq!(det.necropolis(Seat(o)).tomb, game.necropolis(Seat(o)).tomb);
        }
        assert_eq!(det.outcome(), game.outcome());
    }
    assert!(
        changed_hands > 100 && changed_tombs > 50 && changed_decks > 50,
        "{changed_hands} {changed_tombs} {changed_decks}"
    );
}

#[test]
fn own_hand_and_tomb_are_shown_to_their_owner() {
    let mut rng = GameRng::from_seed(2);
    let mut game = Game::new(&Options { players: 3 }, 9).unwrap();
    let mut moves = Vec::new();
    while game.round() < 6 {
        game.legal_moves(&mut moves);
        game.play(&moves[rng.below(moves.len() as u32) as usize])
            .unwrap();
    }
    for s in 0..3 {
        let view = game.view(Some(Seat(s)));
        let table = &view.envelope.seats[s as usize];
        let hand: Vec<CardId> = table
            .hand
            .as_ref()
            .unwrap()
            .iter()
            .map(|c| c.card)
            .collect();
        assert_eq!(hand, game.hand(Seat(s)));
        let tomb: Vec<CardId> = table
            .tomb
            .as_ref()
            .unwrap()
            .iter()
            .map(|c| c.card)
            .collect();
        assert_eq!(tomb, game.necropolis(Seat(s)).tomb.cards());
        assert_eq!(view.deck_size as usize, game.deck_len());
    }
}

/// A seat takes a pair and buries one of its cards in its Tomb: the other seats and a
/// spectator see both cards among its takes this round, and nothing more about them: the
/// card shows once in their views (the takes), with no hand and no Tomb contents, so that the
/// views do not say which card went to the Tomb.
#[test]
fn others_see_a_seats_takes_but_not_which_card_went_to_its_tomb() {
    let mut rng = GameRng::from_seed(32);
    let mut moves = Vec::new();
    let mut checked = 0;
    for seed in 0..20 {
        let mut game = Game::new(&Options { players: 3 }, seed).unwrap();
        while let ToMove::Seat(mover) = game.to_move() {
            game.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u32) as usize];
            game.play(&m).unwrap();
            let pyramidion_pyramids::Move::Tomb(_) = m else {
                continue;
            };
            let buried = *game.necropolis(mover).tomb.cards().last().unwrap();
            let Some(pair) = game.took(mover) else {
                continue;
            };
            if !pair.contains(&buried) || game.phase() == Phase::Over {
                continue;
            }
            for viewer in (0..3)
                .map(Seat)
                .filter(|&v| v != mover)
                .map(Some)
                .chain([None])
            {
                let json = serde_json::to_value(game.view(viewer)).unwrap();
                let table = &json["seats"][mover.index()];
                let mut took = Vec::new();
                ids(&table["took"], &mut took);
                let mut want: Vec<u64> = pair.iter().map(|&c| u64::from(c)).collect();
                took.sort_unstable();
                want.sort_unstable();
                assert_eq!(took, want, "{viewer:?} sees the pair taken");
                assert!(table["hand"].is_null() && table["tomb"].is_null());
                let mut all = Vec::new();
                ids(&json, &mut all);
                for card in &want {
                    let shown = all.iter().filter(|&c| c == card).count();
                    // Once among the takes, and once more only if it is public elsewhere.
                    let public = game
                        .necropolis(mover)
                        .pyramid
                        .cards()
                        .any(|c| u64::from(c) == *card)
                        || game
                            .necropolis(mover)
                            .obelisk
                            .cards()
                            .iter()
                            .any(|&c| u64::from(c) == *card);
                    assert_eq!(shown, 1 + usize::from(public), "{viewer:?}: card {card}");
                }
                assert_eq!(table["tomb_size"], game.necropolis(mover).tomb.len());
            }
            checked += 1;
        }
    }
    assert!(checked > 10, "only {checked} buried taken cards");
}
