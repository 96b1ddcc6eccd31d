//! Puzzles (issue 48 item 2): a first try moves the player's and the puzzle's Glicko-2
//! ratings, a retry moves neither, the solution is told only once tried, nothing of the
//! record leaves the server; the miner takes finished public games only, never one whose
//! player opted out, an unfinished one or a daily challenge still under its embargo.
use crate::common::after_game_scenarios::{account, play_out};
use crate::common::*;
use pyramidion_server::puzzles::seed_data::shipped;
use pyramidion_server::puzzles::store::NewPuzzle;
use serde_json::{Value, json};
use sqlx::Row;

/// The shipped puzzle `id` (what the server was seeded with: its solutions).
fn shipped_puzzle(id: &str) -> NewPuzzle {
    shipped()
        .into_iter()
        .find(|p| p.id() == id)
        .expect("a served puzzle is a shipped one")
}

/// Tries, ratings, history and the day's puzzle on any store.
pub async fn tries_move_ratings(s: &TestServer) {
    let game = shipped().first().expect("puzzles are shipped").game.clone();
    let mut a = Client::guest(s).await;
    let mut b = Client::guest(s).await;
    let next = a.get(&format!("/api/puzzles/{game}/next")).await;
    assert_eq!(next.status, 200, "{}", next.text);
    assert_eq!(next.body["rating"]["rating"], 1500.0);
    let p = next.body["puzzle"].clone();
    let id = p["id"].as_str().unwrap().to_string();
    // Before a try: the position, no solution, nothing of the record (its seed, its moves).
    assert_eq!(p["tried"], Value::Null);
    assert_eq!(p["explanation"], Value::Null);
    for secret in ["record", "seed", "solutions", "source"] {
        assert!(
            !next.text.contains(&format!("\"{secret}\"")),
            "{secret}: {}",
            next.text
        );
    }
    let known = shipped_puzzle(&id);
    assert_eq!(p["view"], known.view);
    // Where it stands, for its heading: the turn as the move log numbers it, the stages' name.
    let record: pyramidion_core::record::Record =
        serde_json::from_value(known.record.clone()).unwrap();
    assert_eq!(
        p["turn"],
        pyramidion_games::analysis::turn_at(&record).unwrap()
    );
    assert!(p["turn"].as_u64().unwrap() >= 1);
    let kind: pyramidion_games::GameKind = game.parse().unwrap();
    assert_eq!(p["stage_name"], kind.descriptor().stage_name);
    let wrong = known
        .legal
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .find(|t| !known.solutions.contains(t))
        .expect("a puzzle has a wrong move");
    let right = known.solutions[0].clone();

    // A move that is not legal there is refused and counts for nothing.
    let path = format!("/api/puzzles/{id}/attempt");
    let r = a.post(&path, json!({"move": "not a move"})).await;
    assert_eq!(
        (r.status, r.body["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
    // A's first try fails: A's rating falls, the puzzle's rises; the explanation comes.
    let r = a.post(&path, json!({"move": wrong})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (r.body["solved"].clone(), r.body["rated"].clone()),
        (json!(false), json!(true))
    );
    let a_after = r.body["rating_after"]["rating"].as_f64().unwrap();
    let puzzle_after_a = r.body["puzzle_after"]["rating"].as_f64().unwrap();
    assert!(a_after < 1500.0 && puzzle_after_a > 1500.0, "{}", r.text);
    assert_eq!(r.body["explanation"]["solutions"], json!(known.solutions));
    let candidates = r.body["explanation"]["candidates"].as_array().unwrap();
    assert!(candidates.len() >= 2);
    assert!(
        known
            .solutions
            .contains(&candidates[0]["text"].as_str().unwrap().to_string())
    );
    // A retry (solved now) moves nothing.
    let r = a.post(&path, json!({"move": right})).await;
    assert_eq!(
        (r.body["solved"].clone(), r.body["rated"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(r.body["rating_after"]["rating"].as_f64().unwrap(), a_after);
    // Once tried, the puzzle shows A's try and its explanation; not to B, who has not tried.
    let seen = a.get(&format!("/api/puzzles/{id}")).await.body;
    assert_eq!(seen["tried"]["solved"], false);
    assert_eq!(seen["explanation"]["solutions"], json!(known.solutions));
    assert_eq!(
        b.get(&format!("/api/puzzles/{id}")).await.body["explanation"],
        Value::Null
    );
    // B solves it: B rises, the puzzle falls from where A's failure left it.
    let r = b.post(&path, json!({"move": right})).await;
    assert_eq!(
        (r.body["solved"].clone(), r.body["rated"].clone()),
        (json!(true), json!(true))
    );
    assert!(r.body["rating_after"]["rating"].as_f64().unwrap() > 1500.0);
    assert_eq!(
        r.body["puzzle_before"]["rating"].as_f64().unwrap(),
        puzzle_after_a
    );
    assert!(r.body["puzzle_after"]["rating"].as_f64().unwrap() < puzzle_after_a);
    // A's history and rating; A's next puzzle is another one.
    let h = a.get(&format!("/api/puzzles/{game}/history")).await.body;
    assert_eq!(h["rating"]["rating"].as_f64().unwrap(), a_after);
    assert_eq!(h["attempts"].as_array().unwrap().len(), 1);
    assert_eq!(h["attempts"][0]["puzzle"], id.as_str());
    assert_eq!(h["attempts"][0]["solved"], false);
    let again = a.get(&format!("/api/puzzles/{game}/next")).await.body;
    assert_ne!(again["puzzle"]["id"], id.as_str());
    // The day's puzzle is the same for everyone.
    let day_a = a.get(&format!("/api/puzzles/{game}/daily")).await.body;
    let day_b = b.get(&format!("/api/puzzles/{game}/daily")).await.body;
    assert!(day_a["id"].is_string());
    assert_eq!(day_a["id"], day_b["id"]);
    // Unknown puzzle, unknown game; no identity.
    assert_eq!(a.get("/api/puzzles/00ff00ff00").await.status, 404);
    assert_eq!(a.get("/api/puzzles/no-such-game/next").await.status, 404);
    let anonymous = Client::new(s).post(&path, json!({"move": right})).await;
    assert_eq!(anonymous.status, 401);
}

#[tokio::test]
async fn a_first_try_moves_both_ratings_and_a_retry_neither() {
    let s = start_sqlite("puzzle-tries").await;
    tries_move_ratings(&s).await;
    // Kept durably: the next server on the same data has the same ratings. It stores the
    // shipped puzzles on its first puzzle page, none of them twice.
    let again = start(sqlite_url(&s.dir), |_| {}).await;
    let game = shipped().first().unwrap().game.clone();
    let mut c = Client::guest(&again).await;
    let daily = c.get(&format!("/api/puzzles/{game}/daily")).await;
    assert_eq!(daily.status, 200, "{}", daily.text);
    let count = again.state.store.shipped_puzzle_count().await.unwrap();
    assert_eq!(
        count as usize,
        shipped().len(),
        "the seed data is loaded once"
    );
}

/// The games the miner took (and the puzzles each gave).
async fn mined(s: &TestServer) -> Vec<String> {
    let rows = sqlx::query("SELECT game_id FROM puzzle_mined ORDER BY game_id")
        .fetch_all(&s.state.store.pool)
        .await
        .unwrap();
    rows.iter().map(|r| r.get::<String, _>("game_id")).collect()
}

/// Creates a table of two seats (the client's and a bot's) and returns its id.
async fn table(c: &mut Client, listed: bool) -> String {
    let t = c
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2}, "listed": listed,
                   "seats": [{"type": "me"}, {"type": "bot", "level": "random"}]}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    t.body["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_miner_takes_finished_public_games_of_players_who_did_not_opt_out() {
    let s = start_sqlite("puzzle-miner").await;
    let mut ann = account(&s, "ann_puzzles").await;
    let mut bob = account(&s, "bob_puzzles").await;
    let public = table(&mut ann, true).await;
    play_out(&mut ann, &public).await;
    let unlisted = table(&mut ann, false).await;
    play_out(&mut ann, &unlisted).await;
    let unfinished = table(&mut ann, true).await;
    // Bob opts out, then finishes a public game.
    assert_eq!(
        bob.get("/api/puzzles/opt-out").await.body,
        json!({"opt_out": false})
    );
    let r = bob
        .put("/api/puzzles/opt-out", json!({"opt_out": true}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        bob.get("/api/puzzles/opt-out").await.body,
        json!({"opt_out": true})
    );
    let bobs = table(&mut bob, true).await;
    play_out(&mut bob, &bobs).await;

    let taken = pyramidion_server::puzzles::miner::pass(&s.state)
        .await
        .unwrap();
    let mut expected = vec![public.clone(), bobs.clone()];
    expected.sort();
    // Bob's game is taken (so never looked at again) but gives nothing.
    assert_eq!(mined(&s).await, expected);
    assert_eq!(taken, 1, "one game mined");
    let from_bob = sqlx::query("SELECT COUNT(*) AS n FROM puzzles WHERE source = $1")
        .bind(&bobs)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap()
        .get::<i64, _>("n");
    assert_eq!(from_bob, 0);
    assert!(!mined(&s).await.contains(&unfinished));
    assert!(!mined(&s).await.contains(&unlisted));
    // A second pass finds nothing new.
    assert_eq!(
        pyramidion_server::puzzles::miner::pass(&s.state)
            .await
            .unwrap(),
        0
    );
}

#[tokio::test]
async fn the_miner_leaves_a_daily_challenge_until_its_day_is_over_for_everyone() {
    use pyramidion_server::http::daily::utc_day;
    use pyramidion_server::live::daily_embargo::day_end_ms;
    use pyramidion_server::wall_clock::WallClock;
    const HOUR: i64 = 3600 * 1000;
    // The daily challenges live on yesterday at noon, with three days of grace: the attempt
    // below stays under its embargo.
    let day = utc_day(pyramidion_server::wall_clock::now_ms() - 24 * HOUR);
    let clock = WallClock::fixed(day_end_ms(&day).unwrap() - 12 * HOUR);
    let s = start_sqlite_with("puzzle-daily", move |c| {
        c.wall_clock = clock;
        c.limits.daily_grace = std::time::Duration::from_secs(3 * 24 * 3600);
    })
    .await;
    let mut ann = account(&s, "ann_daily_puzzles").await;
    let today = ann.get("/api/daily").await.body;
    let challenge = today["challenges"][0]["id"].as_str().unwrap().to_string();
    let r = ann
        .post(&format!("/api/daily/{challenge}"), json!({}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    play_out(&mut ann, &id).await;
    assert_eq!(
        pyramidion_server::puzzles::miner::pass(&s.state)
            .await
            .unwrap(),
        0
    );
    assert!(
        mined(&s).await.is_empty(),
        "an embargoed daily game is not even claimed"
    );
}

/// Two instances of a cluster on one PostgreSQL mine side by side: each finished public game
/// is claimed in `puzzle_mined` by exactly one of them, so no game is mined twice (issue 48,
/// "both work across several instances"). `server` is the first instance; a second one starts
/// on the same database.
#[cfg(feature = "postgres-tests")]
pub async fn two_instances_mine_each_game_once(server: &TestServer, url: &str) {
    let other = start(url.to_string(), |_| {}).await;
    let mut ann = account(server, "ann_two_miners").await;
    let mut games = Vec::new();
    for _ in 0..4 {
        let id = table(&mut ann, true).await;
        play_out(&mut ann, &id).await;
        games.push(id);
    }
    let before = mined(server).await.len();
    // Both instances pass at once, then again (a pass takes up to 16 games: the earlier
    // scenarios' finished games are there too); each mined game counted by the one that won it.
    let mut counted = 0;
    for _ in 0..4 {
        let (a, b) = tokio::join!(
            pyramidion_server::puzzles::miner::pass(&server.state),
            pyramidion_server::puzzles::miner::pass(&other.state),
        );
        counted += a.unwrap() + b.unwrap();
    }
    let after = mined(server).await;
    for g in &games {
        assert_eq!(
            after.iter().filter(|m| *m == g).count(),
            1,
            "{g} claimed once"
        );
    }
    // Every claim mined by one instance only (nobody here opted out): the two passes' counts
    // add up to the claims, never more.
    assert_eq!(
        counted,
        after.len() - before,
        "each claimed game mined once"
    );
    // The claim itself, raced: of two instances claiming one game, one wins.
    for round in 0..8 {
        let id = format!("two-miners-{round}");
        let (a, b) = tokio::join!(
            server.state.store.claim_mining(&id, 1),
            other.state.store.claim_mining(&id, 1),
        );
        assert!(
            a.unwrap() ^ b.unwrap(),
            "round {round}: exactly one claim wins"
        );
    }
}

/// A store that holds as many shipped puzzles as this build ships, but an earlier build's
/// (its files re-checked by a stricter miner dropped some and added others), still stores
/// this build's: the seed data is loaded by id, not by count; the earlier ones stay.
#[tokio::test]
async fn shipped_puzzles_are_stored_by_id_even_where_the_store_holds_as_many_others() {
    use pyramidion_server::db::store::Store;
    use pyramidion_server::db::writer::WriterOptions;
    use pyramidion_server::metrics::Metrics;
    use pyramidion_server::puzzles::seed_data::load;
    let dir = temp_dir("puzzle-seed-ids");
    let store = Store::open(
        &sqlite_url(&dir),
        std::sync::Arc::<Metrics>::default(),
        WriterOptions::default(),
    )
    .await
    .unwrap();
    let ours = shipped();
    let earlier: Vec<NewPuzzle> = ours
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, mut p)| {
            p.record["seed"] = json!(1_000_000 + i);
            p
        })
        .collect();
    assert_eq!(store.insert_puzzles(earlier, 1).await.unwrap(), ours.len());
    assert_eq!(
        load(&store, 2).await.unwrap(),
        ours.len(),
        "this build's stored"
    );
    assert_eq!(
        store.shipped_puzzle_count().await.unwrap() as usize,
        2 * ours.len()
    );
    assert_eq!(load(&store, 3).await.unwrap(), 0, "once");
}
