//! The platform's view vocabulary, checked for every registered game (a new one included):
//! whatever a game draws on its board, its view starts with the envelope the browser's shell
//! reads in every game (`web/js/envelope.js`: the status line, the scoring pad, the score
//! line under each board and the result panel), and the envelope agrees with the rules.
//! Random games, every player count, a view for a spectator and for the seat to move after
//! every move.
use pyramidion_core::{GameRng, ToMove};
use pyramidion_games::{AnyGame, GameKind};
use serde_json::{Value, json};

/// What the envelope of `view` must say of `game`; `at` names the position in a failure.
fn check_envelope(game: &AnyGame, view: &Value, at: &str) {
    for key in [
        "seats",
        "to_move",
        "phase",
        "stage",
        "stages",
        "first_player",
        "outcome",
    ] {
        assert!(view.get(key).is_some(), "{at}: the view has no `{key}`");
    }
    let seats = view["seats"].as_array().expect("`seats` is an array");
    assert_eq!(
        seats.len(),
        usize::from(game.seats()),
        "{at}: one entry per seat"
    );
    let to_move = match game.to_move() {
        ToMove::Seat(s) => json!(s.0),
        ToMove::Over => Value::Null,
    };
    assert_eq!(view["to_move"], to_move, "{at}: `to_move`");
    let phase = view["phase"].as_str().expect("`phase` is a name");
    assert!(!phase.is_empty(), "{at}: `phase`");
    assert_eq!(
        phase == "over",
        game.outcome().is_some(),
        "{at}: phase `{phase}` and the outcome"
    );
    let stages = view["stages"].as_u64().expect("`stages` is a number");
    let stage = view["stage"].as_u64().expect("`stage` is a number");
    assert!(
        (1..=stages).contains(&stage),
        "{at}: stage {stage} of {stages}"
    );
    let first = view["first_player"]
        .as_u64()
        .expect("`first_player` is a seat");
    assert!(
        first < u64::from(game.seats()),
        "{at}: first player {first}"
    );
    let outcome = serde_json::to_value(game.outcome()).unwrap();
    assert_eq!(view["outcome"], outcome, "{at}: `outcome`");
    for (i, entry) in seats.iter().enumerate() {
        assert_eq!(entry["seat"], json!(i), "{at}: seat {i}'s entry names it");
        let score = entry["score"]
            .as_i64()
            .expect("a seat's `score` is a number");
        if let Some(scores) = outcome["scores"].as_array() {
            assert_eq!(
                json!(score),
                scores[i],
                "{at}: seat {i}'s score and the outcome"
            );
        }
        if let Some(points) = entry.get("stage_points") {
            check_stage_points(points, score, stages, &format!("{at}, seat {i}"));
        }
    }
    if let Some(automa) = view.get("automa").filter(|a| !a.is_null()) {
        assert!(automa["name"].is_string(), "{at}: the automa's `name`");
        let score = automa["score"].as_i64().expect("the automa's `score`");
        if let Some(points) = automa.get("stage_points") {
            check_stage_points(points, score, stages, &format!("{at}, automa"));
        }
    }
}

/// A stage's points show once that stage is scored (`null` before), and the points shown add
/// up to the total beside them: a total that counts a stage the pad still shows as `–` is
/// what a player saw at Forgotten Treasures' stage ends.
fn check_stage_points(points: &Value, score: i64, stages: u64, at: &str) {
    let points = points.as_array().expect("`stage_points` is an array");
    assert_eq!(points.len() as u64, stages, "{at}: one entry per stage");
    let shown: i64 = points.iter().filter_map(Value::as_i64).sum();
    assert_eq!(
        shown, score,
        "{at}: stage points {points:?} against a total of {score}"
    );
    let scored = points.iter().take_while(|p| !p.is_null()).count();
    assert!(
        points[scored..].iter().all(Value::is_null),
        "{at}: a stage shown as unscored before a scored one: {points:?}"
    );
}

#[test]
fn every_games_view_starts_with_the_platforms_envelope() {
    // The envelope is structural: a dozen random games of each size reach every phase.
    let seeds = 12;
    for &kind in GameKind::ALL {
        let d = kind.descriptor();
        for players in d.seats.min.max(2)..=d.seats.max {
            for seed in 0..seeds {
                let options = json!({ "players": players });
                let mut game = AnyGame::new(kind, &options, seed).unwrap();
                let mut rng = GameRng::from_seed(seed ^ 0xe4e1);
                loop {
                    let at = format!(
                        "{} {players} players, seed {seed}, ply {}",
                        d.key,
                        game.ply()
                    );
                    check_envelope(&game, &game.view(None), &at);
                    let ToMove::Seat(seat) = game.to_move() else {
                        break;
                    };
                    check_envelope(&game, &game.view(Some(seat)), &at);
                    let legal = game.legal_texts();
                    let text = &legal[rng.below(legal.len() as u32) as usize];
                    game.play_text(text).unwrap();
                }
            }
        }
    }
}
