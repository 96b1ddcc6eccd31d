//! The smaller defects of issue 13, one test each: canonical move texts, dropped subscribers
//! told, abandoned tables staying dead, registration errors, invite links, session renewal,
//! `Secure` cookies, sockets after logout, JSON error shapes, NUL bytes, `leave`'s status and
//! finished games replayed once.
use crate::common::*;
use futures_util::StreamExt;
use pyramidion_server::db::store::{GameRow, SeatKind, Store};
use pyramidion_server::db::writer::WriterOptions;
use pyramidion_server::live::protocol::ServerMsg;
use pyramidion_server::live::room::{Room, RoomCmd, RoomSetup};
use pyramidion_server::metrics::Metrics;
use pyramidion_server::queue;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

async fn solo(c: &mut Client) -> String {
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "the-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    t.body["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_canonical_move_text_is_stored_and_long_texts_are_refused() {
    let s = start_sqlite("canonical").await;
    let mut c = Client::guest(&s).await;
    let game = solo(&mut c).await;
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
        kind: "forgotten-treasures".into(),
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
        seats,
        seed: 7,
        clock: None,
        store,
        metrics,
        hub: Arc::default(),
        idle_after: idle,
        bot_pace: Duration::ZERO,
        bots: Arc::new(pyramidion_server::live::bot_pool::BotPool::new(1)),
        owner: "u".into(),
        reveal_at_end: true,
        resigned: Vec::new(),
        ending: None,
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
async fn an_abandoned_table_stays_dead_and_leave_reports_it() {
    let s = start_sqlite("abandoned").await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let r = c.post(&format!("/api/tables/{id}/leave"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.body["status"], "abandoned",
        "leave reports the real status"
    );
    assert_eq!(
        c.get(&format!("/api/tables/{id}")).await.body["status"],
        "abandoned"
    );
    let mut ws = c.socket().await;
    ws.send(json!({"type": "subscribe", "game": id})).await;
    let e = ws.next_of("error").await;
    assert_eq!(e["code"], "not_found", "{e}");
    let again = c.get(&format!("/api/tables/{id}")).await;
    assert_eq!(again.body["status"], "abandoned");
    assert_eq!(metric(&mut c, "pyramidion_games_live").await, 0);
}

async fn metric(c: &mut Client, name: &str) -> u64 {
    let text = c.get("/metrics").await.text;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_storage_error_at_registration_is_not_name_taken() {
    let faults = Arc::new(FailNext::default());
    let injector = faults.clone();
    let s = start(sqlite_url(&temp_dir("register-error")), move |c| {
        c.writer.faults = Some(injector);
        c.writer.probe_every = Duration::from_secs(3600);
    })
    .await;
    let mut c = Client::new(&s);
    faults.0.store(1, Ordering::SeqCst);
    let creds = json!({"name": "zoe", "password": "long enough"});
    let r = c.post("/api/register", creds.clone()).await;
    assert_eq!((r.status, r.code()), (500, "internal"), "{}", r.text);
    // The name was never taken: it registers now.
    let r = c.post("/api/register", creds.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = Client::new(&s).post("/api/register", creds).await;
    assert_eq!((r.status, r.code()), (409, "name_taken"));
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

#[tokio::test]
async fn the_session_is_renewed_on_register_and_login() {
    let s = start_sqlite("renew").await;
    let mut c = Client::guest(&s).await;
    let guest_cookie = c.cookie.clone().unwrap();
    let guest_id = c.get("/api/me").await.body["id"].clone();
    let r = c
        .post(
            "/api/register",
            json!({"name": "renewed", "password": "long enough"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let account_cookie = c.cookie.clone().unwrap();
    assert_ne!(account_cookie, guest_cookie, "a new session id on register");
    assert_eq!(c.get("/api/me").await.body["id"], guest_id, "same identity");
    // The guest's session id no longer works.
    let mut old = Client::new(&s);
    old.cookie = Some(guest_cookie);
    assert_eq!(old.get("/api/me/games").await.code(), "unauthorized");
    // Signing in again renews it too, and ends the session it was made from.
    let r = c
        .post(
            "/api/login",
            json!({"name": "renewed", "password": "long enough"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_ne!(c.cookie.clone().unwrap(), account_cookie);
    let mut old = Client::new(&s);
    old.cookie = Some(account_cookie);
    assert_eq!(old.get("/api/me/games").await.code(), "unauthorized");
    assert_eq!(c.get("/api/me/games").await.status, 200);
}

#[tokio::test]
async fn cookies_are_secure_over_https() {
    let set_cookie = |base: String, proto: Option<&'static str>| async move {
        let mut req = reqwest::Client::new().get(format!("{base}/api/me"));
        if let Some(p) = proto {
            req = req.header("x-forwarded-proto", p);
        }
        let r = req.send().await.unwrap();
        r.headers()["set-cookie"].to_str().unwrap().to_string()
    };
    let s = start_sqlite("secure").await;
    assert!(!set_cookie(s.base.clone(), None).await.contains("Secure"));
    assert!(
        !set_cookie(s.base.clone(), Some("http"))
            .await
            .contains("Secure")
    );
    assert!(
        set_cookie(s.base.clone(), Some("https"))
            .await
            .contains("; Secure")
    );
    let s = start(sqlite_url(&temp_dir("secure-flag")), |c| {
        c.secure_cookies = true
    })
    .await;
    assert!(set_cookie(s.base.clone(), None).await.contains("; Secure"));
}

/// The socket's next event: a message, or its end.
async fn next_or_end(ws: &mut Socket) -> Option<Value> {
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.ws.next())
            .await
            .expect("an event within 20 s");
        match m {
            Some(Ok(Message::Text(t))) => return Some(ws.decode(&t)),
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return None,
            Some(Ok(_)) => {}
        }
    }
}

#[tokio::test]
async fn sockets_stop_playing_after_logout() {
    let s = start_sqlite("logout-socket").await;
    let mut c = Client::guest(&s).await;
    let game = solo(&mut c).await;
    let mut ws = c.socket().await;
    let state = ws.subscribe(&game, None).await;
    // A second socket of the same session, which only plays after the logout.
    let mut late = c.socket().await;
    late.next_of("hello").await;
    let r = c.post("/api/logout", json!({})).await;
    assert_eq!(r.status, 200);
    // Both are told, and closed.
    for socket in [&mut ws, &mut late] {
        let e = loop {
            let v = next_or_end(socket).await.expect("told before the end");
            if v["type"] == "error" {
                break v;
            }
        };
        assert_eq!(e["code"], "unauthorized", "{e}");
        assert_eq!(next_or_end(socket).await, None, "closed");
    }
    // Nothing was played.
    let other = Client::guest(&s).await;
    let mut watch = other.socket().await;
    let now = watch.subscribe(&game, None).await;
    assert_eq!(now["state_id"], state["state_id"]);
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

#[tokio::test]
async fn a_finished_game_is_replayed_once() {
    let s = start_sqlite("finished-cache").await;
    let mut c = Client::guest(&s).await;
    let game = solo(&mut c).await;
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

/// Point 5: hashes are PHC strings; an account stored with the earlier format still signs in,
/// and its hash becomes a PHC string then.
#[tokio::test]
async fn old_password_hashes_still_sign_in_and_become_phc_strings() {
    use argon2::{Algorithm, Argon2, Params, Version};
    let s = start_sqlite("phc").await;
    let (salt, mut out) = ([9u8; 16], [0u8; 32]);
    Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(64, 1, 1, Some(32)).unwrap(),
    )
    .hash_password_into(b"old password", &salt, &mut out)
    .unwrap();
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let legacy = format!("argon2id$64$1${}${}", hex(&salt), hex(&out));
    s.state
        .store
        .create_user("olduser0001", Some("oldtimer"), Some(&legacy), false)
        .await
        .unwrap();
    let stored = |s: &TestServer| {
        let store = s.state.store.clone();
        async move {
            store
                .user_by_name("oldtimer")
                .await
                .unwrap()
                .unwrap()
                .1
                .unwrap()
        }
    };
    let mut c = Client::new(&s);
    let r = c
        .post(
            "/api/login",
            json!({"name": "oldtimer", "password": "wrong password"}),
        )
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(stored(&s).await, legacy, "unchanged after a wrong password");
    let r = c
        .post(
            "/api/login",
            json!({"name": "oldtimer", "password": "old password"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let phc = stored(&s).await;
    assert!(phc.starts_with("$argon2id$v=19$"), "{phc}");
    let r = Client::new(&s)
        .post(
            "/api/login",
            json!({"name": "oldtimer", "password": "old password"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // New accounts get PHC strings.
    let r = Client::new(&s)
        .post(
            "/api/register",
            json!({"name": "newtimer", "password": "new password"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let new = s
        .state
        .store
        .user_by_name("newtimer")
        .await
        .unwrap()
        .unwrap()
        .1
        .unwrap();
    assert!(new.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{new}");
}

/// Point 5: migrations are `sqlx::migrate!` files; a database made by the earlier string
/// migrations (with its `schema_version` table and its data) opens, and keeps its data.
#[tokio::test]
async fn a_database_from_the_earlier_migrations_opens_and_keeps_its_data() {
    let dir = temp_dir("old-schema");
    let url = sqlite_url(&dir);
    {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let schema = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/0001_initial.sql"),
        )
        .unwrap()
        .replace(" IF NOT EXISTS", "");
        sqlx::raw_sql(sqlx::AssertSqlSafe(schema))
            .execute(&pool)
            .await
            .unwrap();
        for stmt in [
            "CREATE TABLE schema_version (version BIGINT NOT NULL)",
            "INSERT INTO schema_version (version) VALUES (1)",
            "INSERT INTO users (id, name, password_hash, guest, created_at) VALUES ('u1', 'veteran', NULL, 0, 1)",
        ] {
            sqlx::query(stmt).execute(&pool).await.unwrap();
        }
        pool.close().await;
    }
    let s = start(url.clone(), |_| {}).await;
    let user = s.state.store.user("u1").await.unwrap();
    assert_eq!(user, Some((Some("veteran".to_string()), false)));
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap();
    // Every migration file is applied once.
    let files =
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "sql"))
            })
            .count();
    assert_eq!(applied, files as i64);
    // And it plays as a new one does.
    let mut c = Client::guest(&s).await;
    solo(&mut c).await;
}
