//! Every HTTP endpoint, including bad input, each answered with its documented error.
use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn health_metrics_and_static_client() {
    let s = start_sqlite("health").await;
    let mut c = Client::new(&s);
    let r = c.get("/healthz").await;
    assert_eq!((r.status, r.text.as_str()), (200, "ok"));
    let r = c.get("/metrics").await;
    assert!(
        r.text.contains("pyramidion_games_live")
            && r.text.contains("pyramidion_move_latency_seconds_bucket"),
        "{}",
        r.text
    );
    let r = c.get("/").await;
    assert_eq!(r.status, 200);
    assert!(r.text.contains("<html"));
    let r = c.get("/no/such/file.js").await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    // The client's unit tests are in `web/` but not part of the site.
    let r = c.get("/js/patch.js").await;
    assert_eq!(r.status, 200);
    for path in ["/tests/patch.test.js", "/package.json", "/jsconfig.json"] {
        let r = c.get(path).await;
        assert_eq!((r.status, r.code()), (404, "not_found"), "{path}");
    }
    let r = c.get("/api/games").await;
    assert!(
        r.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["key"] == "forgotten-treasures"),
        "{}",
        r.text
    );
}

#[tokio::test]
async fn accounts_and_guests() {
    let s = start_sqlite("accounts").await;
    scenarios::accounts(&s).await;
}

#[tokio::test]
async fn bad_input_gets_documented_errors() {
    let s = start_sqlite("bad-input").await;
    let mut c = Client::guest(&s).await;
    let r = c
        .post_raw("/api/register", "{not json", "application/json")
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let r = c
        .post("/api/register", json!({"name": 12, "password": "x"}))
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"));
    let r = c
        .post(
            "/api/register",
            json!({"name": "ok_name", "password": "x", "extra": 1}),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"));
    let r = c
        .post(
            "/api/register",
            json!({"name": "a", "password": "long enough"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_name"));
    let r = c
        .post("/api/register", json!({"name": "abc", "password": "short"}))
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_password"));
    let big = format!(
        "{{\"name\": \"{}\", \"password\": \"x\"}}",
        "a".repeat(20_000)
    );
    let r = c.post_raw("/api/register", big, "application/json").await;
    assert_eq!(
        (r.status, r.code()),
        (413, "payload_too_large"),
        "{}",
        r.text
    );
    let r = c
        .post_raw(
            "/api/register",
            "name=x",
            "application/x-www-form-urlencoded",
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"));
    // Tables.
    let r = c
        .create_table("chess", json!({}), json!([{"type": "me"}]))
        .await;
    assert_eq!((r.status, r.code()), (400, "unknown_game"));
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 9}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_player_count"));
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": "two"}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_options"));
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!(
        (r.status, r.code()),
        (400, "bad_request"),
        "wrong seat count"
    );
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "bot", "level": "genius"}, {"type": "me"}]),
        )
        .await;
    assert_eq!(
        (r.status, r.code()),
        (400, "unknown_bot_level"),
        "unknown bot level"
    );
    // A search budget is a level of the bots, not one a table offers.
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "bot", "level": "search:50"}, {"type": "me"}]),
        )
        .await;
    assert_eq!(
        (r.status, r.code()),
        (400, "unknown_bot_level"),
        "{}",
        r.text
    );
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "bot", "level": "random"}, {"type": "open"}]),
        )
        .await;
    assert_eq!(
        (r.status, r.code()),
        (400, "bad_request"),
        "creator must sit"
    );
    let r = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "wizard"}]),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"));
    // Unknown ids.
    let r = c.get("/api/tables/does-not-exist").await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = c.post("/api/tables/does-not-exist/join", json!({})).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = c.get("/api/games/does-not-exist/record").await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = c.get(&format!("/api/tables/{}", "x".repeat(5000))).await;
    assert_eq!(r.status, 404);
    // Not signed in.
    let mut anon = Client::new(&s);
    let r = anon
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    assert_eq!((r.status, r.code()), (401, "unauthorized"));
}

#[tokio::test]
async fn lobby_tables_invites_and_other_players_tables() {
    let s = start_sqlite("lobby").await;
    let mut ann = Client::guest(&s).await;
    let mut bob = Client::guest(&s).await;
    let mut cat = Client::guest(&s).await;
    // A listed table with an open seat and an invited seat.
    let t = ann
        .create_table(
            "forgotten-treasures",
            json!({"players": 3}),
            json!([{"type": "me"}, {"type": "open"}, {"type": "invite"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let invite = t.body["invite"].as_str().unwrap().to_string();
    assert_eq!(t.body["status"], "open");
    let list = bob.get("/api/tables").await;
    let listed = list.body["tables"].as_array().unwrap();
    assert!(listed.iter().any(|t| t["id"] == id.as_str()));
    assert!(
        listed.iter().all(|t| t.get("invite").is_none()),
        "invite tokens are not listed"
    );
    // Other players' view of the table has no invite token.
    let seen = bob.get(&format!("/api/tables/{id}")).await;
    assert!(seen.body.get("invite").is_none());
    // Bob takes the open seat; a second join by him is refused.
    let r = bob.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = bob.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "already_seated"));
    // Cat without the invite: no open seat left.
    let r = cat.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, "table_full"));
    let r = cat
        .post(&format!("/api/tables/{id}/join"), json!({"invite": "nope"}))
        .await;
    assert_eq!((r.status, r.code()), (403, "bad_invite"));
    let r = cat
        .post(&format!("/api/tables/{id}/leave"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (409, "not_seated"));
    // Bob leaves and comes back; Cat joins with the invite: the game starts.
    let r = bob
        .post(&format!("/api/tables/{id}/leave"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = bob.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(r.status, 200);
    let r = cat
        .post(&format!("/api/tables/{id}/join"), json!({"invite": invite}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["status"], "live");
    let r = bob
        .post(&format!("/api/tables/{id}/leave"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (409, "table_started"));
    assert!(
        !bob.get("/api/tables").await.body["tables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str())
    );
    // The record of a live game has no seed.
    let r = bob.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(r.status, 200);
    assert!(r.body.get("seed").is_none(), "{}", r.text);
    let r = bob
        .get(&format!("/api/games/{id}/record?format=text"))
        .await;
    assert_eq!((r.status, r.code()), (409, "not_finished"));
    // An unlisted table is invisible and only joinable by invite.
    let t = ann.create_table_unlisted().await;
    let hidden = t.body["id"].as_str().unwrap().to_string();
    assert!(
        !cat.get("/api/tables").await.body["tables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == hidden.as_str())
    );
    let r = cat
        .post(&format!("/api/tables/{hidden}/join"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = cat
        .post(
            &format!("/api/tables/{hidden}/join"),
            json!({"invite": t.body["invite"]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

trait Unlisted {
    async fn create_table_unlisted(&mut self) -> Reply;
}

impl Unlisted for Client {
    async fn create_table_unlisted(&mut self) -> Reply {
        let body = json!({"game": "forgotten-treasures", "options": {"players": 2}, "seats": [{"type": "me"}, {"type": "open"}], "listed": false});
        let r = self.post("/api/tables", body).await;
        assert_eq!(r.status, 201, "{}", r.text);
        r
    }
}

#[tokio::test]
async fn http_rate_limit_answers_429() {
    let dir = temp_dir("ratelimit");
    let s = start(sqlite_url(&dir), |c| {
        c.http_per_second = 0.001;
        c.http_burst = 5.0;
    })
    .await;
    let mut c = Client::new(&s);
    let mut codes = Vec::new();
    for _ in 0..8 {
        codes.push(c.get("/api/games").await.status);
    }
    assert_eq!(codes[..5], [200; 5]);
    assert!(codes[5..].iter().all(|&c| c == 429), "{codes:?}");
    assert_eq!(c.get("/api/clocks").await.code(), "rate_limited");
    // The health check is never limited (a balancer's checks must not mark the server down).
    assert_eq!(c.get("/healthz").await.status, 200);
}

#[tokio::test]
async fn every_error_status_has_the_json_error_shape() {
    let s = start_sqlite("json-errors").await;
    let mut c = Client::guest(&s).await;
    let expect = |r: Reply, status: u16, code: &str| {
        assert_eq!((r.status, r.code()), (status, code), "{}", r.text);
        assert!(r.body["error"]["message"].is_string(), "{}", r.text);
    };
    // Wrong method.
    expect(
        c.post("/healthz", json!({})).await,
        405,
        "method_not_allowed",
    );
    expect(
        c.post("/api/me", json!({})).await,
        405,
        "method_not_allowed",
    );
    // A body over the limit where the body is read as bytes.
    let big = format!("{{\"invite\": \"{}\"}}", "a".repeat(20_000));
    expect(
        c.post_raw("/api/tables/abc/join", big, "application/json")
            .await,
        413,
        "payload_too_large",
    );
    // A bad query string.
    expect(
        c.get("/api/games/abc/record?format=a&format=b").await,
        400,
        "bad_request",
    );
    // A WebSocket path without the upgrade.
    let r = c.get("/ws").await;
    assert!(r.status >= 400, "{}", r.text);
    assert!(r.body["error"]["code"].is_string(), "{}", r.text);
    // Not found, for the API and for files.
    expect(c.get("/api/nothing").await, 404, "not_found");
}

/// NUL characters are refused as bad input everywhere (PostgreSQL cannot store them).
#[tokio::test]
async fn nul_bytes_are_bad_requests() {
    let s = start_sqlite("nul").await;
    scenarios::nul_bytes(&s).await;
}
