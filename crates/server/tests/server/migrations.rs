//! The database's migrations: a database made before the `sqlx::migrate!` files opens and keeps
//! its data.
use crate::common::*;

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
    solo_table(&mut c).await;
}
