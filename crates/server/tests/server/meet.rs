//! Meeting people (issue 27, item 5) over real HTTP and WebSockets: quick pairing seats
//! strangers who asked for the same setting, the Watch list, and a rematch offer that reaches
//! the other player at once; one invite link seats one person.
use crate::common::after_game_scenarios::account;
use crate::common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn quick_pairing_seats_two_strangers_who_ask_for_the_same_setting() {
    let s = start_sqlite("pairing").await;
    let mut a = account(&s, "anna").await;
    let mut b = account(&s, "bruno").await;
    let mut c = Client::guest(&s).await;
    let mut ws_a = a.socket().await;
    let duel = json!({"game": "pyramids", "players": 2, "clock": "normal", "rated": true});

    // Bad settings: a clear error, nobody waits.
    for (bad, status, code) in [
        (json!({"game": "chess", "players": 2}), 400, "unknown_game"),
        (
            json!({"game": "pyramids", "players": 9}),
            400,
            "bad_player_count",
        ),
        (
            json!({"game": "pyramids", "players": 2, "clock": "blitz"}),
            400,
            "unknown_clock",
        ),
        (
            json!({"game": "pyramids", "players": 2, "colour": "red"}),
            400,
            "bad_request",
        ),
    ] {
        let r = a.post("/api/pairing", bad).await;
        assert_eq!((r.status, r.code()), (status, code), "{}", r.text);
    }
    assert_eq!(a.get("/api/pairing").await.body["waiting"], json!([]));

    let r = a.post("/api/pairing", duel.clone()).await;
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.body, json!({"status": "waiting", "waiting": 1}));
    let told = ws_a.next_of("pairing").await;
    assert_eq!(told["waiting"], 1);
    let counts = c.get("/api/pairing").await.body;
    assert_eq!(
        counts["waiting"],
        json!([{"game": "pyramids", "players": 2, "clock": "normal", "waiting": 1}])
    );
    // Another setting does not meet anna; then its player leaves the queue.
    let other = c
        .post("/api/pairing", json!({"game": "pyramids", "players": 3}))
        .await;
    assert_eq!(other.body["waiting"], 1, "{}", other.text);
    c.http
        .delete(format!("{}/api/pairing", c.base))
        .header("cookie", c.cookie.clone().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(
        c.get("/api/pairing").await.body["waiting"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // bruno asks the same (rated too): both are seated at once, rated.
    let r = b.post("/api/pairing", duel).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let table = &r.body["table"];
    assert_eq!(
        (table["status"].as_str(), table["rated"].as_bool()),
        (Some("live"), Some(true))
    );
    assert_eq!(table["clock"]["key"], "normal");
    let names: Vec<&str> = table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec!["anna", "bruno"],
        "the one who waited sits first"
    );
    let paired = ws_a.next_of("pairing").await;
    assert_eq!(paired["table"], table["id"]);
    assert_eq!(c.get("/api/pairing").await.body["waiting"], json!([]));
    // anna plays there at once.
    let id = table["id"].as_str().unwrap();
    let state = ws_a.subscribe(id, None).await;
    assert_eq!(state["seat"], 0);
}

#[tokio::test]
async fn pairing_keeps_to_the_rating_range_and_is_casual_unless_both_ask_rated() {
    let s = start_sqlite("pairing-range").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    // Both at 1500: a range of 0 still meets an equal rating.
    let r = a
        .post(
            "/api/pairing",
            json!({"game": "pyramids", "players": 2, "clock": "normal", "range": 0, "rated": true}),
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
    let r = b
        .post(
            "/api/pairing",
            json!({"game": "pyramids", "players": 2, "clock": "normal"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["table"]["rated"], false, "rated only when both ask");
    assert_eq!(r.body["table"]["clock"]["key"], "normal");
}

#[tokio::test]
async fn the_watch_list_shows_live_public_games_with_ratings_and_a_spectator_can_follow() {
    let s = start_sqlite("watch").await;
    let mut a = Client::guest(&s).await;
    let mut unlisted = Client::guest(&s).await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}]});
    let first = a.post("/api/tables", body.clone()).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let second = a.post("/api/tables", body.clone()).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut hidden = body.clone();
    hidden["listed"] = json!(false);
    let hidden = unlisted.post("/api/tables", hidden).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut watcher = Client::guest(&s).await;
    let list = watcher.get("/api/watch").await;
    assert_eq!(list.status, 200, "{}", list.text);
    let ids: Vec<&str> = list.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![second.as_str(), first.as_str()],
        "newest first; unlisted {hidden} left out"
    );
    let g = &list.body["games"][0];
    assert_eq!(g["seats"][0]["rating"], 1500.0);
    assert_eq!(g["seats"][1]["level"], "greedy");
    assert!(g["plies"].is_i64() && g["mean_rating"].is_f64(), "{g}");
    // The stage as the game's descriptor names it.
    let stage_name = g["stage_name"].as_str().unwrap();
    assert!(!stage_name.is_empty());
    assert_eq!(g["stage"], 1, "{g}");
    let r = watcher.get("/api/watch?sort=rated").await;
    assert_eq!(r.status, 200);
    let r = watcher.get("/api/watch?sort=worst").await;
    assert_eq!((r.status, r.code()), (400, "bad_request"));
    // A spectator follows it: no seat, no legal moves.
    let seen = watcher.socket().await.subscribe(&first, None).await;
    assert_eq!(
        (seen["seat"].clone(), seen["legal"].clone()),
        (Value::Null, json!([]))
    );
}

#[tokio::test]
async fn a_rematch_offer_reaches_the_other_player_at_once() {
    let s = start_sqlite("rematch-offer").await;
    let mut a = account(&s, "anna").await;
    let mut b = account(&s, "bruno").await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "open"}]});
    let id = a.post("/api/tables", body).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    let mut ws_b = b.socket().await;
    let r = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let offer = ws_b.next_of("rematch_offer").await;
    assert_eq!(offer["game"], id.as_str());
    assert_eq!(offer["by"], "anna");
    assert_eq!(offer["table"], r.body["id"]);
    // Accepting is joining the seat kept there.
    let joined = b
        .post(
            &format!("/api/tables/{}/join", offer["table"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
}

#[tokio::test]
async fn one_invite_link_does_not_fill_every_seat() {
    let s = start_sqlite("invite").await;
    let mut host = Client::guest(&s).await;
    let t = host
        .create_table(
            "forgotten-treasures",
            json!({"players": 3}),
            json!([{"type": "me"}, {"type": "invite"}, {"type": "invite"}]),
        )
        .await;
    let (id, invite) = (
        t.body["id"].as_str().unwrap().to_string(),
        t.body["invite"].as_str().unwrap().to_string(),
    );
    let mut guest = Client::guest(&s).await;
    let join = format!("/api/tables/{id}/join");
    let r = guest.post(&join, json!({"invite": invite})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = guest.post(&join, json!({"invite": invite})).await;
    assert_eq!((r.status, r.code()), (409, "already_seated"), "{}", r.text);
    let r = host.post(&join, json!({"invite": invite})).await;
    assert_eq!((r.status, r.code()), (409, "already_seated"), "{}", r.text);
    let table = host.get(&format!("/api/tables/{id}")).await;
    assert_eq!(table.body["seats"][2]["type"], "invite", "{}", table.text);
    assert_eq!(table.body["status"], "open");
}
