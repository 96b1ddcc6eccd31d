//! Honest health (issue 53 item 5, issue 54 item 6): `/readyz` fails while the database cannot
//! be reached or the instance drains (`/healthz` stays liveness), a database outage is
//! answered `503 unavailable` with `Retry-After` (not `500 internal`), a session that cannot
//! be read is not "signed out", and `/metrics` is served to the allowed addresses only.
//!
//! The outage: the server's read pool is closed (`sqlx::Pool::close`), so that every read
//! fails as it does when the database is out of reach (`PoolClosed`, like `PoolTimedOut`).
use crate::common::*;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;

/// The whole answer to `GET path` (with `headers`, each `Name: value\r\n`) on a fresh
/// connection from the loopback address `from` (127.0.0.0/8 is all local).
async fn get_from(from: &str, server: SocketAddr, path: &str, headers: &str) -> String {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(from.parse().unwrap(), 0))
        .unwrap();
    let mut c = socket.connect(server).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{headers}\r\n");
    c.write_all(request.as_bytes()).await.unwrap();
    let mut all = Vec::new();
    let _ = c.read_to_end(&mut all).await;
    String::from_utf8_lossy(&all).into_owned()
}

/// Makes every read of `s`'s database fail from now on, as an outage does.
async fn database_out_of_reach(s: &TestServer) {
    s.state.store.pool.close().await;
}

/// Past the readiness answer's reuse (500 ms).
async fn past_ready_cache() {
    tokio::time::sleep(Duration::from_millis(600)).await;
}

#[tokio::test]
async fn readiness_fails_while_the_database_cannot_be_reached() {
    let s = start_sqlite("ready-db").await;
    let mut c = Client::new(&s);
    let r = c.get("/readyz").await;
    assert_eq!((r.status, r.text.as_str()), (200, "ready"));
    database_out_of_reach(&s).await;
    past_ready_cache().await;
    let resp = reqwest::get(format!("{}/readyz", s.base)).await.unwrap();
    assert_eq!(resp.status(), 503);
    assert_eq!(resp.headers()["retry-after"], "5");
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["status"], "not_ready", "{body}");
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
    assert_eq!(
        body["error"]["message"], "the database cannot be reached",
        "{body}"
    );
    // Liveness: the process answers; the balancer takes it out through readiness.
    let r = c.get("/healthz").await;
    assert_eq!((r.status, r.text.as_str()), (200, "ok"));
    // A flood of checks is neither limited nor a query each.
    for _ in 0..50 {
        assert_eq!(c.get("/readyz").await.status, 503);
    }
}

#[tokio::test]
async fn readiness_fails_while_draining() {
    let s = start_sqlite("ready-drain").await;
    let mut c = Client::new(&s);
    assert_eq!(c.get("/readyz").await.status, 200);
    s.state.draining.send_replace(true);
    past_ready_cache().await;
    let r = c.get("/readyz").await;
    assert_eq!(r.status, 503, "{}", r.text);
    assert_eq!(
        r.body["error"]["message"], "this instance drains",
        "{}",
        r.text
    );
}

/// An instance serves before it has resumed its games (issue 53 item 2): it is not ready
/// until it has.
#[tokio::test]
async fn readiness_waits_for_the_games_to_be_resumed() {
    let dir = temp_dir("ready-start");
    let state = pyramidion_server::AppState::open(pyramidion_server::Config::new(sqlite_url(&dir)))
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(pyramidion_server::serve_state(state.clone(), listener));
    let r = reqwest::get(format!("{base}/readyz")).await.unwrap();
    assert_eq!(r.status(), 503);
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        body["error"]["message"], "this instance is starting: it resumes its games",
        "{body}"
    );
    state.start().await.unwrap();
    past_ready_cache().await;
    let r = reqwest::get(format!("{base}/readyz")).await.unwrap();
    assert_eq!(r.status(), 200);
}

/// Was `500 internal`; a signed-in player was never shown as signed out, but neither was
/// the client told to come back.
#[tokio::test]
async fn a_database_outage_is_answered_503_with_retry_after() {
    let s = start_sqlite("outage-503").await;
    let c = Client::guest(&s).await;
    let cookie = c.cookie.clone().expect("a session");
    database_out_of_reach(&s).await;
    for path in ["/api/me", "/api/me/games", "/api/me/turns"] {
        let resp = c
            .http
            .get(format!("{}{path}", s.base))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 503, "{path}");
        assert_eq!(resp.headers()["retry-after"], "5", "{path}");
        // Not a new guest either: the session was not read as missing.
        assert!(resp.headers().get("set-cookie").is_none(), "{path}");
        let body: Value = resp.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unavailable", "{path}: {body}");
        // The database's own words (sqlx's error, paths) are for the log only.
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            !message.contains("pool") && !message.contains("sqlite"),
            "{message}"
        );
    }
}

/// A socket whose session cannot be read (the database is out of reach) is not signed out:
/// its message is refused as `unavailable`, and it stays open, signed in.
#[tokio::test]
async fn a_session_check_that_fails_is_not_a_sign_out() {
    let s = start_sqlite_with("recheck", |c| c.limits.session_recheck = Duration::ZERO).await;
    let mut c = Client::guest(&s).await;
    let game = solo_table(&mut c).await;
    let mut ws = c.socket().await;
    let state = ws.subscribe(&game, None).await;
    let id = state["state_id"].as_u64().unwrap();
    let mv = state["legal"][0]["text"].as_str().unwrap().to_string();
    database_out_of_reach(&s).await;
    ws.play(&game, id, &mv).await;
    let e = ws.next_of("error").await;
    assert_eq!(e["code"], "unavailable", "{e}");
    assert_eq!(e["game"], game.as_str(), "{e}");
    // Still open: it answers, and a second try is refused the same way, not signed out.
    ws.send(json!({"type": "ping", "id": 7})).await;
    assert_eq!(ws.next_of("pong").await["id"], 7);
    ws.play(&game, id, &mv).await;
    let e = ws.next_of("error").await;
    assert_eq!(e["code"], "unavailable", "{e}");
}

#[tokio::test]
async fn metrics_are_served_to_allowed_addresses_only() {
    let s = start_sqlite_with("metrics-allow", |c| {
        c.metrics_allow = vec!["127.0.0.1/32".parse().unwrap()];
    })
    .await;
    let allowed = get_from("127.0.0.1", s.addr, "/metrics", "").await;
    assert!(allowed.starts_with("HTTP/1.1 200"), "{allowed}");
    assert!(allowed.contains("pyramidion_games_live"), "{allowed}");
    let refused = get_from("127.0.0.2", s.addr, "/metrics", "").await;
    assert!(refused.starts_with("HTTP/1.1 404"), "{refused}");
    assert!(!refused.contains("pyramidion_"), "{refused}");
    // A proxy on an allowed address that is not a trusted proxy: its client is unknown.
    let forwarded = get_from(
        "127.0.0.1",
        s.addr,
        "/metrics",
        "X-Forwarded-For: 192.0.2.7\r\n",
    )
    .await;
    assert!(forwarded.starts_with("HTTP/1.1 404"), "{forwarded}");
}

/// Behind a trusted proxy on loopback, the forwarded client is checked, never the proxy.
#[tokio::test]
async fn metrics_through_a_trusted_proxy_are_for_allowed_clients_only() {
    let s = start_sqlite_with("metrics-proxy", |c| {
        c.trusted_proxies = vec!["127.0.0.2/32".parse().unwrap()];
        c.metrics_allow = vec![
            "127.0.0.0/8".parse().unwrap(),
            "198.51.100.0/24".parse().unwrap(),
        ];
    })
    .await;
    let through = |client: &'static str| {
        let addr = s.addr;
        async move {
            get_from(
                "127.0.0.2",
                addr,
                "/metrics",
                &format!("X-Forwarded-For: {client}\r\n"),
            )
            .await
        }
    };
    let stranger = through("192.0.2.7").await;
    assert!(stranger.starts_with("HTTP/1.1 404"), "{stranger}");
    let scraper = through("198.51.100.3").await;
    assert!(scraper.starts_with("HTTP/1.1 200"), "{scraper}");
    // The proxy's own request (no header: a health check, a scrape on its machine).
    let own = get_from("127.0.0.2", s.addr, "/metrics", "").await;
    assert!(own.starts_with("HTTP/1.1 200"), "{own}");
}

/// Reads wait for a pooled connection: the wait is a histogram, counted per read.
#[tokio::test]
async fn pool_waits_and_cluster_metrics_are_exposed() {
    let s = start_sqlite("metrics-new").await;
    let mut c = Client::guest(&s).await;
    assert!(metric(&mut c, "pyramidion_pool_wait_seconds_count").await > 0);
    let text = c.get("/metrics").await.text;
    for line in [
        "pyramidion_heartbeats_total{result=\"ok\"} 0",
        "pyramidion_heartbeats_total{result=\"failed\"} 0",
        "pyramidion_lease_takeovers_total 0",
        "pyramidion_fenced_refusals_total 0",
        "pyramidion_forwards_total 0",
        "pyramidion_forward_failures_total{reason=\"connect\"} 0",
        "# TYPE pyramidion_pool_wait_seconds histogram",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
    // SQLite has no NOTIFY listener: no gauge for it.
    assert!(!text.contains("pyramidion_notify_listener_up "), "{text}");
}

/// On PostgreSQL (called by `postgres::postgres_backend`, on its schema): two instances, a
/// game run by one and followed through the other. The follower's instance forwards; the
/// owner drains (leaves the cluster: `/readyz` fails) and the follower's instance takes the
/// game over at once, on the drained owner's notice; a move the drained owner still takes in
/// is fenced out. Each step is counted.
#[cfg(feature = "postgres-tests")]
pub async fn cluster_health_on_postgres(url: &str) {
    let a = start(url.to_string(), |c| c.instance = Some("health-a".into())).await;
    // B's sweep for dead instances' games never comes within the test: it takes A's game on
    // A's notice that it drains, or not at all.
    let b = start(url.to_string(), |c| {
        c.instance = Some("health-b".into());
        c.limits.wake_every = Duration::from_secs(3600);
    })
    .await;
    let mut on_a = Client::guest(&a).await;
    assert_eq!(on_a.get("/readyz").await.status, 200);
    let game = solo_table(&mut on_a).await;
    let mut ws_a = on_a.socket().await;
    let state = ws_a.subscribe(&game, None).await;
    // The same player, through the other instance: forwarded to the owner.
    let mut on_b = Client::new(&b);
    on_b.cookie = on_a.cookie.clone();
    let mut ws_b = on_b.socket().await;
    ws_b.subscribe(&game, None).await;
    assert!(metric(&mut on_b, "pyramidion_forwards_total").await >= 1);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(
        metric(&mut on_a, "pyramidion_heartbeats_total{result=\"ok\"}").await >= 1,
        "a heartbeat a second"
    );
    assert_eq!(metric(&mut on_a, "pyramidion_notify_listener_up").await, 1);
    // The owner leaves the cluster (as a drain does first).
    a.state.cluster.as_ref().unwrap().retire().await.unwrap();
    // A drain hands the game over at once (issue 53): B hears A's notice and takes the game
    // with nobody subscribing again and its own sweep an hour away — or the suite's first
    // instance, which hears it too, takes it first.
    let b_cluster = b.state.cluster.as_ref().unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let successor = loop {
        let holder = b_cluster.holder(&game).await.unwrap();
        if let Some((id, _)) = holder.as_ref().filter(|(id, _)| id != "health-a") {
            break id.clone();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "B never took the drained instance's game: {holder:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(
        metric(&mut on_b, "pyramidion_departures_heard_total").await,
        1
    );
    past_ready_cache().await;
    let r = on_a.get("/readyz").await;
    assert_eq!(r.status, 503, "{}", r.text);
    assert_eq!(
        r.body["error"]["message"], "this instance drains: it left the cluster",
        "{}",
        r.text
    );
    assert_eq!(on_b.get("/readyz").await.status, 200);
    // The follower's link notices the owner gone; subscribing again takes the game over.
    // (Whether its forwarder counts `owner_gone` depends on which comes first: its own
    // check, or the take-over here, which drops it from the rooms.)
    let e = ws_b.next_of("error").await;
    assert_eq!(e["code"], "lagging", "{e}");
    // The follower subscribes again, as the browser does on `lagging`: its instance takes
    // the game over (the retired owner's life is over) and serves it.
    let again = ws_b.subscribe(&game, None).await;
    assert_eq!(again["game"], game.as_str(), "{again}");
    if successor == "health-b" {
        assert!(metric(&mut on_b, "pyramidion_lease_takeovers_total").await >= 1);
    }
    // A move the retired owner still takes in is fenced out, never committed twice.
    let mv = state["legal"][0]["text"].as_str().unwrap().to_string();
    let id = state["state_id"].as_u64().unwrap();
    ws_a.play(&game, id, &mv).await;
    let refused = ws_a.next_of("error").await;
    assert!(
        metric(&mut on_a, "pyramidion_fenced_refusals_total").await >= 1,
        "{refused}"
    );
}

/// Issue 54: with `--metrics-listen`, `/metrics` is served on a listener of its own (to
/// whoever reaches it) and the public listener answers it `404`, even to an allowed address.
#[tokio::test]
async fn metrics_on_their_own_listener_are_not_on_the_public_one() {
    let s = start_sqlite_with("metrics-listen", |c| {
        c.metrics_listen = Some("127.0.0.1:0".into());
    })
    .await;
    let public = get_from("127.0.0.1", s.addr, "/metrics", "").await;
    assert!(public.starts_with("HTTP/1.1 404"), "{public}");
    assert!(!public.contains("pyramidion_"), "{public}");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let apart = listener.local_addr().unwrap();
    tokio::spawn(pyramidion_server::http::metrics_listener::serve(
        s.state.clone(),
        listener,
    ));
    for from in ["127.0.0.1", "127.0.0.2"] {
        let own = get_from(from, apart, "/metrics", "").await;
        assert!(own.starts_with("HTTP/1.1 200"), "{own}");
        assert!(own.contains("pyramidion_games_live"), "{own}");
    }
    // Nothing else is served there.
    let other = get_from("127.0.0.1", apart, "/api/me", "").await;
    assert!(other.starts_with("HTTP/1.1 404"), "{other}");
}
