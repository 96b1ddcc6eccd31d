//! Every bound of issue 13's "exhaustion" point, one test each: password hashing, connections
//! (in all and per address), header and body timeouts, idle and non-reading WebSockets, guests
//! per address, tables per guest, session and guest expiry, lobby paging, rooms leaving memory
//! and the rate limiter forgetting addresses.
use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use pyramidion_server::wall_clock::now_ms;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Waits (up to `seconds`: a bound on a hang, not a speed requirement) until `counter` is
/// `value` (read in the process: polling `/metrics` would meet the HTTP rate limit).
async fn until_counter(counter: &std::sync::atomic::AtomicU64, value: u64, seconds: u64) {
    for _ in 0..seconds * 100 {
        if counter.load(Ordering::Relaxed) == value {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the counter never became {value}");
}

#[tokio::test]
async fn password_hashing_runs_a_bounded_number_at_once() {
    let s = start(sqlite_url(&temp_dir("hashing")), |c| {
        c.limits.hash_concurrency = 1;
        c.limits.hash_wait = Duration::from_millis(50);
    })
    .await;
    let mut c = Client::new(&s);
    // Another sign-in holds the only slot: this one waits, then is turned away.
    let busy = s.state.hashing.clone().acquire_owned().await.unwrap();
    let creds = json!({"name": "hasher", "password": "long enough"});
    let r = c.post("/api/register", creds.clone()).await;
    assert_eq!((r.status, r.code()), (503, "unavailable"), "{}", r.text);
    // No such user yet: its password is checked all the same (against a dummy hash), so it
    // waits like any sign-in and its answer does not tell that the name is unknown.
    let r = c.post("/api/login", creds.clone()).await;
    assert_eq!((r.status, r.code()), (503, "unavailable"), "{}", r.text);
    drop(busy);
    let r = c.post("/api/register", creds.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let busy = s.state.hashing.clone().acquire_owned().await.unwrap();
    let r = Client::new(&s).post("/api/login", creds.clone()).await;
    assert_eq!((r.status, r.code()), (503, "unavailable"), "{}", r.text);
    drop(busy);
    let r = Client::new(&s).post("/api/login", creds).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(s.state.hashing.available_permits(), 1);
}

/// Sends a request on a raw connection; its response, or "" if the server closed it.
async fn raw_request(stream: &mut TcpStream, request: &str) -> String {
    if stream.write_all(request.as_bytes()).await.is_err() {
        return String::new();
    }
    let mut buf = vec![0u8; 4096];
    match tokio::time::timeout(Duration::from_secs(20), stream.read(&mut buf)).await {
        Ok(Ok(n)) => String::from_utf8_lossy(&buf[..n]).into_owned(),
        Ok(Err(_)) => String::new(),
        Err(_) => panic!("no answer and not closed within 20 s"),
    }
}

const HEALTH: &str = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n";

#[tokio::test]
async fn connections_per_address_are_capped() {
    let s = start(sqlite_url(&temp_dir("per-ip")), |c| {
        c.limits.connections_per_ip = 3;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        assert!(raw_request(&mut c, HEALTH).await.contains("200 OK"));
        held.push(c);
    }
    let mut fourth = TcpStream::connect(s.addr).await.unwrap();
    assert_eq!(raw_request(&mut fourth, HEALTH).await, "", "closed at once");
    // One closes: its slot is free again (once the server has seen it close).
    drop(held.pop());
    for attempt in 0.. {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        if raw_request(&mut c, HEALTH).await.contains("200 OK") {
            break;
        }
        assert!(attempt < 2000, "the slot was never freed");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn connections_beyond_the_cap_are_answered_503_and_served_once_one_closes() {
    let s = start(sqlite_url(&temp_dir("max-conn")), |c| {
        c.limits.max_connections = 2;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        assert!(raw_request(&mut c, HEALTH).await.contains("200 OK"));
        held.push(c);
    }
    // The third is told at once that the server is full, and when to come back…
    let mut third = TcpStream::connect(s.addr).await.unwrap();
    third.write_all(HEALTH.as_bytes()).await.unwrap();
    let answer = until_closed(&mut third).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 5"),
        "{answer}"
    );
    assert!(answer.contains(r#""code":"unavailable""#), "{answer}");
    // …and served once a connection closed (once the server has seen it close).
    drop(held.pop());
    for attempt in 0.. {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        if raw_request(&mut c, HEALTH).await.contains("200 OK") {
            break;
        }
        assert!(attempt < 2000, "the connection was never freed");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Reads until the server closes the connection; what it sent before.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut all = Vec::new();
    let mut buf = vec![0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(20), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return String::from_utf8_lossy(&all).into_owned(),
            Ok(Ok(n)) => all.extend_from_slice(&buf[..n]),
            Err(_) => panic!("not closed within 20 s"),
        }
    }
}

#[tokio::test]
async fn slow_headers_and_bodies_time_out() {
    let s = start(sqlite_url(&temp_dir("timeouts")), |c| {
        c.limits.header_timeout = Duration::from_millis(100);
        c.limits.body_timeout = Duration::from_millis(100);
    })
    .await;
    // Headers that never end: the connection is closed.
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();
    let _ = until_closed(&mut c).await;
    // A connection that never sends anything, and one idle after a request: closed too.
    let mut silent = TcpStream::connect(s.addr).await.unwrap();
    let _ = until_closed(&mut silent).await;
    let mut kept = TcpStream::connect(s.addr).await.unwrap();
    kept.write_all(HEALTH.as_bytes()).await.unwrap();
    assert!(until_closed(&mut kept).await.contains("200 OK"));
    // A body that never ends: 408 in the documented shape.
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(
        b"POST /api/login HTTP/1.1\r\nHost: test\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"name\"",
    )
    .await
    .unwrap();
    let answer = until_closed(&mut c).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""code":"request_timeout""#), "{answer}");
}

async fn raw_socket(
    base: &str,
    recv_buffer: Option<u32>,
) -> tokio_tungstenite::WebSocketStream<TcpStream> {
    let url = format!("{}/ws", base.replacen("http", "ws", 1));
    let req = url.into_client_request().unwrap();
    let addr: std::net::SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    if let Some(size) = recv_buffer {
        socket.set_recv_buffer_size(size).unwrap();
    }
    let stream = socket.connect(addr).await.unwrap();
    tokio_tungstenite::client_async(req, stream)
        .await
        .unwrap()
        .0
}

#[tokio::test]
async fn idle_websockets_are_closed_and_live_ones_kept() {
    let s = start(sqlite_url(&temp_dir("ws-idle")), |c| {
        c.limits.ws_ping_every = Duration::from_millis(100);
        c.limits.ws_idle_timeout = Duration::from_secs(1);
    })
    .await;
    let mut idle = raw_socket(&s.base, None).await;
    let mut live = raw_socket(&s.base, None).await;
    // The live one reads (and so answers the pings) for three idle timeouts.
    let pings = async {
        let mut pings = 0;
        let until = tokio::time::Instant::now() + Duration::from_secs(3);
        while let Ok(Some(Ok(m))) = tokio::time::timeout_at(until, live.next()).await {
            pings += matches!(m, Message::Ping(_)) as u32;
        }
        pings
    };
    assert!(pings.await >= 3);
    live.send(Message::Text(
        json!({"type": "ping", "id": 1}).to_string().into(),
    ))
    .await
    .unwrap();
    loop {
        match live.next().await.expect("still open").unwrap() {
            Message::Text(t) => {
                assert_eq!(serde_json::from_str::<Value>(&t).unwrap()["type"], "pong");
                break;
            }
            _ => continue,
        }
    }
    // The idle one never read, so never answered a ping: it was closed.
    loop {
        match tokio::time::timeout(Duration::from_secs(20), idle.next()).await {
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => break,
            Ok(Some(Ok(_))) => continue,
            Err(_) => panic!("the idle socket is still open"),
        }
    }
}

#[tokio::test]
async fn a_websocket_that_never_reads_is_dropped() {
    let s = start(sqlite_url(&temp_dir("ws-no-read")), |c| {
        c.limits.ws_queue = 4;
        c.limits.ws_send_timeout = Duration::from_millis(200);
        c.ws_messages_per_second = 1e6;
        c.ws_burst = 1e6;
    })
    .await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "the-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    let game = t.body["id"].as_str().unwrap().to_string();
    assert_eq!(metric(&mut c, "pyramidion_connections").await, 0);
    // A client with a tiny receive window asks for the state again and again, never reading.
    let ws = raw_socket(&s.base, Some(4096)).await;
    until_counter(&s.state.metrics.connections, 1, 20).await;
    let (mut tx, _rx) = ws.split();
    let subscribe = json!({"type": "subscribe", "game": game}).to_string();
    let flood = tokio::spawn(async move {
        // Until the server closes the socket (the test fails if it never does).
        while tx
            .send(Message::Text(subscribe.clone().into()))
            .await
            .is_ok()
        {}
    });
    // Its socket is closed once a message waited too long to be taken.
    // (It takes some seconds of flooding to fill the kernel's buffers.)
    until_counter(&s.state.metrics.connections, 0, 180).await;
    flood.await.unwrap();
    drop(_rx);
}

#[tokio::test]
async fn new_guests_per_address_are_limited() {
    let s = start(sqlite_url(&temp_dir("guests")), |c| {
        c.limits.guests_per_ip_per_hour = 3;
    })
    .await;
    for _ in 0..3 {
        Client::guest(&s).await;
    }
    let r = Client::new(&s).get("/api/me").await;
    assert_eq!((r.status, r.code()), (429, "too_many_guests"), "{}", r.text);
    // The sweep does not forget an address whose bucket is not full again.
    s.state.sweep(now_ms()).await;
    let r = Client::new(&s).get("/api/me").await;
    assert_eq!(r.status, 429);
}

#[tokio::test]
async fn guests_have_a_bounded_number_of_tables() {
    let s = start(sqlite_url(&temp_dir("tables")), |c| {
        c.limits.tables_per_guest = 2;
    })
    .await;
    let mut c = Client::guest(&s).await;
    let open = json!([{"type": "me"}, {"type": "open"}]);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let t = c
            .create_table("forgotten-treasures", json!({"players": 2}), open.clone())
            .await;
        assert_eq!(t.status, 201, "{}", t.text);
        ids.push(t.body["id"].as_str().unwrap().to_string());
    }
    let t = c
        .create_table("forgotten-treasures", json!({"players": 2}), open.clone())
        .await;
    assert_eq!((t.status, t.code()), (429, "too_many_tables"), "{}", t.text);
    // Leaving one (it is abandoned) frees a place.
    let r = c
        .post(&format!("/api/tables/{}/leave", ids[0]), json!({}))
        .await;
    assert_eq!(r.status, 200);
    let t = c
        .create_table("forgotten-treasures", json!({"players": 2}), open.clone())
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    // Accounts are not limited this way.
    let r = c
        .post(
            "/api/register",
            json!({"name": "tabler", "password": "long enough"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let t = c
        .create_table("forgotten-treasures", json!({"players": 2}), open)
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
}

#[tokio::test]
async fn a_guest_creating_tables_at_once_stays_within_the_limit() {
    let s = start(sqlite_url(&temp_dir("tables-at-once")), |c| {
        c.limits.tables_per_guest = 2;
    })
    .await;
    let c = Client::guest(&s).await;
    let open = json!([{"type": "me"}, {"type": "open"}]);
    let creates = (0..6).map(|_| {
        let mut c = c.clone();
        let open = open.clone();
        async move {
            c.create_table("forgotten-treasures", json!({"players": 2}), open)
                .await
                .status
        }
    });
    let statuses = futures_util::future::join_all(creates).await;
    let created = statuses.iter().filter(|&&s| s == 201).count();
    assert_eq!(created, 2, "{statuses:?}");
    assert!(
        statuses.iter().all(|&s| s == 201 || s == 429),
        "{statuses:?}"
    );
}

#[tokio::test]
async fn sessions_expire() {
    let s = start(sqlite_url(&temp_dir("session-ttl-0")), |c| {
        c.limits.session_ttl = Duration::ZERO;
    })
    .await;
    let mut c = Client::guest(&s).await;
    let r = c.get("/api/me/games").await;
    assert_eq!((r.status, r.code()), (401, "unauthorized"), "{}", r.text);
}

#[tokio::test]
async fn the_sweep_deletes_expired_sessions_and_idle_guests() {
    let s = start(sqlite_url(&temp_dir("sweep")), |c| {
        c.limits.session_ttl = Duration::from_secs(3600);
    })
    .await;
    let mut idle = Client::guest(&s).await;
    let idle_id = idle.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut seated = Client::guest(&s).await;
    let seated_id = seated.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let t = seated
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    assert_eq!(t.status, 201);
    // Within the lifetime: nothing goes.
    s.state.sweep(now_ms()).await;
    assert_eq!(idle.get("/api/me/games").await.status, 200);
    // Two hours later: both sessions have expired; the guest who sits at an open table is
    // kept (the table still names them), the other is gone.
    s.state.sweep(now_ms() + 2 * 3600 * 1000).await;
    assert_eq!(idle.get("/api/me/games").await.status, 401);
    assert_eq!(seated.get("/api/me/games").await.status, 401);
    assert!(s.state.store.user(&idle_id).await.unwrap().is_none());
    assert!(s.state.store.user(&seated_id).await.unwrap().is_some());
}

#[tokio::test]
async fn the_lobby_is_listed_page_by_page() {
    let s = start(sqlite_url(&temp_dir("lobby")), |c| {
        c.limits.lobby_page = 2;
    })
    .await;
    let mut created = Vec::new();
    for _ in 0..5 {
        let mut c = Client::guest(&s).await;
        let t = c
            .create_table(
                "forgotten-treasures",
                json!({"players": 2}),
                json!([{"type": "me"}, {"type": "open"}]),
            )
            .await;
        created.push(t.body["id"].as_str().unwrap().to_string());
    }
    let mut c = Client::new(&s);
    let mut seen = Vec::new();
    let mut path = "/api/tables".to_string();
    loop {
        let page = c.get(&path).await;
        assert_eq!(page.status, 200, "{}", page.text);
        let tables = page.body["tables"].as_array().unwrap();
        assert!(tables.len() <= 2);
        seen.extend(tables.iter().map(|t| t["id"].as_str().unwrap().to_string()));
        match page.body["next"].as_str() {
            Some(next) => path = format!("/api/tables?after={next}"),
            None => break,
        }
    }
    assert_eq!(seen, created, "every table once, oldest first");
    // A bigger page on request, up to 4× the default.
    let page = c.get("/api/tables?limit=100").await;
    assert_eq!(page.body["tables"].as_array().unwrap().len(), 5);
    let page = c.get("/api/tables?limit=3").await;
    assert_eq!(page.body["tables"].as_array().unwrap().len(), 3);
    let r = c.get("/api/tables?after=nonsense").await;
    assert_eq!((r.status, r.code()), (400, "bad_request"));
}

#[tokio::test]
async fn untouched_rooms_leave_memory_and_come_back_from_storage() {
    let s = start(sqlite_url(&temp_dir("room-idle")), |c| {
        c.limits.room_idle = Duration::from_millis(100);
    })
    .await;
    let mut host = Client::guest(&s).await;
    let t = host
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut guest = Client::guest(&s).await;
    let r = guest
        .post(&format!("/api/tables/{id}/join"), json!({}))
        .await;
    assert_eq!(r.body["status"], "live");
    // Nobody follows it: it leaves memory.
    until_counter(&s.state.metrics.games_live, 0, 20).await;
    let replays = metric(&mut host, "pyramidion_replays_total").await;
    // Followed again: rebuilt from storage, and played on.
    let mut ws = host.socket().await;
    let state = ws.subscribe(&id, None).await;
    assert_eq!(
        metric(&mut host, "pyramidion_replays_total").await,
        replays + 1
    );
    let mut gws = guest.socket().await;
    let gstate = gws.subscribe(&id, None).await;
    let (mover, st) = if state["legal"].as_array().unwrap().is_empty() {
        (&mut gws, gstate)
    } else {
        (&mut ws, state)
    };
    let mv = st["legal"][0]["text"].as_str().unwrap().to_string();
    mover.play(&id, 0, &mv).await;
    let next = mover.state_at_least(&id, 1).await;
    assert_eq!(next["last_move"]["text"], mv.as_str());
    // A followed room stays: five times its idle time pass (on paused time), and it is there.
    let _frozen = crate::common::paused::freeze();
    crate::common::paused::advance(Duration::from_millis(500)).await;
    crate::common::paused::let_threads_run(20).await;
    assert_eq!(metric(&mut host, "pyramidion_games_live").await, 1);
    assert_eq!(s.state.metrics.games_live.load(Ordering::Relaxed), 1);
}

#[tokio::test]
async fn the_rate_limiter_forgets_idle_addresses() {
    let s = start(sqlite_url(&temp_dir("limiter")), |c| {
        c.http_per_second = 1e6;
        c.http_burst = 10.0;
    })
    .await;
    Client::new(&s).get("/api/games").await;
    assert_eq!(s.state.http_limit.len(), 1);
    // Its bucket refills within microseconds; then the sweep forgets the address.
    for attempt in 0.. {
        tokio::time::sleep(Duration::from_millis(5)).await;
        s.state.sweep(now_ms()).await;
        if s.state.http_limit.is_empty() {
            break;
        }
        assert!(attempt < 2000, "the address was never forgotten");
    }
}
