//! Playing with people on any backend (issue 27): a resignation that ends a rated game and
//! moves ratings, chat stored and reported, quick pairing, the Watch list and the sweep that
//! abandons games against bots: every query these run is portable SQL.
use super::*;

pub async fn people(server: &TestServer) {
    let mut a = Client::guest(server).await;
    let mut b = Client::guest(server).await;
    // Quick pairing seats them at a rated table (both ask rated).
    // A rated pairing needs a clock, as a rated table does.
    let ask =
        json!({"game": "pyramids", "players": 2, "clock": "day", "rated": true, "range": 400});
    assert_eq!(a.post("/api/pairing", ask.clone()).await.status, 202);
    let seated = b.post("/api/pairing", ask).await;
    assert_eq!(seated.status, 201, "{}", seated.text);
    let id = seated.body["table"]["id"].as_str().unwrap().to_string();
    // It is on the Watch list, with ratings.
    let watch = a.get("/api/watch?sort=rated").await;
    assert_eq!(watch.status, 200, "{}", watch.text);
    assert!(
        watch.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );
    // Chat: sent, stored, read back, reported.
    let mut ws = a.socket().await;
    ws.subscribe(&id, None).await;
    ws.send(json!({"type": "chat", "game": id, "text": "hello <you>"}))
        .await;
    let said = ws.next_of("chat").await;
    assert_eq!(said["message"]["text"], "hello <you>");
    let listed = b.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(
        listed.body["messages"].as_array().unwrap().len(),
        1,
        "{}",
        listed.text
    );
    let msg = said["message"]["id"].as_str().unwrap();
    assert_eq!(
        b.post(&format!("/api/chat/{msg}/report"), json!({}))
            .await
            .status,
        200
    );
    assert_eq!(
        b.post(&format!("/api/chat/{msg}/report"), json!({}))
            .await
            .status,
        200
    );
    // b resigns: the game ends, rated as a loss for b, stored with its ending.
    let r = b.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.body["ended"], true, "{}", r.text);
    let history = b.get("/api/me/games").await.body;
    let mine = &history["games"][0];
    assert_eq!(mine["result"]["ending"], "resigned");
    assert!(
        mine["mine"]["rating"]["after"].as_f64().unwrap() < 1500.0,
        "{mine}"
    );
    let replay = a.get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(
        replay.body["chat"].as_array().unwrap().len(),
        1,
        "{}",
        replay.text
    );
    // A game against bots, untouched for 15 days, is abandoned by the sweep.
    let t = a
        .create_table(
            "pyramids",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]),
        )
        .await;
    let bots = t.body["id"].as_str().unwrap().to_string();
    server
        .state
        .sweep(pyramidion_server::wall_clock::now_ms() + 15 * 24 * 3600 * 1000)
        .await;
    let row = server.state.store.game(&bots).await.unwrap().unwrap();
    assert_eq!(row.status, "finished");
}
