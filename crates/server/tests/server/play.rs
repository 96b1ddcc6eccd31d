//! Live play over WebSockets with real clients: canonical move texts, a subscriber dropped for
//! lagging told so, a finished game replayed once.
use crate::common::*;
use pyramidion_core::record::Record;
use pyramidion_core::{Rules, Seat};
use pyramidion_games::treasures::Game;
use pyramidion_server::db::rows::{GameRow, SeatKind};
use pyramidion_server::db::store::Store;
use pyramidion_server::db::writer::WriterOptions;
use pyramidion_server::live::protocol::ServerMsg;
use pyramidion_server::live::room::{Room, RoomSetup};
use pyramidion_server::live::room_cmd::RoomCmd;
use pyramidion_server::metrics::Metrics;
use pyramidion_server::queue;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::test]
async fn four_player_game_with_three_bots_to_the_end() {
    let s = start_sqlite("four").await;
    let mut c = Client::guest(&s).await;
    let seats = json!([{"type": "bot", "level": "greedy"}, {"type": "me"}, {"type": "bot", "level": "random"}, {"type": "bot", "level": "greedy"}]);
    let t = c
        .create_table("forgotten-treasures", json!({"players": 4}), seats)
        .await;
    assert_eq!(t.body["status"], "live", "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let state = ws.subscribe(&id, None).await;
    assert_eq!(state["seat"], 1);
    let done = ws.play_out(&id, state, 7).await;
    assert_eq!(done["outcome"]["scores"].as_array().unwrap().len(), 4);
    // Every state this seat received has a state id one more than the one before (no gap,
    // no duplicate) from its subscription on.
    let ids: Vec<u64> = ws
        .log
        .iter()
        .filter(|m| m["type"] == "state")
        .map(|m| m["state_id"].as_u64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[1] == w[0] + 1), "{ids:?}");
    let games = c.get("/api/me/games").await;
    assert_eq!(games.body["games"][0]["status"], "finished");
    leak_check(&mut c, &id, &ws.log, Some(1)).await;
}

#[tokio::test]
async fn solo_against_the_legend_to_the_end() {
    let s = start_sqlite("solo").await;
    scenarios::solo_game(&s).await;
}

/// Replays the finished game and checks that no message the seat received showed the front of
/// a domino hidden at that moment, or the seed.
async fn leak_check(c: &mut Client, id: &str, log: &[Value], seat: Option<u8>) {
    let r = c.get(&format!("/api/games/{id}/record?format=text")).await;
    let record = Record::parse(&r.text).unwrap();
    let mut states: Vec<Game> = Vec::new();
    let mut game: Game = record.replay_prefix(Some(0)).unwrap();
    states.push(game.clone());
    for m in &record.moves {
        game.play(&m.parse().unwrap()).unwrap();
        states.push(game.clone());
    }
    let seed = record.seed.to_string();
    let mut checked = 0;
    for msg in log {
        let text = msg.to_string();
        assert!(!text.contains(&seed), "a message contains the seed: {text}");
        assert!(
            !text.contains("\"rng\"") && !text.contains("\"bag\""),
            "{text}"
        );
        if msg["type"] != "state" {
            continue;
        }
        let at = &states[msg["state_id"].as_u64().unwrap() as usize];
        assert_eq!(msg["seat"].as_u64().map(|s| s as u8), seat);
        let hidden: Vec<u64> = at.hidden_dominoes().map(u64::from).collect();
        let mut ids = Vec::new();
        collect(&msg["view"], &mut ids);
        assert!(
            ids.iter().all(|i| !hidden.contains(i)),
            "hidden domino shown at state {}",
            msg["state_id"]
        );
        // The view is exactly the engine's view for that seat.
        assert_eq!(
            msg["view"],
            serde_json::to_value(at.view(seat.map(Seat))).unwrap()
        );
        checked += 1;
    }
    assert!(checked > 10);
}

fn collect(v: &Value, out: &mut Vec<u64>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "id" || k == "domino" || k == "dominoes" {
                    match v {
                        Value::Number(n) => out.push(n.as_u64().unwrap()),
                        Value::Array(a) => out.extend(a.iter().filter_map(Value::as_u64)),
                        _ => {}
                    }
                }
                collect(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
        _ => {}
    }
}

#[tokio::test]
async fn illegal_stale_and_out_of_turn_moves_are_refused_without_change() {
    let s = start_sqlite("refusals").await;
    let mut ann = Client::guest(&s).await;
    let mut bob = Client::guest(&s).await;
    let t = ann
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        bob.post(&format!("/api/tables/{id}/join"), json!({}))
            .await
            .status,
        200
    );
    let mut a = ann.socket().await;
    let mut b = bob.socket().await;
    let sa = a.subscribe(&id, None).await;
    let sb = b.subscribe(&id, None).await;
    assert_eq!(
        (sa["seat"].as_u64(), sb["seat"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(sa["to_move"], 0);
    assert!(
        sb["legal"].as_array().unwrap().is_empty(),
        "no legal moves shown out of turn"
    );
    // Out of turn.
    b.play(&id, 0, sa["legal"][0]["text"].as_str().unwrap())
        .await;
    let e = b.next_of("error").await;
    assert_eq!(
        (e["code"].as_str(), e["state_id"].as_u64()),
        (Some("not_your_turn"), Some(0))
    );
    // Illegal (a placement during the take step), with the engine's reason.
    a.play(&id, 0, "place e5 E").await;
    let e = a.next_of("error").await;
    assert_eq!(
        (e["code"].as_str(), e["reason"].as_str()),
        (Some("illegal_move"), Some("wrong_phase"))
    );
    a.play(&id, 0, "teleport").await;
    let e = a.next_of("error").await;
    assert_eq!(
        (e["code"].as_str(), e["reason"].as_str()),
        (Some("illegal_move"), Some("bad_move_syntax"))
    );
    // Stale.
    a.play(&id, 5, sa["legal"][0]["text"].as_str().unwrap())
        .await;
    let e = a.next_of("error").await;
    assert_eq!(e["code"], "stale_state");
    // Nothing changed: a fresh subscription shows state 0 and the same view.
    let again = a.subscribe(&id, None).await;
    assert_eq!(again["state_id"], 0);
    assert_eq!(again["view"], sa["view"]);
    // A legal move goes through and both players see it.
    a.play(&id, 0, sa["legal"][0]["text"].as_str().unwrap())
        .await;
    let s1 = a.state_at_least(&id, 1).await;
    let s1b = b.state_at_least(&id, 1).await;
    // Both see the move with its text and structured form, numbered and attributed.
    let mut expected = sa["legal"][0].clone();
    expected["ply"] = json!(0);
    expected["seat"] = json!(0);
    assert_eq!(
        (s1["last_move"].clone(), s1b["last_move"].clone()),
        (expected.clone(), expected)
    );
    // Malformed messages and unknown games.
    a.send_text("{\"type\": \"fly\"}").await;
    assert_eq!(a.next_of("error").await["code"], "bad_request");
    a.send_text("not json").await;
    assert_eq!(a.next_of("error").await["code"], "bad_request");
    a.send(json!({"type": "subscribe", "game": "nope"})).await;
    assert_eq!(a.next_of("error").await["code"], "not_found");
    // A spectator (no seat) sees the public view and cannot move.
    let mut spectator = Client::guest(&s).await.socket().await;
    let sv = spectator.subscribe(&id, None).await;
    assert!(sv["seat"].is_null());
    assert!(sv["legal"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn reconnect_resumes_from_the_last_event() {
    let s = start_sqlite("resume").await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "a-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    let mut state = ws.subscribe(&id, None).await;
    for _ in 0..3 {
        let id_now = state["state_id"].as_u64().unwrap();
        ws.play(&id, id_now, state["legal"][0]["text"].as_str().unwrap())
            .await;
        state = ws.state_at_least(&id, id_now + 1).await;
    }
    let seen = state["state_id"].as_u64().unwrap();
    drop(ws);
    // Meanwhile, from another connection of the same player, two more moves.
    let mut other = c.socket().await;
    let mut s2 = other.subscribe(&id, None).await;
    let mut played = Vec::new();
    for _ in 0..2 {
        let id_now = s2["state_id"].as_u64().unwrap();
        let m = s2["legal"][0]["text"].as_str().unwrap().to_string();
        other.play(&id, id_now, &m).await;
        played.push(m);
        s2 = other.state_at_least(&id, id_now + 1).await;
    }
    let mut back = c.socket().await;
    let resumed = back.subscribe(&id, Some(seen)).await;
    assert_eq!(resumed["state_id"].as_u64(), Some(seen + 2));
    let missed: Vec<&str> = resumed["missed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(missed, played);
    assert_eq!(resumed["view"], s2["view"]);
}

#[tokio::test]
async fn websocket_from_another_origin_is_refused() {
    let s = start_sqlite("origin").await;
    let c = Client::guest(&s).await;
    let url = format!("ws://{}/ws", s.addr);
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.clone().into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    req.headers_mut()
        .insert("cookie", c.cookie.clone().unwrap().parse().unwrap());
    let err = tokio_tungstenite::connect_async(req).await.unwrap_err();
    assert!(err.to_string().contains("403"), "{err}");
    let mut ok = url.into_client_request().unwrap();
    ok.headers_mut()
        .insert("origin", format!("http://{}", s.addr).parse().unwrap());
    assert!(tokio_tungstenite::connect_async(ok).await.is_ok());
}

#[tokio::test]
async fn websocket_rate_limit_and_oversized_messages() {
    let dir = temp_dir("wslimit");
    let s = start(sqlite_url(&dir), |c| {
        c.ws_messages_per_second = 0.001;
        c.ws_burst = 3.0;
    })
    .await;
    let c = Client::guest(&s).await;
    let mut ws = c.socket().await;
    for i in 0..5 {
        ws.send(json!({"type": "ping", "id": i})).await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    while pongs + limited < 5 {
        let m = ws.next().await;
        match m["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if m["code"] == "rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert_eq!((pongs, limited), (3, 2));
    // A message over 16 KiB closes the connection instead of being read.
    let mut ws = c.socket().await;
    assert_eq!(ws.next().await["type"], "hello");
    ws.send_text(&"x".repeat(40_000)).await;
    let closed = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        futures_util::StreamExt::next(&mut ws.ws),
    )
    .await
    .unwrap();
    assert!(
        matches!(
            closed,
            None | Some(Err(_)) | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)))
        ),
        "{closed:?}"
    );
}

#[tokio::test]
async fn a_clock_running_out_lets_a_bot_play_and_tells_everyone() {
    let profiles = pyramidion_server::time_control::parse_profiles("tiny=1").unwrap();
    let s = start(sqlite_url(&temp_dir("clock")), |c| c.clocks = profiles).await;
    let mut c = Client::guest(&s).await;
    let body = json!({"game": "forgotten-treasures", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}], "clock": "tiny"});
    let t = c.post("/api/tables", body).await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut ws = c.socket().await;
    ws.subscribe(&id, None).await;
    let notice = ws.next_of("notice").await;
    assert_eq!(
        (notice["kind"].as_str(), notice["seat"].as_u64()),
        (Some("timeout_bot_move"), Some(0))
    );
    let state = ws
        .log
        .iter()
        .find(|m| m["type"] == "state" && m["state_id"] == 1)
        .expect("state 1 was sent");
    assert_eq!(state["last_move"], notice["move"]);
}

/// Every registered game (the demonstration game too, when CI turns its feature on) is listed,
/// served and played to the end against a bot, with nothing in the server naming it.
#[tokio::test]
async fn every_registered_game_is_served_and_played_against_a_bot() {
    let s = start_sqlite("every-game").await;
    let mut c = Client::guest(&s).await;
    let listed = c.get("/api/games").await;
    let keys: Vec<String> = listed.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["key"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(keys, pyramidion_games::GameKind::keys());
    for key in keys {
        let seats = json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]);
        let t = c.create_table(&key, json!({"players": 2}), seats).await;
        assert_eq!(t.body["status"], "live", "{key}: {}", t.text);
        let id = t.body["id"].as_str().unwrap().to_string();
        let mut ws = c.socket().await;
        let state = ws.subscribe(&id, None).await;
        let done = ws.play_out(&id, state, 11).await;
        assert_eq!(
            done["outcome"]["scores"].as_array().unwrap().len(),
            2,
            "{key}"
        );
        let record = c.get(&format!("/api/games/{id}/record?format=text")).await;
        assert!(record.text.contains(&key), "{key}: {}", record.text);
    }
}

#[tokio::test]
async fn the_canonical_move_text_is_stored_and_long_texts_are_refused() {
    let s = start_sqlite("canonical").await;
    let mut c = Client::guest(&s).await;
    let game = solo_table(&mut c).await;
    let mut ws = c.socket().await;
    let state = ws.subscribe(&game, None).await;
    let legal = state["legal"][0]["text"].as_str().unwrap().to_string();
    assert!(legal.contains(' '), "{legal}");
    // Padded, with newlines and runs of spaces: played, stored as the engine writes it.
    let typed = format!("  {}\n", legal.replace(' ', " \t\n  "));
    ws.play(&game, 0, &typed).await;
    let next = ws.state_at_least(&game, 1).await;
    assert_eq!(next["last_move"]["text"], legal.as_str());
    let record = c.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(record.body["moves"], json!([legal]), "{}", record.text);
    // Too long: refused before the rules see it.
    let long = format!(
        "{}{}",
        next["legal"][0]["text"].as_str().unwrap(),
        " ".repeat(200)
    );
    ws.play(&game, 1, &long).await;
    let e = ws.next_of("error").await;
    assert_eq!(
        (e["code"].as_str(), e["state_id"].as_u64()),
        (Some("bad_request"), Some(1)),
        "{e}"
    );
    let record = c.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(record.body["moves"].as_array().unwrap().len(), 1);
}

fn as_json(msg: ServerMsg) -> Value {
    serde_json::to_value(msg).unwrap()
}

#[tokio::test]
async fn a_subscriber_dropped_for_lagging_is_told_and_can_resubscribe() {
    let dir = temp_dir("lagging");
    let metrics = Arc::<Metrics>::default();
    let store = Store::open(&sqlite_url(&dir), metrics.clone(), WriterOptions::default())
        .await
        .unwrap();
    let options = json!({"players": 1, "solo": "the-legend"});
    let seats = vec![SeatKind::Human("u".into())];
    let row = GameRow {
        id: "g".into(),
        kind: "forgotten-treasures".parse().unwrap(),
        options: options.to_string(),
        seed: 7,
        status: pyramidion_server::game_status::GameStatus::Live,
        listed: true,
        invite: "i".into(),
        clock: None,
        clock_state: None,
        to_move: None,
        created_by: "u".into(),
        result: None,
        created_at: 0,
        rated: false,
        finished_at: None,
    };
    store.create_game(&row, &seats).await.unwrap();
    let game = pyramidion_games::AnyGame::new("forgotten-treasures".parse().unwrap(), &options, 7)
        .unwrap();
    let idle = Duration::from_secs(3600);
    let room = Room::spawn(RoomSetup {
        id: "g".into(),
        game,
        moves: Vec::new(),
        undos: 0,
        seats,
        seed: 7,
        clock: None,
        store: Arc::new(store),
        wall: Default::default(),
        metrics,
        hub: Arc::default(),
        idle_after: idle,
        bot_pace: Duration::ZERO,
        bots: Arc::new(pyramidion_server::live::bot_pool::BotPool::new(1)),
        owner: "u".into(),
        reveal_at_end: true,
        sealed: None,
        resigned: Vec::new(),
        ending: None,
        absent: None,
        lease: None,
    });
    // A spectator whose queue holds one message, which it does not read yet.
    let (slow, mut slow_rx) = queue::channel(1);
    let (player, mut player_rx) = queue::channel(64);
    for (conn, user, out) in [(1, None, slow), (2, Some("u".to_string()), player)] {
        room.tx
            .send(RoomCmd::Subscribe {
                conn,
                user,
                out,
                last_event: None,
            })
            .await
            .unwrap();
    }
    let first = as_json(player_rx.recv().await.unwrap());
    let mv = first["legal"][0]["text"].as_str().unwrap().to_string();
    room.tx
        .send(RoomCmd::Move {
            conn: 2,
            user: "u".into(),
            state_id: 0,
            text: mv.clone(),
            received: Instant::now(),
        })
        .await
        .unwrap();
    assert_eq!(as_json(player_rx.recv().await.unwrap())["state_id"], 1);
    // The spectator's queue was full when the move was published: it was dropped, and is
    // told so once it reads again.
    let queued = as_json(slow_rx.recv().await.unwrap());
    assert_eq!(
        (queued["type"].as_str(), queued["state_id"].as_u64()),
        (Some("state"), Some(0))
    );
    let told = as_json(slow_rx.recv().await.unwrap());
    assert_eq!(told["type"], "error", "{told}");
    assert_eq!(told["code"], "lagging", "{told}");
    assert_eq!(told["game"], "g");
    // It resubscribes with its last event and gets what it missed.
    let (again, mut again_rx) = queue::channel(8);
    room.tx
        .send(RoomCmd::Subscribe {
            conn: 1,
            user: None,
            out: again,
            last_event: Some(0),
        })
        .await
        .unwrap();
    let state = as_json(again_rx.recv().await.unwrap());
    assert_eq!(state["state_id"], 1);
    assert_eq!(state["missed"][0]["text"], json!(mv));
    assert_eq!(state["missed"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn a_finished_game_is_replayed_once() {
    let s = start_sqlite("finished-cache").await;
    let mut c = Client::guest(&s).await;
    let game = solo_table(&mut c).await;
    {
        let mut ws = c.socket().await;
        let state = ws.subscribe(&game, None).await;
        ws.play_out(&game, state, 3).await;
    }
    let room_ended = |mut c: Client| async move {
        for _ in 0..2000 {
            if metric(&mut c, "pyramidion_games_live").await == 0 {
                return c;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the finished game's room never ended");
    };
    let mut c = room_ended(c).await;
    let before = metric(&mut c, "pyramidion_replays_total").await;
    for _ in 0..3 {
        {
            let mut ws = c.socket().await;
            let state = ws.subscribe(&game, None).await;
            assert_eq!(state["finished"], true);
        }
        c = room_ended(c).await;
    }
    assert_eq!(metric(&mut c, "pyramidion_replays_total").await, before + 1);
}
