//! Friends and clubs on any backend (issue 49 items 2 and 3): follows and presence, a
//! challenge and its notice, friends-only tables refused to others, clubs' admissions, roles,
//! bans, and club-only tables refused and hidden from non-members.
use super::after_game_scenarios::account;
use super::*;

/// An account with a name no other scenario on the same database uses.
async fn named(server: &TestServer, stem: &str) -> (Client, String) {
    let name = format!("{stem}{}", rand_suffix() % 1_000_000);
    (account(server, &name).await, name)
}

fn two_seats(extra: Value) -> Value {
    let mut body = json!({"game": "pyramids", "options": {"players": 2},
                          "seats": [{"type": "me"}, {"type": "open"}]});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

fn listed(lobby: &Reply, id: &str) -> bool {
    lobby.body["tables"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"] == id)
}

pub async fn friends(server: &TestServer) {
    let (mut anna, anna_name) = named(server, "anna").await;
    let (mut bruno, bruno_name) = named(server, "bruno").await;
    let (mut carla, carla_name) = named(server, "carla").await;
    let mut guest = Client::guest(server).await;
    let bruno_id = bruno.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Guests neither follow nor are followed.
    let r = guest
        .post(&format!("/api/users/{bruno_name}/follow"), json!({}))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (403, "account_required"),
        "{}",
        r.text
    );
    let guest_id = guest.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = anna
        .post(&format!("/api/users/{guest_id}/follow"), json!({}))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (403, "account_required"),
        "{}",
        r.text
    );
    let r = anna
        .post(&format!("/api/users/{anna_name}/follow"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);

    // Anna follows Bruno (twice is once); he is not on the site yet.
    for _ in 0..2 {
        let r = anna
            .post(&format!("/api/users/{bruno_name}/follow"), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.body, json!({"user": bruno_id, "following": true}));
    }
    let f = anna.get("/api/me/friends").await;
    assert_eq!(f.status, 200, "{}", f.text);
    assert_eq!(f.body["friends"].as_array().unwrap().len(), 1, "{}", f.text);
    assert_eq!(f.body["friends"][0]["name"], bruno_name.as_str());
    assert_eq!(
        (
            &f.body["friends"][0]["online"],
            &f.body["friends"][0]["playing"]
        ),
        (&json!(false), &json!(false))
    );
    // Whether he is on the site is told to those who follow him, not to others.
    let stats = carla.get(&format!("/api/users/{bruno_name}/stats")).await;
    assert_eq!(
        (
            &stats.body["followers"],
            &stats.body["followed"],
            &stats.body["online"]
        ),
        (&json!(1), &json!(false), &Value::Null)
    );
    let stats = anna.get(&format!("/api/users/{bruno_name}/stats")).await;
    assert_eq!(
        (&stats.body["followed"], &stats.body["online"]),
        (&json!(true), &json!(false))
    );

    // On the site once his page is open.
    let mut ws_b = bruno.socket().await;
    ws_b.next_of("hello").await;
    let f = anna.get("/api/me/friends").await;
    assert_eq!(f.body["friends"][0]["online"], true, "{}", f.text);

    // A challenge: a seat kept for Bruno, who hears of it and takes it.
    let challenge = json!({"game": "pyramids", "options": {"players": 2},
                           "seats": [{"type": "me"}, {"type": "friend", "user": bruno_name}]});
    let r = anna.post("/api/tables", challenge.clone()).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["seats"][1]["user"], bruno_id.as_str(), "{}", r.text);
    let table = r.body["id"].as_str().unwrap().to_string();
    let notice = ws_b.next_of("challenge").await;
    assert_eq!(
        notice,
        json!({"type": "challenge", "table": table, "game": "pyramids", "by": anna_name})
    );
    // Only for a player one follows.
    let mut not_friend = challenge.clone();
    not_friend["seats"][1]["user"] = json!(carla_name);
    let r = anna.post("/api/tables", not_friend).await;
    assert_eq!((r.status, r.code()), (403, "not_following"), "{}", r.text);
    let r = carla
        .post(&format!("/api/tables/{table}/join"), json!({}))
        .await;
    assert_eq!(r.status, 409, "the kept seat is not Carla's: {}", r.text);
    let r = bruno
        .post(&format!("/api/tables/{table}/join"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["status"], "live");
    let f = anna.get("/api/me/friends").await;
    assert_eq!(f.body["friends"][0]["playing"], true, "{}", f.text);
    assert_eq!(f.body["friends"][0]["games"], json!([table]), "{}", f.text);

    // A friends-only table: Bruno may sit there, Carla may not (nor see it in the lobby).
    let r = anna
        .post("/api/tables", two_seats(json!({"friends_only": true})))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let only = r.body["id"].as_str().unwrap().to_string();
    assert_eq!(r.body["audience"], json!({"type": "friends"}));
    assert!(!listed(&carla.get("/api/tables?limit=200").await, &only));
    assert!(!listed(
        &Client::new(server).get("/api/tables?limit=200").await,
        &only
    ));
    assert!(listed(&bruno.get("/api/tables?limit=200").await, &only));
    let r = carla
        .post(&format!("/api/tables/{only}/join"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (403, "friends_only"), "{}", r.text);
    let r = anna
        .post(
            "/api/tables",
            two_seats(json!({"friends_only": true, "club": "x"})),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    let r = bruno
        .post(&format!("/api/tables/{only}/join"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);

    // Unfollowed: no longer a friend.
    let r = anna
        .delete(&format!("/api/users/{bruno_name}/follow"))
        .await;
    assert_eq!(r.body["following"], false, "{}", r.text);
    assert_eq!(anna.get("/api/me/friends").await.body["friends"], json!([]));

    // The player search finds accounts by the start of their name, look-alikes included.
    let found = guest
        .get(&format!("/api/users?q={}", anna_name.to_uppercase()))
        .await;
    assert_eq!(found.status, 200, "{}", found.text);
    assert!(
        found.body["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == anna_name.as_str()),
        "{}",
        found.text
    );
    for q in ["%25", "_", "guest"] {
        let r = guest.get(&format!("/api/users?q={q}")).await;
        assert_eq!(r.body["players"], json!([]), "{q}: {}", r.text);
    }
}

pub async fn clubs(server: &TestServer) {
    let (mut anna, _) = named(server, "owner").await;
    let (mut bruno, bruno_name) = named(server, "mod").await;
    let (mut carla, carla_name) = named(server, "member").await;
    let (mut dino, _) = named(server, "stranger").await;
    let mut guest = Client::guest(server).await;
    let name = format!("club_{}", rand_suffix() % 1_000_000);

    // Names are checked like account names; a look-alike is the same name.
    let r = guest
        .post("/api/clubs", json!({"name": name, "admission": "open"}))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (403, "account_required"),
        "{}",
        r.text
    );
    let r = anna
        .post("/api/clubs", json!({"name": "a b", "admission": "open"}))
        .await;
    assert_eq!((r.status, r.code()), (400, "bad_name"), "{}", r.text);
    let r = anna
        .post(
            "/api/clubs",
            json!({"name": name, "description": "Thursdays", "admission": "approval"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["role"], "owner");
    let club = r.body["id"].as_str().unwrap().to_string();
    let r = bruno
        .post(
            "/api/clubs",
            json!({"name": name.to_uppercase(), "admission": "open"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (409, "club_name_taken"), "{}", r.text);
    let path = format!("/api/clubs/{club}");

    // An approval club: a request waits, seen by moderators only.
    let r = bruno.post(&format!("{path}/join"), json!({})).await;
    assert_eq!(r.body["role"], "pending", "{}", r.text);
    let page = bruno.get(&path).await;
    assert_eq!(
        (&page.body["role"], &page.body["invite"]),
        (&json!("pending"), &Value::Null)
    );
    assert_eq!(
        page.body["members"].as_array().unwrap().len(),
        1,
        "{}",
        page.text
    );
    let page = anna.get(&path).await;
    assert_eq!(
        page.body["members"].as_array().unwrap().len(),
        2,
        "{}",
        page.text
    );
    let invite = page.body["invite"].as_str().unwrap().to_string();
    let act = |action: &str| json!({"action": action});
    let r = bruno
        .post(&format!("{path}/members/{carla_name}"), act("ban"))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (403, "not_club_moderator"),
        "{}",
        r.text
    );
    let r = anna
        .post(&format!("{path}/members/{bruno_name}"), act("approve"))
        .await;
    assert_eq!(r.body["role"], "member", "{}", r.text);
    let r = anna
        .post(&format!("{path}/members/{bruno_name}"), act("promote"))
        .await;
    assert_eq!(r.body["role"], "moderator", "{}", r.text);

    // A moderator bans and unbans; nobody touches the owner; the owner stays.
    let anna_id = anna.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = bruno
        .post(&format!("{path}/members/{anna_id}"), act("remove"))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (409, "club_owner_stays"),
        "{}",
        r.text
    );
    let r = anna.post(&format!("{path}/leave"), json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (409, "club_owner_stays"),
        "{}",
        r.text
    );
    let r = bruno
        .post(&format!("{path}/members/{carla_name}"), act("ban"))
        .await;
    assert_eq!(r.body["role"], "banned", "{}", r.text);
    let r = carla
        .post(&format!("{path}/join"), json!({"invite": invite}))
        .await;
    assert_eq!((r.status, r.code()), (403, "club_banned"), "{}", r.text);
    let r = bruno
        .post(&format!("{path}/members/{carla_name}"), act("unban"))
        .await;
    assert_eq!(r.body["role"], Value::Null, "{}", r.text);
    // The invite lets one in at once, past the approval.
    let r = carla
        .post(&format!("{path}/join"), json!({"invite": "nope"}))
        .await;
    assert_eq!((r.status, r.code()), (403, "bad_invite"), "{}", r.text);
    let r = carla
        .post(&format!("{path}/join"), json!({"invite": invite}))
        .await;
    assert_eq!(r.body["role"], "member", "{}", r.text);
    let carla_id = carla.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let store = &server.state.store;
    assert!(store.is_club_member(&club, &carla_id).await.unwrap());
    let r = bruno
        .post(&format!("{path}/members/{bruno_name}"), act("demote"))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (403, "not_club_moderator"),
        "{}",
        r.text
    );

    // Club-only tables: made by members, seen and taken by members only.
    let r = dino
        .post("/api/tables", two_seats(json!({"club": club})))
        .await;
    assert_eq!((r.status, r.code()), (403, "club_only"), "{}", r.text);
    let r = anna
        .post("/api/tables", two_seats(json!({"club": club})))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let table = r.body["id"].as_str().unwrap().to_string();
    assert_eq!(r.body["audience"], json!({"type": "club", "club": club}));
    assert!(!listed(&dino.get("/api/tables?limit=200").await, &table));
    assert!(listed(&carla.get("/api/tables?limit=200").await, &table));
    assert_eq!(dino.get(&path).await.body["tables"], json!([]));
    assert_eq!(
        carla.get(&path).await.body["tables"][0]["id"],
        table.as_str()
    );
    let r = dino
        .post(&format!("/api/tables/{table}/join"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (403, "club_only"), "{}", r.text);
    // Removed: no longer a member, no longer seated at its tables.
    let r = bruno
        .post(&format!("{path}/members/{carla_name}"), act("remove"))
        .await;
    assert_eq!(r.body["role"], Value::Null, "{}", r.text);
    let r = carla
        .post(&format!("/api/tables/{table}/join"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (403, "club_only"), "{}", r.text);
    let r = bruno
        .post(&format!("/api/tables/{table}/join"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);

    // An invite-only club: no way in without its token.
    let r = anna
        .post(
            "/api/clubs",
            json!({"name": format!("{name}x"), "admission": "invite"}),
        )
        .await;
    let other = r.body["id"].as_str().unwrap().to_string();
    let r = dino
        .post(&format!("/api/clubs/{other}/join"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (403, "bad_invite"), "{}", r.text);
    let list = dino.get(&format!("/api/clubs?q={name}")).await;
    assert_eq!(
        list.body["clubs"].as_array().unwrap().len(),
        2,
        "{}",
        list.text
    );
    let mine = anna.get("/api/clubs").await;
    assert_eq!(
        mine.body["mine"].as_array().unwrap().len(),
        2,
        "{}",
        mine.text
    );
}
