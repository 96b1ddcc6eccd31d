//! The daily challenge's embargo (issue 29): a day's deals and records stay hidden from
//! everyone, its players included, until the day is over for every attempt (its end plus the
//! grace window); an attempt finished later does not rank. The daily challenges read an
//! injected time of day (`Config::wall_clock`): the day under test is yesterday, so that the
//! games (whose end the storage dates with the real clock) finish after its end.
use crate::common::after_game_scenarios::account;
use crate::common::*;
use pyramidion_server::http::daily::utc_day;
use pyramidion_server::live::daily_embargo::day_end_ms;
use pyramidion_server::wall_clock::WallClock;
use serde_json::{Value, json};
use std::time::Duration;

const HOUR: i64 = 3600 * 1000;

/// A server whose daily challenges live on `day` at noon, with `grace`.
async fn server_on(name: &str, day: &str, grace: Duration) -> (TestServer, WallClock) {
    let clock = WallClock::fixed(day_end_ms(day).unwrap() - 12 * HOUR);
    let shared = clock.clone();
    let s = start_sqlite_with(name, move |c| {
        c.wall_clock = shared;
        c.limits.daily_grace = grace;
    })
    .await;
    (s, clock)
}

fn yesterday() -> String {
    utc_day(pyramidion_server::wall_clock::now_ms() - 24 * HOUR)
}

/// The id of a solo challenge of the server's day.
async fn solo_challenge(c: &mut Client, day: &str) -> String {
    let today = c.get("/api/daily").await.body;
    assert_eq!(today["day"], day);
    today["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["bots"].as_array().unwrap().is_empty())
        .expect("a solo challenge")["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Starts `c`'s attempt at `challenge` and plays it out; its game id.
async fn attempt(c: &mut Client, challenge: &str, seed: u64) -> String {
    let r = c.post(&format!("/api/daily/{challenge}"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let state = ws.subscribe(&id, None).await;
    let done = ws.play_out(&id, state, seed).await;
    assert_eq!(done["finished"], true);
    id
}

/// Every way a second account could read `game` (a finished daily game of someone else).
async fn second_account_sees(c: &mut Client, game: &str, owner: &str) -> Vec<(String, u16)> {
    let mut seen = Vec::new();
    for path in [
        format!("/api/games/{game}/record"),
        format!("/api/games/{game}/record?format=text"),
        format!("/api/games/{game}/replay"),
        format!("/api/games/{game}/replay/0"),
        format!("/api/games/{game}/analysis"),
    ] {
        let r = c.get(&path).await;
        seen.push((path, r.status));
    }
    let ndjson = c.get(&format!("/api/users/{owner}/games.ndjson")).await;
    if ndjson.text.contains(game) {
        seen.push(("ndjson".into(), 200));
    }
    let mut ws = c.socket().await;
    ws.send(json!({ "type": "subscribe", "game": game })).await;
    let answer = loop {
        let m = ws.next().await;
        if m["type"] == "error" || m["type"] == "state" {
            break m;
        }
    };
    if answer["type"] == "state" {
        seen.push(("subscribe".into(), 200));
    }
    seen
}

#[tokio::test]
async fn a_second_account_learns_nothing_of_the_day_until_it_is_over_for_everyone() {
    let day = yesterday();
    // Three days of grace: the attempts below (finished now, the day after) rank.
    let grace = Duration::from_secs(3 * 24 * 3600);
    let (s, clock) = server_on("daily-embargo", &day, grace).await;
    let mut ann = account(&s, "ann_embargo").await;
    let mut bob = account(&s, "bob_embargo").await;
    let cid = solo_challenge(&mut ann, &day).await;
    let ga = attempt(&mut ann, &cid, 11).await;
    let public = day_end_ms(&day).unwrap() + 3 * 24 * HOUR;

    for now in [
        day_end_ms(&day).unwrap() - HOUR,
        day_end_ms(&day).unwrap(),
        public - 1,
    ] {
        clock.set(now);
        let seen = second_account_sees(&mut bob, &ga, "ann_embargo").await;
        assert!(
            seen.iter().all(|(_, status)| *status == 409),
            "at {now}: {seen:?}"
        );
        let board = bob.get(&format!("/api/daily/{cid}/leaderboard")).await.body;
        assert_eq!(board["entries"], json!([]), "{board}");
        assert_eq!(board["hidden_until"], public, "{board}");
        // Issue 54: not even its player gets a record (their moves as their seat saw them
        // were the day's deal in order, for a main account to read from an alt's), nor a
        // replay or an analysis.
        for path in [
            "record",
            "record?format=json",
            "record?format=text",
            "replay",
            "replay/0",
            "analysis",
        ] {
            let r = ann.get(&format!("/api/games/{ga}/{path}")).await;
            assert_eq!((r.status, r.code()), (409, "daily_in_progress"), "{path}");
        }
        let r = ann
            .post(&format!("/api/games/{ga}/analysis"), json!({}))
            .await;
        assert_eq!((r.status, r.code()), (409, "daily_in_progress"));
        // Nor does the public profile show its score.
        let profile = bob.get("/api/users/ann_embargo").await.body;
        assert_eq!(profile["solo_bests"], json!([]), "{profile}");
    }
    // Ann's own end shows the position before her last move: the end of a game may reveal
    // what the deal hid (checked against the record once it is public, below).
    let mut ws = ann.socket().await;
    let ann_end = ws.subscribe(&ga, None).await;
    assert_eq!(ann_end["finished"], true);
    // Nor does her socket list her moves again once the game is over: asked for every move
    // since the first, it sends none.
    let again = ws.subscribe(&ga, Some(0)).await;
    assert_eq!(again["missed"], json!([]), "{again}");
    // Bob's own attempt (the same deal) tells him nothing more: no record, no seed.
    clock.set(day_end_ms(&day).unwrap() - HOUR);
    let gb = attempt(&mut bob, &cid, 12).await;
    let own = bob.get(&format!("/api/games/{gb}/record")).await;
    assert_eq!((own.status, own.code()), (409, "daily_in_progress"));

    // The day is over for everyone: all is public, and both attempts rank.
    clock.set(public);
    let seen = second_account_sees(&mut bob, &ga, "ann_embargo").await;
    assert!(seen.iter().all(|(_, status)| *status == 200), "{seen:?}");
    let text = bob
        .get(&format!("/api/games/{ga}/record?format=text"))
        .await;
    assert!(text.text.contains("seed"), "{}", text.text);
    let record = pyramidion_core::record::Record::parse(&text.text).unwrap();
    let before_last =
        pyramidion_games::AnyGame::from_record_prefix(&record, Some(record.moves.len() - 1))
            .unwrap();
    let seat = ann_end["seat"]
        .as_u64()
        .map(|s| pyramidion_core::Seat(s as u8));
    assert_eq!(ann_end["view"], before_last.view(seat));
    let board = bob.get(&format!("/api/daily/{cid}/leaderboard")).await.body;
    let names: Vec<&str> = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{board}");
    assert!(names.contains(&"ann_embargo") && names.contains(&"bob_embargo"));
    assert_eq!(board["hidden_until"], Value::Null);
    // The solo game now counts towards the best scores of its mode.
    let profile = bob.get("/api/users/ann_embargo").await.body;
    let ann_entry = board["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "ann_embargo")
        .unwrap()
        .clone();
    assert_eq!(
        profile["solo_bests"][0]["best"], ann_entry["score"],
        "{profile}"
    );
}

/// With no grace, an attempt of yesterday finished today (after the day's end) does not
/// rank, although its record becomes public with the others'.
#[tokio::test]
async fn an_attempt_finished_after_the_day_and_its_grace_does_not_rank() {
    let day = yesterday();
    let (s, clock) = server_on("daily-late", &day, Duration::ZERO).await;
    let mut ann = account(&s, "ann_late").await;
    let cid = solo_challenge(&mut ann, &day).await;
    let ga = attempt(&mut ann, &cid, 5).await;
    clock.set(day_end_ms(&day).unwrap());
    let board = ann.get(&format!("/api/daily/{cid}/leaderboard")).await.body;
    assert_eq!(board["entries"], json!([]), "finished too late: {board}");
    assert_eq!(board["hidden_until"], Value::Null, "{board}");
    let mut bob = account(&s, "bob_late").await;
    let r = bob
        .get(&format!("/api/games/{ga}/record?format=text"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

/// Issue 46, item 3: a daily attempt's end shows its player their result at once (the final
/// `outcome`, while the view stays the position before the last move) and says which
/// challenge it was and when the day's ranking opens; the leaderboard says how many have
/// finished while it hides who and how.
#[tokio::test]
async fn a_finished_attempt_shows_its_result_at_once_and_the_board_counts_who_finished() {
    let day = yesterday();
    let grace = Duration::from_secs(3 * 24 * 3600);
    let (s, clock) = server_on("daily-count", &day, grace).await;
    let public = day_end_ms(&day).unwrap() + 3 * 24 * HOUR;
    let mut ann = account(&s, "ann_count").await;
    let mut bob = account(&s, "bob_count").await;
    let cid = solo_challenge(&mut ann, &day).await;
    let board = bob.get(&format!("/api/daily/{cid}/leaderboard")).await.body;
    assert_eq!(
        (&board["finished"], &board["entries"]),
        (&json!(0), &json!([])),
        "{board}"
    );

    let ga = attempt(&mut ann, &cid, 21).await;
    // Ann's finished game: the result is hers at once, with when the ranking opens.
    let mut ws = ann.socket().await;
    let end = ws.subscribe(&ga, None).await;
    assert_eq!(end["finished"], true);
    assert!(
        end["outcome"]["scores"]
            .as_array()
            .is_some_and(|s| !s.is_empty()),
        "{end}"
    );
    assert_eq!(
        end["sealed"],
        json!({"challenge": cid, "public_at": public}),
        "{end}"
    );
    assert!(
        end["view"]["outcome"].is_null(),
        "the end position stays sealed"
    );

    // The board counts her attempt while it hides it; then Bob's.
    let board = bob.get(&format!("/api/daily/{cid}/leaderboard")).await.body;
    assert_eq!(
        (
            &board["finished"],
            &board["entries"],
            &board["hidden_until"]
        ),
        (&json!(1), &json!([]), &json!(public)),
        "{board}"
    );
    clock.set(day_end_ms(&day).unwrap() - HOUR);
    attempt(&mut bob, &cid, 22).await;
    let board = ann.get(&format!("/api/daily/{cid}/leaderboard")).await.body;
    assert_eq!(board["finished"], 2, "{board}");

    // Once the day is over for everyone, both rank, and the count stays.
    clock.set(public);
    let board = ann.get(&format!("/api/daily/{cid}/leaderboard")).await.body;
    assert_eq!(
        (
            board["finished"].as_u64(),
            board["entries"].as_array().map(Vec::len)
        ),
        (Some(2), Some(2)),
        "{board}"
    );
}
