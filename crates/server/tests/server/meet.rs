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
    assert_eq!(
        r.body,
        json!({"status": "waiting", "waiting": 1, "other_kind": 0, "out_of_range": 0})
    );
    let told = ws_a.next_of("pairing").await;
    assert_eq!(told["waiting"], 1);
    let counts = c.get("/api/pairing").await.body;
    assert_eq!(
        counts["waiting"],
        json!([{"game": "pyramids", "players": 2, "clock": "normal", "rated": true, "waiting": 1}])
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

/// Gives `user` a rating of `rating` at Pyramids, as rated games would have.
async fn rate(s: &TestServer, user: &str, rating: f64) {
    sqlx::query(
        "INSERT INTO ratings (game, player, rating, deviation, volatility, games, updated_at)
         VALUES ('pyramids', $1, $2, 100.0, 0.06, 20, 0)",
    )
    .bind(user)
    .bind(rating)
    .execute(&s.state.store.pool)
    .await
    .unwrap();
}

/// A guest with a Pyramids rating (none: the starting 1500), and its user id.
async fn guest_rated(s: &TestServer, rating: Option<f64>) -> (Client, String) {
    let mut c = Client::guest(s).await;
    let id = c.get("/api/me").await.body["id"]
        .as_str()
        .expect("my id")
        .to_string();
    if let Some(rating) = rating {
        rate(s, &id, rating).await;
    }
    (c, id)
}

/// The next `pairing` push that seats its user: its table.
async fn seated_push(ws: &mut Socket) -> Value {
    loop {
        let told = ws.next_of("pairing").await;
        if !told["table"].is_null() {
            return told["table"].clone();
        }
    }
}

/// Issue 46, item 5: quick pairing keeps what each player asked for. A rated ask with a
/// range of ±50 is never seated at a casual table, nor with a player outside its range (nor
/// one whose own range leaves it out); each waiting player is told how many could sit with
/// them and how many wait apart, and why; the public counts say rated or casual.
#[tokio::test]
async fn a_rated_ask_within_50_is_never_seated_casual_or_out_of_range_and_is_told_who_waits_apart()
{
    let s = start_sqlite("pairing-honest").await;
    let duel = |rated: bool, range: Option<u32>| {
        let mut ask = json!({"game": "pyramids", "players": 2, "clock": "normal", "rated": rated});
        if let Some(range) = range {
            ask["range"] = json!(range);
        }
        ask
    };
    let tally = |r: &Reply| {
        assert_eq!(
            (r.status, r.body["status"].as_str()),
            (202, Some("waiting")),
            "{}",
            r.text
        );
        (
            r.body["waiting"].as_u64().unwrap(),
            r.body["other_kind"].as_u64().unwrap(),
            r.body["out_of_range"].as_u64().unwrap(),
        )
    };
    let (mut anna, a_id) = guest_rated(&s, Some(1500.0)).await;
    let mut ws_anna = anna.socket().await;
    let (mut bruno, _) = guest_rated(&s, None).await;
    let (mut carla, _) = guest_rated(&s, Some(1824.0)).await;
    let (mut dario, _) = guest_rated(&s, Some(1475.0)).await;
    let (mut emma, e_id) = guest_rated(&s, Some(1530.0)).await;
    let mut ws_emma = emma.socket().await;

    // anna: rated, within ±50. She waits alone.
    let r = anna.post("/api/pairing", duel(true, Some(50))).await;
    assert_eq!(tally(&r), (1, 0, 0));
    assert_eq!(ws_anna.next_of("pairing").await["waiting"], 1);

    // bruno (1500, the same rating) asks casual: he is not seated with anna, casual; both
    // are told that one waits for the other kind of game.
    let r = bruno.post("/api/pairing", duel(false, None)).await;
    assert_eq!(
        tally(&r),
        (1, 1, 0),
        "a casual ask never takes a rated one's seat"
    );
    let told = ws_anna.next_of("pairing").await;
    assert_eq!(
        (
            &told["waiting"],
            &told["other_kind"],
            &told["out_of_range"],
            &told["table"]
        ),
        (&json!(1), &json!(1), &json!(0), &Value::Null)
    );

    // carla (1824, 324 points above anna) asks rated with no range: anna's range leaves her
    // out, so she waits, told that one rated player is out of range (and bruno casual).
    let r = carla.post("/api/pairing", duel(true, None)).await;
    assert_eq!(tally(&r), (1, 1, 1));
    let told = ws_anna.next_of("pairing").await;
    assert_eq!(
        (&told["waiting"], &told["other_kind"], &told["out_of_range"]),
        (&json!(1), &json!(1), &json!(1))
    );

    // dario (1475) asks rated within ±20: anna is 25 away, so his own range leaves her out;
    // carla and bruno (1500 too) are out of it as well. Nobody is seated.
    let r = dario.post("/api/pairing", duel(true, Some(20))).await;
    assert_eq!(tally(&r), (1, 0, 3));

    // The public counts say rated or casual, and nobody was seated.
    let mut counts = anna.get("/api/pairing").await.body["waiting"].clone();
    counts
        .as_array_mut()
        .unwrap()
        .sort_by_key(|c| c["rated"].as_bool());
    assert_eq!(
        counts,
        json!([
            {"game": "pyramids", "players": 2, "clock": "normal", "rated": false, "waiting": 1},
            {"game": "pyramids", "players": 2, "clock": "normal", "rated": true, "waiting": 3},
        ])
    );

    // emma (1530) asks rated within ±100: anna (30 away, within both ranges) waited longest
    // of those who can sit with her; they are seated at a rated table.
    let r = emma.post("/api/pairing", duel(true, Some(100))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let table = &r.body["table"];
    assert_eq!(table["rated"], true, "a rated ask sits at a rated table");
    let seated: Vec<&str> = table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["user"].as_str().unwrap())
        .collect();
    assert_eq!(seated, vec![a_id.as_str(), e_id.as_str()]);
    assert_eq!(seated_push(&mut ws_anna).await, table["id"]);
    assert_eq!(seated_push(&mut ws_emma).await, table["id"]);

    // bruno, carla and dario still wait, each told the truth about who is left.
    let r = bruno.post("/api/pairing", duel(false, None)).await;
    assert_eq!(
        tally(&r),
        (1, 1, 1),
        "carla waits rated; dario's ±20 leaves bruno out"
    );
    let r = carla.post("/api/pairing", duel(true, None)).await;
    assert_eq!(tally(&r), (1, 1, 1), "dario's ±20 leaves carla out");
}

/// A casual ask is seated with casual asks only, and within the ranges.
#[tokio::test]
async fn casual_asks_meet_casual_asks_within_their_ranges() {
    let s = start_sqlite("pairing-range").await;
    let (mut a, _) = guest_rated(&s, None).await;
    let (mut b, _) = guest_rated(&s, Some(1700.0)).await;
    let (mut c, _) = guest_rated(&s, None).await;
    // Both at 1500: a range of 0 still meets an equal rating.
    let r = a
        .post(
            "/api/pairing",
            json!({"game": "pyramids", "players": 2, "clock": "normal", "range": 0}),
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
    let r = b
        .post(
            "/api/pairing",
            json!({"game": "pyramids", "players": 2, "clock": "normal"}),
        )
        .await;
    assert_eq!(r.status, 202, "200 points is outside a's range: {}", r.text);
    assert_eq!(r.body["out_of_range"], 1);
    let r = c
        .post(
            "/api/pairing",
            json!({"game": "pyramids", "players": 2, "clock": "normal"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["table"]["rated"], false);
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
    let id = duel_table(&mut a, &mut b).await;
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
