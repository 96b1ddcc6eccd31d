//! A clockless Swiss round's deadline is the creator's choice (issue 49): `round_days`, 1 to
//! 30 days (7 by default), for a Swiss without a clock only; shown in the tournament's view
//! and used by the director (a round of two days is adjudicated after two days, not seven).
use crate::common::after_game_scenarios::account;
use crate::common::*;
use crate::tournaments::until;
use serde_json::{Value, json};

const DAY: i64 = 24 * 3600 * 1000;

fn spec(extra: Value) -> Value {
    let mut body = json!({"name": "Slow", "game": "pyramids", "format": "swiss", "seats": 2,
                          "rounds": 2, "starts_in_s": 3600});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

#[tokio::test]
async fn the_round_length_is_bounded_and_for_a_clockless_swiss_only() {
    let s = start_sqlite("tourney_round_days").await;
    let mut ada = account(&s, "ada").await;
    for (extra, why) in [
        (json!({"round_days": 0}), "no round of no day"),
        (json!({"round_days": 31}), "a month at most"),
        (
            json!({"round_days": 3, "clock": "normal"}),
            "a clock ends the games",
        ),
        (
            json!({"format": "arena", "rounds": null, "duration_min": 30, "round_days": 3}),
            "an Arena has no rounds",
        ),
    ] {
        let r = ada.post("/api/tournaments", spec(extra)).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_request"),
            "{why}: {}",
            r.text
        );
    }
    let r = ada
        .post("/api/tournaments", spec(json!({"round_days": 30})))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["round_days"], 30);
    // A tournament with a clock has no round deadline to show.
    let r = ada
        .post("/api/tournaments", spec(json!({"clock": "normal"})))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["round_days"], Value::Null, "{}", r.text);
}

#[tokio::test]
async fn a_round_of_two_days_is_adjudicated_after_two_days() {
    use pyramidion_server::tournament::director;
    let dir = temp_dir("tourney_two_days");
    // A minute ahead: "start now" is the system's time, the director's the rooms'.
    let t0 = pyramidion_server::wall_clock::now_ms() + 60_000;
    let clock = pyramidion_server::wall_clock::WallClock::fixed(t0);
    let s = start(sqlite_url(&dir), move |c| c.room_clock = clock).await;
    let mut ada = account(&s, "ada").await;
    let mut bea = account(&s, "bea").await;
    let r = ada
        .post("/api/tournaments", spec(json!({"round_days": 2})))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    let j = bea
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    ada.post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let t = until(&mut ada, &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 1)
    })
    .await;
    let round = &t["paired"][0];
    let started = round["started_at"].as_i64().unwrap();
    assert_eq!(round["deadline_at"], started + 2 * DAY, "{round}");
    let game = round["tables"][0]["game"].as_str().unwrap().to_string();

    director::step(&s.state, &id, started + 2 * DAY - 1)
        .await
        .unwrap();
    let row = s.state.store.game(&game).await.unwrap().unwrap();
    assert_eq!(row.status, pyramidion_server::game_status::GameStatus::Live);
    director::step(&s.state, &id, started + 2 * DAY)
        .await
        .unwrap();
    let row = s.state.store.game(&game).await.unwrap().unwrap();
    assert_eq!(
        row.status,
        pyramidion_server::game_status::GameStatus::Finished
    );
    let result: Value = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
    assert_eq!(result["ending"], "adjudicated", "{result}");
    until(&mut ada, &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 2)
    })
    .await;
}
