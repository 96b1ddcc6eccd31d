//! A live game's room is built once on an instance however many ask for it at once (issue
//! 28's cluster, PostgreSQL only: on SQLite there is no lease). Two builds at once would both
//! claim the game's lease, and the one that lost the race would let the game go at the newer
//! epoch while the winner's room ran on, fenced out: another instance would take the game
//! over, and the players following the fenced room would hear nothing more.
use crate::common::*;
use pyramidion_server::db::rows::SeatKind;

pub async fn one_build_per_game(server: &TestServer) {
    let state = &server.state;
    let cluster = state
        .cluster
        .clone()
        .expect("an instance on PostgreSQL is in a cluster");
    let id = "build-race-1";
    let row = crate::pairing_queue::game(id, "builder-a");
    let seats = [
        SeatKind::Human("builder-a".into()),
        SeatKind::Human("builder-b".into()),
    ];
    state.store.create_game(&row, &seats).await.unwrap();
    // Eight players (and the orphan sweep) ask for the game's room at once.
    let asks = (0..8).map(|_| state.rooms.get(&state.live, id));
    let rooms = futures_util::future::join_all(asks).await;
    let first = rooms[0].as_ref().unwrap().as_ref().unwrap();
    assert!(first.local, "the game runs here");
    for room in &rooms {
        let room = room.as_ref().unwrap().as_ref().unwrap();
        assert!(room.tx.same_channel(&first.tx), "one room for every ask");
    }
    let (owner, epoch): (String, i64) =
        sqlx::query_as("SELECT owner, epoch FROM game_leases WHERE game_id = $1")
            .bind(id)
            .fetch_one(&state.store.pool)
            .await
            .unwrap();
    // One claim: the lease is this instance's, at its first epoch, and nobody let it go.
    assert_eq!((owner.as_str(), epoch), (cluster.me.as_str(), 1));
}

/// Issue 53: a room whose game was taken over while this instance's life lapsed (as after
/// SIGSTOP, or a database outage) stops serving it once the heartbeat sees the lapse: its
/// follower is told to subscribe again (`lagging`), the room ends, and the next subscription
/// is not served the state the game left behind (this instance no longer runs it).
pub async fn a_room_whose_lease_moved_on_stops_serving(server: &TestServer) {
    use pyramidion_server::live::room_cmd::{RoomCmd, next_conn};
    let state = &server.state;
    let cluster = state
        .cluster
        .clone()
        .expect("an instance on PostgreSQL is in a cluster");
    let id = "lost-lease-1";
    let row = crate::pairing_queue::game(id, "loser-a");
    let seats = [
        SeatKind::Human("loser-a".into()),
        SeatKind::Human("loser-b".into()),
    ];
    state.store.create_game(&row, &seats).await.unwrap();
    let room = state.rooms.get(&state.live, id).await.unwrap().unwrap();
    assert!(room.local, "the game runs here");
    let (out, mut inbox) = pyramidion_server::queue::channel(16);
    room.tx
        .send(RoomCmd::Subscribe {
            conn: next_conn(),
            user: Some("loser-a".into()),
            out,
            last_event: None,
        })
        .await
        .unwrap();
    let first = serde_json::to_value(inbox.recv().await.unwrap()).unwrap();
    assert_eq!(first["type"], "state", "{first}");
    // Another instance, alive, takes the game over while this one's life has lapsed.
    let pool = &state.store.pool;
    for stmt in [
        "INSERT INTO instances (id, address, alive_until, started_at) VALUES ('elsewhere',
           'http://127.0.0.1:9', CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) + 20000, 0)",
        "UPDATE game_leases SET owner = 'elsewhere', epoch = epoch + 1 WHERE game_id = 'lost-lease-1'",
    ] {
        sqlx::query(stmt).execute(pool).await.unwrap();
    }
    // The next heartbeat (every second) sees the lapse and the room checks its lease. The
    // lapse is written again every 2 s: a heartbeat under way when it is written renews the
    // life over it without seeing it (its statement read the row before), as a loaded CI
    // machine showed once.
    let mut told = None;
    for _ in 0..5 {
        sqlx::query("UPDATE instances SET alive_until = 0 WHERE id = $1")
            .bind(&cluster.me)
            .execute(pool)
            .await
            .unwrap();
        if let Ok(m) = tokio::time::timeout(std::time::Duration::from_secs(2), inbox.recv()).await {
            told = Some(m.map(|m| serde_json::to_value(m).unwrap()));
            break;
        }
    }
    let told = told
        .expect("the follower is told within 10 s")
        .expect("a message");
    assert_eq!(
        (told["type"].as_str(), told["code"].as_str()),
        (Some("error"), Some("lagging")),
        "{told}"
    );
    for _ in 0..200 {
        if room.tx.is_closed() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(room.tx.is_closed(), "the room that lost its game ended");
    // Whoever asks now is sent to the owner (a remote room), never this instance's state.
    let now = state.rooms.get(&state.live, id).await.unwrap().unwrap();
    assert!(!now.local, "the game runs elsewhere now");
    sqlx::query("DELETE FROM instances WHERE id = 'elsewhere'")
        .execute(pool)
        .await
        .unwrap();
}
