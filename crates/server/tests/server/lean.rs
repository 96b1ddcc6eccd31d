//! A lean, honest instance (issue 28, item 5): overload is answered `503 unavailable` with
//! `Retry-After` (HTTP) or an `unavailable` error (WebSocket), never hidden; after a
//! subscription's whole state, each move reaches a subscriber as a patch of the view it last
//! got, which rebuilds exactly the state a fresh subscription shows that seat.
use crate::common::*;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Waits (up to `seconds`: a bound on a hang, not a speed requirement) until `counter` is
/// `value`.
async fn until_counter(counter: &std::sync::atomic::AtomicU64, value: u64, seconds: u64) {
    for _ in 0..seconds * 100 {
        if counter.load(Ordering::Relaxed) == value {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the counter never became {value}");
}

fn solo() -> (Value, Value) {
    (
        json!({"players": 1, "solo": "the-legend"}),
        json!([{"type": "me"}]),
    )
}

#[tokio::test]
async fn at_the_connection_cap_a_request_is_answered_503_with_retry_after() {
    let s = start_sqlite_with("lean-connections", |c| c.limits.max_connections = 2).await;
    // No request first: a client's kept-alive connection would hold one of the two.
    let c = Client::new(&s);
    // Two WebSockets hold the two connections (each until it closes).
    let first = c.socket().await;
    let _second = c.socket().await;
    // Bounded: a server that left the request waiting would hang the test, not fail it.
    let answer = tokio::time::timeout(
        Duration::from_secs(20),
        reqwest::Client::new()
            .get(format!("{}/healthz", s.base))
            .send(),
    )
    .await
    .expect("answered, not left waiting")
    .unwrap();
    assert_eq!(answer.status().as_u16(), 503);
    let retry = answer.headers().get("retry-after").expect("Retry-After");
    assert!(retry.to_str().unwrap().parse::<u64>().unwrap() > 0);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
    // A WebSocket handshake over the cap gets the same answer.
    let url = format!("{}/ws", s.base.replacen("http", "ws", 1));
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status().as_u16(), 503);
            assert!(r.headers().contains_key("retry-after"));
        }
        other => panic!("a WebSocket over the cap must be refused 503: {other:?}"),
    }
    // A closed socket gives its connection back: the next request is served.
    drop(first);
    let mut served = false;
    for _ in 0..200 {
        let r = reqwest::Client::new()
            .get(format!("{}/healthz", s.base))
            .send()
            .await
            .unwrap();
        if r.status().as_u16() == 200 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(served, "a freed connection is served again");
}

#[tokio::test]
async fn at_the_live_games_cap_new_games_are_503_and_sockets_told_unavailable() {
    let s = start_sqlite_with("lean-live-games", |c| {
        c.limits.max_live_games = 1;
        c.limits.room_idle = Duration::from_millis(100);
    })
    .await;
    let (options, seats) = solo();
    let mut a = Client::guest(&s).await;
    let first = a
        .create_table("forgotten-treasures", options.clone(), seats.clone())
        .await;
    assert_eq!(first.status, 201, "{}", first.text);
    let first = first.body["id"].as_str().unwrap().to_string();
    // Nobody follows it: it leaves memory.
    until_counter(&s.state.metrics.games_live, 0, 20).await;
    let mut b = Client::guest(&s).await;
    let second = b
        .create_table("forgotten-treasures", options.clone(), seats.clone())
        .await;
    assert_eq!(second.status, 201, "{}", second.text);
    let second = second.body["id"].as_str().unwrap().to_string();
    // Followed: it stays in memory (rebuilt by the subscription if it had left).
    let mut bws = b.socket().await;
    bws.subscribe(&second, None).await;
    assert_eq!(s.state.metrics.games_live.load(Ordering::Relaxed), 1);
    // At the cap: a new game is refused 503 with Retry-After…
    let r = a
        .http
        .post(format!("{}/api/tables", s.base))
        .header("cookie", a.cookie.clone().unwrap())
        .json(&json!({"game": "forgotten-treasures", "options": options, "seats": seats}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 503);
    assert!(r.headers().contains_key("retry-after"));
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
    // …and a game out of memory is not brought back: the socket is told why.
    let mut aws = a.socket().await;
    aws.send(json!({"type": "subscribe", "game": first})).await;
    let refused = aws.next_of("error").await;
    assert_eq!(refused["code"], "unavailable", "{refused}");
    assert_eq!(refused["game"], first.as_str());
    // A move on it gets the same answer (nothing is played).
    aws.play(&first, 0, "flip 1").await;
    let refused = aws.next_of("error").await;
    assert_eq!(refused["code"], "unavailable", "{refused}");
    // Under the cap again, it is served.
    bws.send(json!({"type": "unsubscribe", "game": second}))
        .await;
    until_counter(&s.state.metrics.games_live, 0, 20).await;
    let state = aws.subscribe(&first, None).await;
    assert_eq!(state["state_id"], 0);
}

/// Plays a two-player game of `game` to its end; after every move each player and a
/// spectator rebuild the state from a patch, and each must equal what a fresh subscription
/// of the same user shows (hidden information included: each view is the seat's own).
async fn patches_rebuild_fresh_states(game: &str, options: Value) {
    let s = start_sqlite_with(&format!("lean-patches-{game}"), |c| {
        c.http_per_second = 1e6;
        c.http_burst = 1e6;
    })
    .await;
    let mut host = Client::guest(&s).await;
    let t = host
        .create_table(game, options, json!([{"type": "me"}, {"type": "open"}]))
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut guest = Client::guest(&s).await;
    let r = guest
        .post(&format!("/api/tables/{id}/join"), json!({}))
        .await;
    assert_eq!(r.body["status"], "live", "{}", r.text);
    let watcher = Client::guest(&s).await;
    let people = [host, guest, watcher];
    let mut sockets = Vec::new();
    let mut states = Vec::new();
    for p in &people {
        let mut ws = p.socket().await;
        states.push(ws.subscribe(&id, None).await);
        sockets.push(ws);
    }
    let mut rng = 7u64;
    loop {
        let id_now = states[0]["state_id"].as_u64().unwrap();
        if states[0]["finished"] == true {
            break;
        }
        let mover = (0..2)
            .find(|&i| !states[i]["legal"].as_array().unwrap().is_empty())
            .expect("a player is to move");
        let legal = states[mover]["legal"].as_array().unwrap();
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(rng >> 33) as usize % legal.len()]["text"]
            .as_str()
            .unwrap()
            .to_string();
        sockets[mover].play(&id, id_now, &mv).await;
        for (i, ws) in sockets.iter_mut().enumerate() {
            states[i] = ws.state_at_least(&id, id_now + 1).await;
            if states[i]["finished"] == true {
                continue;
            }
            // A fresh subscription of the same user: the whole state, which the patch must
            // have rebuilt exactly.
            let mut fresh = people[i].socket().await;
            let whole = fresh.subscribe(&id, None).await;
            let mut rebuilt = states[i].clone();
            rebuilt["clock"] = whole["clock"].clone();
            assert_eq!(rebuilt, whole, "seat {i} after move {}", id_now + 1);
        }
    }
    let patched: usize = sockets.iter().map(|ws| ws.patches).sum();
    assert!(patched > 0, "no state was rebuilt from a patch");
}

#[tokio::test]
async fn patches_rebuild_each_seats_own_state_in_forgotten_treasures() {
    patches_rebuild_fresh_states("forgotten-treasures", json!({"players": 2})).await;
}

#[tokio::test]
async fn patches_rebuild_each_seats_own_state_in_pyramids() {
    patches_rebuild_fresh_states("pyramids", json!({"players": 2})).await;
}

#[tokio::test]
async fn a_socket_that_asks_gets_large_messages_deflated() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
    let s = start_sqlite("lean-deflate").await;
    let (options, seats) = solo();
    let mut c = Client::guest(&s).await;
    let t = c.create_table("forgotten-treasures", options, seats).await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let url = format!("{}/ws?deflate=1", s.base.replacen("http", "ws", 1));
    let mut req = url.into_client_request().unwrap();
    req.headers_mut()
        .insert("cookie", c.cookie.clone().unwrap().parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let hello = loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")
            .unwrap()
            .unwrap();
        if !matches!(m, Message::Ping(_)) {
            break m;
        }
    };
    let Message::Text(hello) = hello else {
        panic!("a small message stays text: {hello:?}");
    };
    assert!(hello.contains(r#""type":"hello""#), "{hello}");
    let sub = json!({"type": "subscribe", "game": id}).to_string();
    ws.send(Message::Text(sub.into())).await.unwrap();
    let mut state = None;
    let mut bytes = None;
    for _ in 0..10 {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if let Message::Binary(b) = m {
            let v: Value =
                serde_json::from_str(&pyramidion_server::live::wire::inflate(&b).unwrap()).unwrap();
            if v["type"] == "state" {
                bytes = Some(b.len());
                state = Some(v);
                break;
            }
        }
    }
    let state = state.expect("the state comes deflated");
    let text_len = state.to_string().len();
    assert!(
        bytes.unwrap() < text_len,
        "deflated is smaller than its text"
    );
    // The same state as a socket without deflate gets.
    let mut plain = c.socket().await;
    let whole = plain.subscribe(&id, None).await;
    assert_eq!(state, whole);
}
