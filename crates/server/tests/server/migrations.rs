//! The database's migrations: a database made before the `sqlx::migrate!` files opens and keeps
//! its data.
use crate::common::*;
use pyramidion_server::db::rows::SeatKind;

/// Migrations are `sqlx::migrate!` files; a database made by the earlier string
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
    let user = user.unwrap();
    assert_eq!((user.name.as_deref(), user.guest), (Some("veteran"), false));
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
    solo_table(&mut c).await;
}

/// A stored game's kind and status are read back as types: a key this build does not register
/// (a game behind a cargo feature it was built without) or an unknown status is a corrupt row,
/// said as such, never a guess.
#[tokio::test]
async fn an_unknown_stored_game_kind_or_status_is_a_corrupt_row() {
    let s = start_sqlite("unknown-kind").await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            "pyramids",
            serde_json::json!({"players": 2}),
            serde_json::json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let row = s.state.store.game(&id).await.unwrap().unwrap();
    assert_eq!(row.kind.key(), "pyramids");
    let columns: [(&'static str, &'static str, &str, &str); 2] = [
        (
            "SELECT kind FROM games WHERE id = $1",
            "UPDATE games SET kind = $1 WHERE id = $2",
            "chess",
            "a stored game kind",
        ),
        (
            "SELECT status FROM games WHERE id = $1",
            "UPDATE games SET status = $1 WHERE id = $2",
            "claimed",
            "a stored game status",
        ),
    ];
    for (read, write, value, what) in columns {
        let original: String = sqlx::query_scalar(read)
            .bind(&id)
            .fetch_one(&s.state.store.pool)
            .await
            .unwrap();
        sqlx::query(write)
            .bind(value)
            .bind(&id)
            .execute(&s.state.store.pool)
            .await
            .unwrap();
        let error = s.state.store.game(&id).await.unwrap_err().to_string();
        assert!(error.contains(what) && error.contains(value), "{error}");
        sqlx::query(write)
            .bind(original)
            .bind(&id)
            .execute(&s.state.store.pool)
            .await
            .unwrap();
    }
    assert!(s.state.store.game(&id).await.unwrap().is_some());
}

/// Writes `value` into game `id`'s seats by `update` (`$1` the value, `$2` the game): a row
/// as another version, or a hand, may have left it.
async fn write_seats(pool: &sqlx::AnyPool, update: &'static str, value: &'static str, id: &str) {
    sqlx::query(update)
        .bind(value)
        .bind(id)
        .execute(pool)
        .await
        .unwrap();
}

/// A bot seat's level is read back as a level: one this build does not know (renamed since,
/// or edited by hand) is a corrupt row, said as such, never a bot of another level; its table
/// answers `internal`, not a guess.
#[tokio::test]
async fn an_unknown_stored_bot_level_is_a_corrupt_row() {
    let s = start_sqlite("unknown-bot-level").await;
    let mut c = Client::guest(&s).await;
    // An open seat: the table waits, and no bot is asked to move meanwhile.
    let t = c
        .create_table(
            "pyramids",
            serde_json::json!({"players": 3}),
            serde_json::json!([{"type": "me"}, {"type": "bot", "level": "easy"}, {"type": "open"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let seats = s.state.store.seats(&id).await.unwrap();
    assert_eq!(seats[1], SeatKind::Bot("easy".parse().unwrap()));
    let pool = &s.state.store.pool;
    let set_level = |level| {
        write_seats(
            pool,
            "UPDATE seats SET bot_level = $1 WHERE game_id = $2 AND kind = 'bot'",
            level,
            &id,
        )
    };
    set_level("grandmaster").await;
    let error = s.state.store.seats(&id).await.unwrap_err().to_string();
    assert!(
        error.contains("a stored bot level") && error.contains("grandmaster"),
        "{error}"
    );
    let r = c.get(&format!("/api/tables/{id}")).await;
    assert_eq!((r.status, r.code()), (500, "internal"), "{}", r.text);
    set_level("easy").await;
    let r = c.get(&format!("/api/tables/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.body["seats"][1],
        serde_json::json!({"type": "bot", "level": "easy"})
    );
}

/// A seat's kind is read back as a kind: one this build does not know (written by another
/// version, or edited by hand) is a corrupt row, said as such, never an open seat a stranger
/// could take from the player it held; its table answers `internal`, and nobody joins it.
#[tokio::test]
async fn an_unknown_stored_seat_kind_is_a_corrupt_row() {
    let s = start_sqlite("unknown-seat-kind").await;
    let mut c = Client::guest(&s).await;
    let t = c
        .create_table(
            "pyramids",
            serde_json::json!({"players": 2}),
            serde_json::json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let pool = &s.state.store.pool;
    let set_kind = |kind| {
        write_seats(
            pool,
            "UPDATE seats SET kind = $1 WHERE game_id = $2 AND seat = 0",
            kind,
            &id,
        )
    };
    set_kind("player").await;
    let error = s.state.store.seats(&id).await.unwrap_err().to_string();
    assert!(
        error.contains("a stored seat kind") && error.contains("player"),
        "{error}"
    );
    let r = c.get(&format!("/api/tables/{id}")).await;
    assert_eq!((r.status, r.code()), (500, "internal"), "{}", r.text);
    // Read as open, the creator's seat was the first free one: a stranger's join would take it.
    let mut stranger = Client::guest(&s).await;
    let r = stranger
        .post(&format!("/api/tables/{id}/join"), serde_json::json!({}))
        .await;
    assert_eq!((r.status, r.code()), (500, "internal"), "{}", r.text);
    set_kind("human").await;
    let r = c.get(&format!("/api/tables/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["seats"][0]["type"], "human");
    assert_eq!(r.body["seats"][1], serde_json::json!({"type": "open"}));
}
