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
    let asks = (0..8).map(|_| state.rooms.get(state, id));
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
