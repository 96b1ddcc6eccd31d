//! Accounts under abuse (issue 29): registrations per address, table and seat quotas for
//! accounts, names unique by their look-alike key, no name that passes for a user id, and an
//! unknown name checked like a wrong password. And sessions: a storage error at registration
//! is not "name taken", the session is renewed on register and login, cookies are `Secure`
//! over HTTPS, sockets stop playing after logout, old password hashes become PHC strings.
use crate::common::*;
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A client whose connections come from the loopback address `from`.
fn client_from(server: &TestServer, from: &str) -> Client {
    let ip: IpAddr = from.parse().unwrap();
    Client {
        http: reqwest::Client::builder()
            .local_address(ip)
            .build()
            .unwrap(),
        base: server.base.clone(),
        cookie: None,
    }
}

async fn register(c: &mut Client, name: &str) -> Reply {
    c.post(
        "/api/register",
        json!({"name": name, "password": "correct horse"}),
    )
    .await
}

#[tokio::test]
async fn registrations_are_limited_per_address() {
    let s = start_sqlite_with("register-rate", |c| {
        c.limits.registrations_per_ip_per_hour = 2;
    })
    .await;
    let r = register(&mut Client::new(&s), "first").await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Names already taken are refused without counting.
    for _ in 0..3 {
        let r = register(&mut Client::new(&s), "FIRST").await;
        assert_eq!((r.status, r.code()), (409, "name_taken"));
    }
    let r = register(&mut Client::new(&s), "second").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = register(&mut Client::new(&s), "third").await;
    assert_eq!((r.status, r.code()), (429, "too_many_registrations"));
    // A guest who registers is a new account too.
    let mut guest = Client::guest(&s).await;
    let r = register(&mut guest, "third").await;
    assert_eq!((r.status, r.code()), (429, "too_many_registrations"));
    // Another address is not affected.
    let r = register(&mut client_from(&s, "127.0.0.2"), "third").await;
    assert_eq!(r.status, 200, "{}", r.text);
}

async fn two_seat_table(c: &mut Client) -> Reply {
    c.create_table(
        "forgotten-treasures",
        json!({"players": 2}),
        json!([{"type": "me"}, {"type": "open"}]),
    )
    .await
}

#[tokio::test]
async fn accounts_have_table_and_seat_quotas() {
    let s = start_sqlite_with("account-quotas", |c| {
        c.limits.tables_per_account = 2;
        c.limits.seats_per_user = 3;
    })
    .await;
    let mut ann = Client::new(&s);
    assert_eq!(register(&mut ann, "ann").await.status, 200);
    for _ in 0..2 {
        let t = two_seat_table(&mut ann).await;
        assert_eq!(t.status, 201, "{}", t.text);
    }
    let t = two_seat_table(&mut ann).await;
    assert_eq!((t.status, t.code()), (429, "too_many_tables"), "{}", t.text);
    // Seats at others' tables count too: Ann holds 2 and may take one more.
    let mut bob = Client::new(&s);
    assert_eq!(register(&mut bob, "bob").await.status, 200);
    let mut tables = Vec::new();
    for _ in 0..2 {
        let t = two_seat_table(&mut bob).await;
        tables.push(t.body["id"].as_str().unwrap().to_string());
    }
    let j = ann
        .post(&format!("/api/tables/{}/join", tables[0]), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    let j = ann
        .post(&format!("/api/tables/{}/join", tables[1]), json!({}))
        .await;
    assert_eq!((j.status, j.code()), (429, "too_many_seats"), "{}", j.text);
    // A solo game is a seat too.
    let t = bob
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "a-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!((t.status, t.code()), (429, "too_many_tables"), "{}", t.text);
}

#[tokio::test]
async fn look_alike_names_are_refused() {
    let s = start_sqlite("look-alikes").await;
    assert_eq!(register(&mut Client::new(&s), "admin").await.status, 200);
    assert_eq!(register(&mut Client::new(&s), "ace").await.status, 200);
    let bold = "\u{1d41a}\u{1d41d}\u{1d426}\u{1d422}\u{1d427}";
    let combining = format!("admin{}", "\u{0301}".repeat(20));
    for (name, code) in [
        ("admin", "name_taken"),
        ("ADMIN", "name_taken"),
        ("Admin", "name_taken"),
        (bold, "name_taken"),
        ("a\u{0301}dmin", "name_taken"),
        ("adm\u{0131}n", "name_taken"),
        // Cyrillic а among Latin letters: two scripts.
        ("\u{0430}dmin", "bad_name"),
        // All Cyrillic, and looks like the Latin `ace`.
        ("\u{0430}\u{0441}\u{0435}", "name_taken"),
        (combining.as_str(), "bad_name"),
    ] {
        let r = register(&mut Client::new(&s), name).await;
        assert_eq!(
            (r.status, r.code()),
            (code_status(code), code),
            "{name:?}: {}",
            r.text
        );
        // A guest upgrading to that name is refused the same way.
        let mut guest = Client::guest(&s).await;
        let r = register(&mut guest, name).await;
        assert_eq!(r.code(), code, "{name:?} (guest): {}", r.text);
    }
    // The stored name is the plain one: mathematical bold is not kept.
    let mut styled = Client::new(&s);
    let r = register(&mut styled, "\u{1d41b}\u{1d428}\u{1d41b}").await;
    assert_eq!(r.body["name"], "bob", "{}", r.text);
    // Signing in with a look-alike of one's name works (it is the same name).
    let r = Client::new(&s)
        .post(
            "/api/login",
            json!({"name": "BOB", "password": "correct horse"}),
        )
        .await;
    assert_eq!((r.status, r.body["name"].as_str()), (200, Some("bob")));
}

fn code_status(code: &str) -> u16 {
    if code == "name_taken" { 409 } else { 400 }
}

#[tokio::test]
async fn a_name_never_passes_for_a_user_id() {
    let s = start_sqlite("id-names").await;
    let mut victim = Client::guest(&s).await;
    let id = victim.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    for name in [id.clone(), id.to_uppercase()] {
        let r = register(&mut Client::new(&s), &name).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_name"),
            "{name}: {}",
            r.text
        );
    }
    let r = register(&mut Client::new(&s), &format!("guest-{}", &id[..6])).await;
    assert_eq!((r.status, r.code()), (400, "bad_name"));
    // The victim's page is the victim's.
    let p = Client::new(&s).get(&format!("/api/users/{id}")).await;
    assert_eq!(p.status, 200, "{}", p.text);
    assert_eq!(p.body["id"], id.as_str(), "{}", p.text);
}

#[tokio::test]
async fn an_unknown_name_is_checked_like_a_wrong_password() {
    let s = start_sqlite_with("unknown-name", |c| {
        c.limits.hash_concurrency = 1;
        c.limits.hash_wait = std::time::Duration::ZERO;
    })
    .await;
    assert_eq!(register(&mut Client::new(&s), "known").await.status, 200);
    let login = |name: &'static str| {
        let mut c = Client::new(&s);
        async move {
            c.post(
                "/api/login",
                json!({"name": name, "password": "wrong password"}),
            )
            .await
        }
    };
    // Every hashing slot taken: a sign-in that checks a password must wait (and, waiting at
    // most 0 s, is answered `unavailable`). An unknown name waits like a known one: its
    // answer does not tell that the name does not exist.
    let held = s.state.hashing.clone().acquire_owned().await.unwrap();
    for name in ["known", "nobody"] {
        let r = login(name).await;
        assert_eq!((r.status, r.code()), (503, "unavailable"), "{name}");
    }
    drop(held);
    for name in ["known", "nobody"] {
        let r = login(name).await;
        assert_eq!((r.status, r.code()), (401, "unauthorized"), "{name}");
    }
}

#[tokio::test]
async fn names_of_older_accounts_get_their_keys_at_start() {
    let dir = temp_dir("name-keys");
    let s = start(sqlite_url(&dir), |_| {}).await;
    // Two accounts from before keys existed, whose names look alike.
    for (id, name) in [("old0000000001", "Carol"), ("old0000000002", "CAROL")] {
        sqlx::query("INSERT INTO users (id, name, password_hash, guest, created_at) VALUES ($1, $2, NULL, 0, $3)")
            .bind(id)
            .bind(name)
            .bind(if name == "Carol" { 1_i64 } else { 2 })
            .execute(&s.state.store.pool)
            .await
            .unwrap();
    }
    // A look-alike is still checked by exact name meanwhile.
    let again = start(sqlite_url(&dir), |_| {}).await;
    let r = register(&mut Client::new(&again), "carol").await;
    assert_eq!((r.status, r.code()), (409, "name_taken"), "{}", r.text);
    let key: Option<String> =
        sqlx::query_scalar("SELECT name_key FROM users WHERE id = 'old0000000001'")
            .fetch_one(&again.state.store.pool)
            .await
            .unwrap();
    assert_eq!(key.as_deref(), Some("carol"));
    let second: Option<String> =
        sqlx::query_scalar("SELECT name_key FROM users WHERE id = 'old0000000002'")
            .fetch_one(&again.state.store.pool)
            .await
            .unwrap();
    assert_eq!(second, None, "the second look-alike keeps no key");
}

/// Issue 54: keys stored before migration 0020 folded case before the skeleton, so `Ian`
/// and `lan` were two names. The migration (run again here on a database whose keys are the
/// old ones) has them computed again at start, oldest first: the older account, and the
/// older club, keep the key; the younger keep their names and sign-ins and hold no key.
#[tokio::test]
async fn migration_0020_computes_the_keys_again_and_the_older_name_keeps_its_key() {
    let dir = temp_dir("name-keys-0020");
    let s = start(sqlite_url(&dir), |_| {}).await;
    let pool = &s.state.store.pool;
    for (id, name, at) in [("old0000000011", "Ian", 1_i64), ("old0000000012", "lan", 2)] {
        sqlx::query("INSERT INTO users (id, name, password_hash, guest, created_at, name_key) VALUES ($1, $2, NULL, 0, $3, $4)")
            .bind(id)
            .bind(name)
            .bind(at)
            // The keys of before: case folded first.
            .bind(name.to_lowercase())
            .execute(pool)
            .await
            .unwrap();
    }
    for (id, name, at) in [
        ("club00000002", "lvy_club", 2_i64),
        ("club00000001", "Ivy_club", 1),
    ] {
        sqlx::query("INSERT INTO clubs (id, name, name_key, description, admission, invite, created_by, created_at) VALUES ($1, $2, $3, '', 'open', 'x', 'old0000000011', $4)")
            .bind(id)
            .bind(name)
            .bind(name.to_lowercase())
            .bind(at)
            .execute(pool)
            .await
            .unwrap();
    }
    // The database as it was before migration 0020 (its other changes undone), so that the
    // next start runs it again.
    for undo in [
        "DROP INDEX chat_reports_reporter_at",
        "DROP INDEX chat_reports_address_at",
        "ALTER TABLE chat_reports DROP COLUMN by_guest",
        "ALTER TABLE chat_reports DROP COLUMN address",
        "DELETE FROM _sqlx_migrations WHERE version = 20",
    ] {
        sqlx::query(undo).execute(pool).await.unwrap();
    }
    let again = start(sqlite_url(&dir), |_| {}).await;
    let pool = &again.state.store.pool;
    let key_of = |sql: &'static str, id: &'static str| async move {
        sqlx::query_scalar::<_, Option<String>>(sql)
            .bind(id)
            .fetch_one(pool)
            .await
            .unwrap()
    };
    let users = "SELECT name_key FROM users WHERE id = $1";
    let clubs = "SELECT name_key FROM clubs WHERE id = $1";
    let ian = key_of(users, "old0000000011").await;
    assert_eq!(
        ian.as_deref(),
        Some(pyramidion_server::names::key("lan").as_str())
    );
    assert_eq!(
        key_of(users, "old0000000012").await,
        None,
        "the younger keeps no key"
    );
    let ivy = key_of(clubs, "club00000001").await;
    assert_eq!(
        ivy.as_deref(),
        Some(pyramidion_server::names::key("lvy_club").as_str())
    );
    assert_eq!(
        key_of(clubs, "club00000002").await.as_deref(),
        Some("~stale:club00000002"),
        "the younger club keeps no key"
    );
    for name in ["IAN", "Lan", "ian"] {
        let r = register(&mut Client::new(&again), name).await;
        assert_eq!(
            (r.status, r.code()),
            (409, "name_taken"),
            "{name}: {}",
            r.text
        );
    }
}

/// The storage scenario PostgreSQL runs too (tests/postgres.rs).
#[tokio::test]
async fn names_quotas_and_pages_on_sqlite() {
    let s = start_sqlite("fair-scenario").await;
    fair_edges_scenarios::names_quotas_and_pages(&s).await;
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
    // The storage failed, not the request: `503 unavailable`, try again (issue 53).
    assert_eq!((r.status, r.code()), (503, "unavailable"), "{}", r.text);
    // The name was never taken: it registers now.
    let r = c.post("/api/register", creds.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = Client::new(&s).post("/api/register", creds).await;
    assert_eq!((r.status, r.code()), (409, "name_taken"));
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
    let game = solo_table(&mut c).await;
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

/// Password hashes are PHC strings; an account stored with the earlier format still signs in,
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
                .password_hash
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
        .password_hash
        .unwrap();
    assert!(new.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{new}");
}
