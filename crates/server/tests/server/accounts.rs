//! Accounts under abuse (issue 29): registrations per address, table and seat quotas for
//! accounts, names unique by their look-alike key, no name that passes for a user id, and an
//! unknown name checked like a wrong password.
use crate::common::*;
use serde_json::json;
use std::net::IpAddr;

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

/// The storage scenario PostgreSQL runs too (tests/postgres.rs).
#[tokio::test]
async fn names_quotas_and_pages_on_sqlite() {
    let s = start_sqlite("fair-scenario").await;
    fair_edges_scenarios::names_quotas_and_pages(&s).await;
}
