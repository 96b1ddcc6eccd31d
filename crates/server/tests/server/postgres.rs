//! The storage scenarios against a real PostgreSQL (same code path as SQLite). `scripts/test`
//! starts one and sets PYRAMIDION_TEST_POSTGRES; without it this test fails and says so.
use crate::common::*;

#[tokio::test]
async fn postgres_backend() {
    let url = std::env::var("PYRAMIDION_TEST_POSTGRES").expect(
        "PYRAMIDION_TEST_POSTGRES is not set: run the tests with scripts/test, which starts PostgreSQL, \
         or point it at a database the tests may fill (postgres://user:pass@host/db)",
    );
    // A fresh schema: the scenarios create their own users and games. The schema is dropped,
    // so a database whose name does not say it is for tests is refused before anything runs.
    let name = url
        .rsplit('/')
        .next()
        .and_then(|tail| tail.split('?').next())
        .unwrap_or_default();
    assert!(
        name.ends_with("_test"),
        "PYRAMIDION_TEST_POSTGRES names the database '{name}': these tests drop its schema, so \
         they only run on a database whose name ends in _test"
    );
    {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url)
            .await
            .expect("PostgreSQL reachable");
        for stmt in ["DROP SCHEMA public CASCADE", "CREATE SCHEMA public"] {
            sqlx::query(stmt).execute(&pool).await.unwrap();
        }
    }
    let server = start(url.clone(), |_| {}).await;
    // The rooms' clocks follow the database's, as leases do (issue 53): here, on one machine,
    // within a second of this one.
    let room_clock = &server.state.config.room_clock;
    assert!(
        !room_clock.is_system(),
        "the rooms read the database's clock"
    );
    assert!((room_clock.now_ms() - pyramidion_server::wall_clock::now_ms()).abs() < 1_000);
    scenarios::accounts(&server).await;
    scenarios::solo_game(&server).await;
    scenarios::nul_bytes(&server).await;
    after_game_scenarios::rated_game_replay_and_daily(&server).await;
    fair_scenarios::fair_shares_storage(&server).await;
    people_scenarios::people(&server).await;
    social_scenarios::friends(&server).await;
    social_scenarios::clubs(&server).await;
    crate::club_owner::deleted_club_closes_its_tables_and_tournaments(&server).await;
    fair_edges_scenarios::names_quotas_and_pages(&server).await;
    crate::reach::push_health_is_stored(&server).await;
    crate::mail_bounds::mail_bounds_are_counted(&server).await;
    crate::pairing_queue::races_on_postgres(&url).await;
    crate::room_builds::one_build_per_game(&server).await;
    crate::room_builds::a_room_whose_lease_moved_on_stops_serving(&server).await;
    crate::health::cluster_health_on_postgres(&url).await;
    crate::offline_games::kept_once_and_unrated(&server).await;
    crate::puzzles::tries_move_ratings(&server).await;
    crate::puzzles::two_instances_mine_each_game_once(&server, &url).await;
    // A restart on the same database resumes from the stored records.
    let again = start(url, |_| {}).await;
    scenarios::solo_game(&again).await;
}
