//! A table's chat (issue 27, item 4) over real WebSockets: the players' and spectators'
//! channels, limits and bad input, phrases, the replay, reports and `pyramidion moderation`'s
//! reading of them.
use crate::common::*;
use serde_json::{Value, json};

/// The next `chat` message (errors fail the test).
async fn next_chat(ws: &mut Socket) -> Value {
    loop {
        let m = ws.next().await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "chat" {
            return m["message"].clone();
        }
    }
}

/// The next error message.
async fn next_error(ws: &mut Socket) -> Value {
    ws.next_of("error").await
}

#[tokio::test]
async fn players_and_spectators_chat_on_their_channels_and_the_replay_keeps_it() {
    let s = start_sqlite("chat").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let mut watcher = Client::guest(&s).await;
    let id = duel_table(&mut a, &mut b).await;
    let (mut wa, mut wb, mut ww) = (a.socket().await, b.socket().await, watcher.socket().await);
    for ws in [&mut wa, &mut wb, &mut ww] {
        ws.subscribe(&id, None).await;
    }

    // A player's message reaches everyone, as plain text exactly as written.
    let text = "<b>hi</b> & <script>alert(1)</script>";
    wa.send(json!({"type": "chat", "game": id, "text": text}))
        .await;
    for ws in [&mut wa, &mut wb, &mut ww] {
        let m = next_chat(ws).await;
        assert_eq!(
            (m["channel"].as_str(), m["text"].as_str()),
            (Some("players"), Some(text))
        );
        assert_eq!(m["seat"], 0);
    }
    // A spectator's message reaches spectators only.
    ww.send(json!({"type": "chat", "game": id, "phrase": "good_luck"}))
        .await;
    let m = next_chat(&mut ww).await;
    assert_eq!(
        (m["channel"].as_str(), m["phrase"].as_str()),
        (Some("spectators"), Some("good_luck"))
    );
    assert_eq!(m["seat"], Value::Null);
    // A phrase is sent as its key; each reader's client says it in their language.
    wb.send(json!({"type": "chat", "game": id, "phrase": "good_game"}))
        .await;
    let m = next_chat(&mut wa).await;
    assert_eq!(
        (m["phrase"].as_str(), m["text"].as_str()),
        (Some("good_game"), None)
    );
    assert_eq!(next_chat(&mut ww).await["phrase"], "good_game");
    let m = next_chat(&mut wb).await;
    assert_eq!(
        m["phrase"], "good_game",
        "the players never got the spectators' message"
    );

    // Bad input: a clear error, nothing stored or sent.
    let long = "x".repeat(301);
    for (bad, code) in [
        (
            json!({"type": "chat", "game": id, "text": long}),
            "chat_too_long",
        ),
        (
            json!({"type": "chat", "game": id, "text": "   "}),
            "empty_chat",
        ),
        (
            json!({"type": "chat", "game": id, "phrase": "you_lose"}),
            "unknown_phrase",
        ),
        (
            json!({"type": "chat", "game": id, "text": "a", "phrase": "hello"}),
            "bad_request",
        ),
        (
            json!({"type": "chat", "game": id, "text": "two\nlines"}),
            "bad_request",
        ),
    ] {
        wa.send(bad).await;
        let e = next_error(&mut wa).await;
        assert_eq!(e["code"], code, "{e}");
    }
    // What each may read: players their channel, a spectator both.
    let mine = a.get(&format!("/api/games/{id}/chat")).await.body;
    assert_eq!(mine["messages"].as_array().unwrap().len(), 2, "{mine}");
    let theirs = watcher.get(&format!("/api/games/{id}/chat")).await.body;
    assert_eq!(theirs["messages"].as_array().unwrap().len(), 3, "{theirs}");

    // A report is stored for the operator (a player cannot report what they cannot read).
    // Found by content: messages of the same millisecond come in no set order.
    let find = |list: &Value, what: &dyn Fn(&Value) -> bool| {
        list["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| what(m))
            .and_then(|m| m["id"].as_str())
            .unwrap()
            .to_string()
    };
    let first = find(&mine, &|m| m["text"] == text);
    let spectators = find(&theirs, &|m| m["channel"] == "spectators");
    let r = b
        .post(&format!("/api/chat/{first}/report"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = b
        .post(&format!("/api/chat/{spectators}/report"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (404, "not_found"), "{}", r.text);
    let r = b.post("/api/chat/nope/report", json!({})).await;
    assert_eq!((r.status, r.code()), (404, "not_found"), "{}", r.text);
    let reports = pyramidion_server::live::chat::reports_at(&sqlite_url(&s.dir))
        .await
        .unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].message.text.as_deref(), Some(text));
    assert_eq!(reports[0].message.id, first);

    // Once over, the replay shows both channels.
    a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    let replay = a.get(&format!("/api/games/{id}/replay")).await.body;
    let said: Vec<Value> = replay["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!([m["channel"], m["text"], m["phrase"]]))
        .collect();
    assert_eq!(
        said,
        vec![
            json!(["players", text, null]),
            json!(["spectators", null, "good_luck"]),
            json!(["players", null, "good_game"]),
        ]
    );
}

#[tokio::test]
async fn chat_is_rate_limited_per_player() {
    let s = start_sqlite("chat-rate").await;
    let mut a = Client::guest(&s).await;
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}]});
    let id = a.post("/api/tables", body).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut ws = a.socket().await;
    ws.subscribe(&id, None).await;
    for i in 0..5 {
        ws.send(json!({"type": "chat", "game": id, "text": format!("m{i}")}))
            .await;
        assert_eq!(next_chat(&mut ws).await["text"], format!("m{i}"));
    }
    ws.send(json!({"type": "chat", "game": id, "text": "one too many"}))
        .await;
    assert_eq!(next_error(&mut ws).await["code"], "chat_rate_limited");
    let stored = a.get(&format!("/api/games/{id}/chat")).await.body;
    assert_eq!(stored["messages"].as_array().unwrap().len(), 5);
}

/// Issue 54: a finished game took chat for ever (its record grew after it ended).
#[tokio::test]
async fn a_finished_game_takes_no_chat() {
    let s = start_sqlite("chat-finished").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let id = duel_table(&mut a, &mut b).await;
    let mut wa = a.socket().await;
    wa.subscribe(&id, None).await;
    wa.send(json!({"type": "chat", "game": id, "text": "good luck"}))
        .await;
    assert_eq!(next_chat(&mut wa).await["text"], "good luck");
    let r = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Players and a spectator alike are refused, and nothing is stored.
    let mut watcher = Client::guest(&s).await;
    let mut ww = watcher.socket().await;
    ww.subscribe(&id, None).await;
    for ws in [&mut wa, &mut ww] {
        ws.send(json!({"type": "chat", "game": id, "text": "too late"}))
            .await;
        let e = next_error(ws).await;
        assert_eq!(
            (e["code"].as_str(), e["game"].as_str()),
            (Some("game_over"), Some(id.as_str())),
            "{e}"
        );
    }
    let stored = watcher.get(&format!("/api/games/{id}/chat")).await.body;
    assert_eq!(stored["messages"].as_array().unwrap().len(), 1, "{stored}");
}

/// Issue 54: chat had a rate per game but no bound per user (1.5 GB a day from one guest, a
/// few messages in each of many games).
#[tokio::test]
async fn chat_is_capped_per_user_and_day_across_games() {
    let s = start_sqlite_with("chat-daily", |c| c.limits.chat_per_day = 3).await;
    let mut a = Client::guest(&s).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let body = json!({"game": "pyramids", "options": {"players": 2},
                          "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}]});
        let r = a.post("/api/tables", body).await;
        assert_eq!(r.status, 201, "{}", r.text);
        ids.push(r.body["id"].as_str().unwrap().to_string());
    }
    let mut ws = a.socket().await;
    for id in &ids {
        ws.subscribe(id, None).await;
    }
    for (id, text) in [(&ids[0], "one"), (&ids[1], "two"), (&ids[0], "three")] {
        ws.send(json!({"type": "chat", "game": id, "text": text}))
            .await;
        assert_eq!(next_chat(&mut ws).await["text"], text);
    }
    for id in &ids {
        ws.send(json!({"type": "chat", "game": id, "text": "four"}))
            .await;
        let e = next_error(&mut ws).await;
        assert_eq!(e["code"], "chat_daily_cap", "{e}");
    }
    let mut stored = 0;
    for id in &ids {
        stored += a.get(&format!("/api/games/{id}/chat")).await.body["messages"]
            .as_array()
            .unwrap()
            .len();
    }
    assert_eq!(stored, 3, "nothing past the cap is stored");
    // Another user is not held back by it.
    let b = Client::guest(&s).await;
    let mut wb = b.socket().await;
    wb.subscribe(&ids[0], None).await;
    wb.send(json!({"type": "chat", "game": ids[0], "phrase": "hello"}))
        .await;
    assert_eq!(next_chat(&mut wb).await["phrase"], "hello");
}

/// Issue 54: reports are bounded over 24 hours, per user (a guest far fewer than an account)
/// and per client address (guests made from one address are one reporter), and each says
/// whether a guest made it, for the operator to weigh.
#[tokio::test]
async fn reports_are_bounded_per_user_and_per_address_and_say_who_made_them() {
    let s = start_sqlite_with("chat-reports", |c| {
        c.limits.guest_reports_per_day = 2;
        c.limits.reports_per_day = 3;
        c.limits.reports_per_address = 4;
    })
    .await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let id = duel_table(&mut a, &mut b).await;
    let mut wa = a.socket().await;
    wa.subscribe(&id, None).await;
    for i in 0..5 {
        wa.send(json!({"type": "chat", "game": id, "text": format!("message {i}")}))
            .await;
        next_chat(&mut wa).await;
    }
    let log = b.get(&format!("/api/games/{id}/chat")).await.body;
    let ids: Vec<String> = log["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 5, "{log}");
    async fn report(c: &mut Client, m: &str) -> Reply {
        c.post(&format!("/api/chat/{m}/report"), json!({})).await
    }
    // A guest: two reports, then no more.
    for m in &ids[..2] {
        assert_eq!(report(&mut b, m).await.status, 200);
    }
    let r = report(&mut b, &ids[2]).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "{}", r.text);
    // An account from the same address: its own cap is higher, but the address has made
    // four reports after its second.
    let mut carol = crate::common::after_game_scenarios::account(&s, "carol_reports").await;
    for m in &ids[2..4] {
        let r = report(&mut carol, m).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let r = report(&mut carol, &ids[4]).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "{}", r.text);
    assert!(r.text.contains("address"), "{}", r.text);
    // A fresh guest from that address has nothing left either.
    let mut fresh = Client::guest(&s).await;
    let r = report(&mut fresh, &ids[4]).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "{}", r.text);
    let reports = pyramidion_server::live::chat::reports_at(&sqlite_url(&s.dir))
        .await
        .unwrap();
    let mut guests: Vec<bool> = reports.iter().map(|r| r.by_guest).collect();
    guests.sort();
    assert_eq!(guests, [false, false, true, true]);
}
