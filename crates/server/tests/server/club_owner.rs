//! What only a club's owner does (issue 49 item 3): rename (names checked like account
//! names), hand the club over, delete it; moderators may not. And friends-only and club
//! tables reaching the live lobbies of those who may sit there, and nobody else's.
use crate::common::after_game_scenarios::account;
use crate::common::*;
use serde_json::{Value, json};

async fn named(s: &TestServer, stem: &str) -> (Client, String) {
    let name = format!("{stem}7");
    (account(s, &name).await, name)
}

#[tokio::test]
async fn only_the_owner_renames_hands_over_and_deletes_a_club() {
    let s = start_sqlite("club-owner").await;
    let (mut anna, _) = named(&s, "owner").await;
    let (mut bruno, bruno_name) = named(&s, "mod").await;
    let (mut carla, carla_name) = named(&s, "member").await;
    let (mut dino, dino_name) = named(&s, "stranger").await;
    let name = format!("club_{}", 7);
    let r = anna
        .post("/api/clubs", json!({"name": name, "admission": "open"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let club = r.body["id"].as_str().unwrap().to_string();
    let other = format!("other_{}", 7);
    let r = dino
        .post("/api/clubs", json!({"name": other, "admission": "open"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let path = format!("/api/clubs/{club}");
    for c in [&mut bruno, &mut carla] {
        let r = c.post(&format!("{path}/join"), json!({})).await;
        assert_eq!(r.body["role"], "member", "{}", r.text);
    }
    let r = anna
        .post(
            &format!("{path}/members/{bruno_name}"),
            json!({"action": "promote"}),
        )
        .await;
    assert_eq!(r.body["role"], "moderator", "{}", r.text);

    // A moderator (and a member, and a stranger) may not.
    for c in [&mut bruno, &mut carla, &mut dino] {
        let r = c.patch(&path, json!({"name": "taken_over"})).await;
        assert_eq!((r.status, r.code()), (403, "not_club_owner"), "{}", r.text);
        let r = c
            .post(&format!("{path}/owner"), json!({"user": carla_name}))
            .await;
        assert_eq!((r.status, r.code()), (403, "not_club_owner"), "{}", r.text);
        let r = c.delete(&path).await;
        assert_eq!((r.status, r.code()), (403, "not_club_owner"), "{}", r.text);
    }

    // A rename is checked like an account name; a look-alike of another club's is taken.
    let r = anna.patch(&path, json!({"name": "a b"})).await;
    assert_eq!((r.status, r.code()), (400, "bad_name"), "{}", r.text);
    let r = anna
        .patch(&path, json!({"name": other.to_uppercase()}))
        .await;
    assert_eq!((r.status, r.code()), (409, "club_name_taken"), "{}", r.text);
    let renamed = format!("renamed_{}", 7);
    let r = anna.patch(&path, json!({"name": renamed})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body, json!({"id": club, "name": renamed}));
    assert_eq!(anna.get(&path).await.body["name"], renamed);
    let found = Client::new(&s)
        .get(&format!("/api/clubs?q={renamed}"))
        .await;
    assert_eq!(found.body["clubs"][0]["id"], club, "{}", found.text);
    // Its old name is free again.
    let r = dino
        .post("/api/clubs", json!({"name": name, "admission": "open"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);

    // Handed to a member only; the old owner stays as a moderator.
    let r = anna
        .post(&format!("{path}/owner"), json!({"user": dino_name}))
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let r = anna
        .post(&format!("{path}/owner"), json!({"user": carla_name}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["role"], "moderator");
    let page = carla.get(&path).await;
    assert_eq!(page.body["role"], "owner", "{}", page.text);
    assert_eq!(anna.get(&path).await.body["role"], "moderator");
    let r = anna.patch(&path, json!({"name": "mine_again"})).await;
    assert_eq!((r.status, r.code()), (403, "not_club_owner"), "{}", r.text);
    // The new owner may leave no more than the old one could; the old one may now.
    let r = carla.post(&format!("{path}/leave"), json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (409, "club_owner_stays"),
        "{}",
        r.text
    );

    // Deleted: gone from every list and page.
    let r = carla.delete(&path).await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(carla.get(&path).await.status, 404);
    for c in [&mut anna, &mut bruno, &mut carla] {
        let mine = c.get("/api/me/clubs").await;
        assert!(
            !mine.body["clubs"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["id"] == club),
            "{}",
            mine.text
        );
    }
    let r = carla.delete(&path).await;
    assert_eq!(r.status, 404, "{}", r.text);
}

/// A socket of `c` that watches the lobby (and is known to: a ping answered after it).
async fn lobby(c: &Client) -> Socket {
    let mut ws = c.socket().await;
    ws.send(json!({"type": "watch_lobby"})).await;
    ws.send(json!({"type": "ping", "id": 1})).await;
    ws.next_of("pong").await;
    ws
}

/// The id of the next `table` message on `ws`.
async fn next_table(ws: &mut Socket) -> Value {
    ws.next_of("table").await["table"]["id"].clone()
}

#[tokio::test]
async fn friends_and_club_tables_reach_the_live_lobbies_of_those_who_may_sit_there_only() {
    let s = start_sqlite("club-lobby").await;
    let (mut anna, _) = named(&s, "host").await;
    let (bruno, bruno_name) = named(&s, "friend").await;
    let (mut carla, _) = named(&s, "clubber").await;
    let (dino, _) = named(&s, "outsider").await;
    let guest = Client::guest(&s).await;
    let r = anna
        .post(&format!("/api/users/{bruno_name}/follow"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let name = format!("club_{}", 7);
    let r = anna
        .post("/api/clubs", json!({"name": name, "admission": "open"}))
        .await;
    let club = r.body["id"].as_str().unwrap().to_string();
    let r = carla
        .post(&format!("/api/clubs/{club}/join"), json!({}))
        .await;
    assert_eq!(r.body["role"], "member", "{}", r.text);

    let (mut wb, mut wc, mut wd, mut wg) = (
        lobby(&bruno).await,
        lobby(&carla).await,
        lobby(&dino).await,
        lobby(&guest).await,
    );
    let table = |extra: Value| {
        let mut body = json!({"game": "pyramids", "options": {"players": 2},
                              "seats": [{"type": "me"}, {"type": "open"}]});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let r = anna
        .post("/api/tables", table(json!({"friends_only": true})))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let friends = r.body["id"].clone();
    let r = anna.post("/api/tables", table(json!({"club": club}))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let clubbed = r.body["id"].clone();
    let r = anna.post("/api/tables", table(json!({}))).await;
    let public = r.body["id"].clone();

    // Each hears of the tables it may sit at, in order, and of no other: the public table
    // is the next one the others hear of.
    assert_eq!(next_table(&mut wb).await, friends);
    assert_eq!(next_table(&mut wb).await, public);
    assert_eq!(next_table(&mut wc).await, clubbed);
    assert_eq!(next_table(&mut wc).await, public);
    assert_eq!(next_table(&mut wd).await, public);
    assert_eq!(next_table(&mut wg).await, public);
}

/// A deleted club takes with it what only its members could have joined (issue 49): its
/// members-only table still waiting for players is closed (`abandoned`: its seated player
/// and the former members' lobbies are told), its tournament not yet started is cancelled
/// ("club_deleted"); the owner's public table stays open.
#[tokio::test]
async fn a_deleted_clubs_open_tables_and_tournaments_not_started_are_closed() {
    deleted_club_closes_its_tables_and_tournaments(&start_sqlite("club-closing").await).await;
}

/// The scenario of the test above, on any store (`crate::postgres` runs it on PostgreSQL).
pub(crate) async fn deleted_club_closes_its_tables_and_tournaments(s: &TestServer) {
    let (mut anna, _) = named(s, "closer").await;
    let (mut carla, _) = named(s, "regular").await;
    let r = anna
        .post(
            "/api/clubs",
            json!({"name": "closing_7", "admission": "open"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let club = r.body["id"].as_str().unwrap().to_string();
    let r = carla
        .post(&format!("/api/clubs/{club}/join"), json!({}))
        .await;
    assert_eq!(r.body["role"], "member", "{}", r.text);
    let table = |extra: Value| {
        let mut body = json!({"game": "pyramids", "options": {"players": 3},
                              "seats": [{"type": "me"}, {"type": "open"}, {"type": "open"}]});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let r = anna.post("/api/tables", table(json!({"club": club}))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let clubbed = r.body["id"].as_str().unwrap().to_string();
    let r = anna.post("/api/tables", table(json!({}))).await;
    let public = r.body["id"].as_str().unwrap().to_string();
    let r = anna
        .post(
            "/api/tournaments",
            json!({"name": "Club night", "game": "pyramids", "format": "swiss", "seats": 2,
                   "rounds": 1, "entry": "club", "club": club, "starts_in_s": 3600}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let tournament = r.body["id"].as_str().unwrap().to_string();
    let r = carla
        .post(&format!("/api/tournaments/{tournament}/join"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut wc = lobby(&carla).await;
    let mut wa = anna.socket().await;

    let r = anna.delete(&format!("/api/clubs/{club}")).await;
    assert_eq!(r.status, 204, "{}", r.text);

    // The seated owner and the former member hear that the club's table closed.
    for ws in [&mut wc, &mut wa] {
        let m = ws.next_of("table").await;
        assert_eq!(m["table"]["id"], clubbed.as_str(), "{m}");
        assert_eq!(m["table"]["status"], "abandoned", "{m}");
    }
    let m = wc.next_of("tournament").await;
    assert_eq!(
        (&m["tournament"], &m["status"]),
        (&json!(tournament), &json!("cancelled")),
        "{m}"
    );
    let t = carla.get(&format!("/api/tables/{clubbed}")).await;
    assert_eq!(t.body["status"], "abandoned", "{}", t.text);
    let j = carla
        .post(&format!("/api/tables/{clubbed}/join"), json!({}))
        .await;
    assert_eq!(j.status, 409, "{}", j.text);
    let t = carla.get(&format!("/api/tables/{public}")).await;
    assert_eq!(t.body["status"], "open", "{}", t.text);
    let t = carla.get(&format!("/api/tournaments/{tournament}")).await;
    assert_eq!(
        (&t.body["status"], &t.body["cancelled_because"]),
        (&json!("cancelled"), &json!("club_deleted")),
        "{}",
        t.text
    );
    // Cancelled, not run: past its start time the director pairs nothing.
    let later = pyramidion_server::wall_clock::now_ms() + 2 * 3600 * 1000;
    let stepped = pyramidion_server::tournament::director::step(&s.state, &tournament, later)
        .await
        .unwrap();
    assert!(!stepped);
    let t = carla.get(&format!("/api/tournaments/{tournament}")).await;
    assert_eq!(t.body["status"], "cancelled", "{}", t.text);
    assert_eq!(t.body["paired"], json!([]), "{}", t.text);
}
