//! Tournaments (issue 49 item 1) over real HTTP and WebSockets: a Swiss of three rounds at
//! tables of two with a bot filling, played to its podium; withdrawals; entry conditions.
use crate::common::after_game_scenarios::{account, play_out};
use crate::common::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The tournament once `done` says it is as wanted, read again until then (20 s at most).
pub(crate) async fn until(c: &mut Client, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let t = c.get(&format!("/api/tournaments/{id}")).await;
        assert_eq!(t.status, 200, "{}", t.text);
        if done(&t.body) {
            return t.body;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "waited for {}",
            t.text
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Plays the player's game of every round the `tournament` messages start, until the
/// tournament's `finished` message; the standings each message carried, in order.
async fn play_tournament(mut c: Client, mut ws: Socket) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let m = ws.next_of("tournament").await;
        seen.push(m["standings"].clone());
        match m["event"].as_str() {
            Some("finished") => return seen,
            Some("round_started") => {
                if let Some(game) = m["game"].as_str() {
                    play_out(&mut c, game).await;
                }
            }
            _ => {}
        }
    }
}

/// Placement points at a table of two (docs/tournaments.md): 24 the winner, 0 the other,
/// 12 each when level.
fn points_of(places: &[u64]) -> Vec<u64> {
    places
        .iter()
        .map(|&p| {
            let level = places.iter().filter(|&&o| o == p).count() as u64;
            let scale = [24, 0];
            (p..p + level).map(|q| scale[q as usize]).sum::<u64>() / level
        })
        .collect()
}

#[tokio::test]
async fn a_swiss_of_three_rounds_with_a_bot_filling_is_played_to_its_podium() {
    let s = start_sqlite("tourney_swiss").await;
    let mut anna = account(&s, "anna").await;
    let mut bruno = account(&s, "bruno").await;
    let mut guest = Client::guest(&s).await;

    // Bad settings: a clear error, nothing created.
    let good = json!({"name": "Autumn Swiss", "game": "pyramids", "format": "swiss", "seats": 2,
                      "rounds": 3, "bots": "random", "starts_in_s": 3600});
    for (change, status, code) in [
        (json!({"seats": 6}), 400, "bad_request"),
        (json!({"rounds": 0}), 400, "bad_request"),
        (json!({"format": "arena"}), 400, "bad_request"),
        (json!({"bots": "genius"}), 400, "unknown_bot_level"),
        (json!({"clock": "blitz"}), 400, "unknown_clock"),
        (json!({"rated": true}), 400, "rated_needs_clock"),
        (json!({"game": "chess"}), 400, "unknown_game"),
    ] {
        let mut body = good.clone();
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = anna.post("/api/tournaments", body).await;
        assert_eq!((r.status, r.code()), (status, code), "{}", r.text);
    }
    let r = guest.post("/api/tournaments", good.clone()).await;
    assert_eq!(
        (r.status, r.code()),
        (403, "account_required"),
        "{}",
        r.text
    );

    let r = anna.post("/api/tournaments", good).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    assert_eq!(r.body["status"], "open");
    assert_eq!(
        r.body["players"].as_array().unwrap().len(),
        1,
        "the creator entered"
    );
    // Guests may enter an open tournament; only its creator starts it early.
    for c in [&mut bruno, &mut guest] {
        let j = c
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(j.status, 200, "{}", j.text);
    }
    let early = bruno
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!((early.status, early.code()), (403, "not_creator"));
    let listed = guest.get("/api/tournaments").await.body;
    let mine = listed["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id.as_str())
        .expect("listed");
    assert_eq!(
        (mine["entrants"].as_u64(), mine["entered"].as_bool()),
        (Some(3), Some(true))
    );

    let sockets = [
        anna.socket().await,
        bruno.socket().await,
        guest.socket().await,
    ];
    let started = anna
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    let [wa, wb, wg] = sockets;
    let (sa, _, _) = tokio::join!(
        play_tournament(anna.clone(), wa),
        play_tournament(bruno.clone(), wb),
        play_tournament(guest.clone(), wg),
    );
    // The standings moved as results came in: more games counted each time.
    let counted: Vec<u64> = sa
        .iter()
        .map(|st| {
            st.as_array()
                .unwrap()
                .iter()
                .map(|p| p["games"].as_u64().unwrap())
                .sum()
        })
        .collect();
    assert!(counted.windows(2).all(|w| w[0] <= w[1]), "{counted:?}");
    assert_eq!(counted.last(), Some(&12), "4 players × 3 rounds");

    let t = until(&mut anna, &id, |t| t["status"] == "finished").await;
    let rounds = t["paired"].as_array().unwrap();
    assert_eq!(rounds.len(), 3, "three rounds, each paired once");
    let mut met = BTreeSet::new();
    let mut points: BTreeMap<String, u64> = BTreeMap::new();
    for round in rounds {
        let tables = round["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 2, "a bot fills the fourth seat: {round}");
        assert!(round["byes"].as_array().unwrap().is_empty());
        let mut seated = BTreeSet::new();
        for table in tables {
            let players: Vec<String> = table["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_str().unwrap().to_string())
                .collect();
            for p in &players {
                assert!(seated.insert(p.clone()), "{p} seated twice in a round");
            }
            // Four players over three rounds can all meet once: nobody meets anybody twice.
            let pair = (
                players[0].clone().min(players[1].clone()),
                players[0].clone().max(players[1].clone()),
            );
            assert!(met.insert(pair), "a repeat: {round}");
            // Each table is a normal game, finished, with its result.
            let game = table["game"].as_str().unwrap();
            let replay = anna.get(&format!("/api/games/{game}/replay")).await;
            assert_eq!(replay.status, 200, "{}", replay.text);
            let places: Vec<u64> = table["places"]
                .as_array()
                .expect("a result")
                .iter()
                .map(|p| p.as_u64().unwrap())
                .collect();
            for (p, pts) in players.iter().zip(points_of(&places)) {
                *points.entry(p.clone()).or_default() += pts;
            }
        }
        assert_eq!(seated.len(), 4);
    }
    // The standings are the placement points, ordered, the bot among them and marked.
    let standings = t["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4);
    for s in standings {
        assert_eq!(
            s["points"].as_u64().unwrap(),
            points[s["id"].as_str().unwrap()],
            "{s}"
        );
        assert_eq!(s["games"], 3);
    }
    assert!(
        standings
            .windows(2)
            .all(|w| w[0]["points"].as_u64() >= w[1]["points"].as_u64())
    );
    assert_eq!(standings.iter().filter(|s| s["bot"] == true).count(), 1);
    // The podium: the three people, by their places among people.
    let podium = t["podium"].as_array().unwrap();
    assert_eq!(podium.len(), 3, "{podium:?}");
    assert!(podium.iter().all(|p| p["bot"] == false));
    assert_eq!(podium[0]["place"], 1);
    let people: Vec<&Value> = standings.iter().filter(|s| s["bot"] == false).collect();
    assert_eq!(podium[0]["id"], people[0]["id"]);
    // Over: no more entries.
    let late = bruno
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!((late.status, late.code()), (409, "tournament_closed"));
}

#[tokio::test]
async fn a_withdrawn_player_is_not_paired_again_and_keeps_their_standing() {
    let s = start_sqlite("tourney_withdraw").await;
    let mut cs = Vec::new();
    for name in ["wanda", "xavier", "yara", "zeno"] {
        cs.push(account(&s, name).await);
    }
    let r = cs[0]
        .post(
            "/api/tournaments",
            json!({"name": "Two rounds", "game": "pyramids", "format": "swiss", "seats": 2,
                   "rounds": 2, "starts_in_s": 3600}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    for c in cs.iter_mut().skip(1) {
        let j = c
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(j.status, 200, "{}", j.text);
    }
    cs[0]
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let t = until(&mut cs[0], &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 1)
    })
    .await;
    let zeno = t["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "zeno")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // zeno withdraws during round 1: their game plays on.
    let left = cs[3]
        .post(&format!("/api/tournaments/{id}/leave"), json!({}))
        .await;
    assert_eq!(left.status, 200, "{}", left.text);
    let game_of = |t: &Value, round: usize, who: &str| -> Option<String> {
        t["paired"][round]["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tb| {
                tb["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|p| p["id"] == who)
            })
            .map(|tb| tb["game"].as_str().unwrap().to_string())
    };
    let mut ids = Vec::new();
    for c in cs.iter_mut() {
        let me = c.get("/api/me").await.body["id"]
            .as_str()
            .unwrap()
            .to_string();
        ids.push(me);
    }
    let mut plays = Vec::new();
    for (c, me) in cs.iter().zip(&ids) {
        let game = game_of(&t, 0, me).expect("everyone plays round 1");
        let mut c = c.clone();
        plays.push(tokio::spawn(async move { play_out(&mut c, &game).await }));
    }
    for p in plays {
        p.await.unwrap();
    }
    // Round 2: three players at tables of two, no bots: one table and one bye; not zeno.
    let t = until(&mut cs[0], &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 2)
    })
    .await;
    let round = &t["paired"][1];
    assert_eq!(round["tables"].as_array().unwrap().len(), 1);
    assert_eq!(round["byes"].as_array().unwrap().len(), 1);
    assert!(game_of(&t, 1, &zeno).is_none());
    assert!(round["byes"][0]["id"] != zeno.as_str());
    let bye = round["byes"][0]["id"].as_str().unwrap().to_string();
    let mut plays = Vec::new();
    for (c, me) in cs.iter().zip(&ids) {
        if let Some(game) = game_of(&t, 1, me) {
            let mut c = c.clone();
            plays.push(tokio::spawn(async move { play_out(&mut c, &game).await }));
        }
    }
    assert_eq!(plays.len(), 2);
    for p in plays {
        p.await.unwrap();
    }
    let t = until(&mut cs[0], &id, |t| t["status"] == "finished").await;
    let standing = |who: &str| -> Value {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == who)
            .unwrap()
            .clone()
    };
    let z = standing(&zeno);
    assert_eq!(
        (z["withdrawn"].as_bool(), z["games"].as_u64()),
        (Some(true), Some(1))
    );
    let b = standing(&bye);
    assert_eq!(b["byes"], 1, "{b}");
    assert!(b["points"].as_u64().unwrap() >= 12, "a bye scores 12: {b}");
}

#[tokio::test]
async fn entries_are_checked_and_too_few_entrants_cancel() {
    let s = start_sqlite("tourney_entries").await;
    let mut host = account(&s, "host").await;
    let mut other = account(&s, "other").await;
    // Invite only: unlisted to others, entered with its invite.
    let r = host
        .post(
            "/api/tournaments",
            json!({"name": "Friends", "game": "pyramids", "format": "swiss", "seats": 3,
                   "rounds": 1, "entry": "invite", "starts_in_s": 3600}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    let invite = r.body["invite"]
        .as_str()
        .expect("the creator sees the invite")
        .to_string();
    let listed = other.get("/api/tournaments").await.body;
    assert!(
        !listed["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str())
    );
    let seen = other.get(&format!("/api/tournaments/{id}")).await;
    assert!(seen.body.get("invite").is_none(), "{}", seen.text);
    let j = other
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!((j.status, j.code()), (403, "bad_invite"));
    let j = other
        .post(
            &format!("/api/tournaments/{id}/join"),
            json!({"invite": invite}),
        )
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    // Two people at tables of three without bots: no table forms, it is cancelled.
    host.post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let t = until(&mut host, &id, |t| t["status"] == "cancelled").await;
    assert!(t["paired"].as_array().unwrap().is_empty());

    // A rating range: a new player (1500) is outside 1600 and up.
    let r = host
        .post(
            "/api/tournaments",
            json!({"name": "Strong", "game": "pyramids", "format": "swiss", "seats": 2,
                   "rounds": 1, "min_rating": 1600, "enter": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap();
    let j = other
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!((j.status, j.code()), (403, "rating_out_of_range"));
    let l = other
        .post(&format!("/api/tournaments/{id}/leave"), json!({}))
        .await;
    assert_eq!((l.status, l.code()), (404, "not_found"));
}

/// The next `seated` message of an Arena: the recipient's new game.
async fn seated(ws: &mut Socket) -> String {
    loop {
        let m = ws.next_of("tournament").await;
        if m["event"] == "seated" {
            return m["game"]
                .as_str()
                .expect("a seated message names the game")
                .to_string();
        }
    }
}

#[tokio::test]
async fn an_arena_seats_whoever_is_free_again_at_once_with_someone_new() {
    let s = start_sqlite("tourney_arena").await;
    let mut host = account(&s, "host").await;
    let r = host
        .post(
            "/api/tournaments",
            json!({"name": "Blitz Arena", "game": "pyramids", "format": "arena", "seats": 2,
                   "duration_min": 30, "starts_in_s": 3600}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    let bots = host
        .post(
            "/api/tournaments",
            json!({"name": "x", "game": "pyramids", "format": "arena", "seats": 2,
                   "duration_min": 30, "bots": "random"}),
        )
        .await;
    assert_eq!(
        (bots.status, bots.code()),
        (400, "bad_request"),
        "no bots in an Arena"
    );
    let mut cs = vec![host];
    for _ in 0..3 {
        let mut g = Client::guest(&s).await;
        let j = g
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        assert_eq!(j.status, 200, "{}", j.text);
        cs.push(g);
    }
    let mut sockets = Vec::new();
    let mut ids = Vec::new();
    for c in cs.iter_mut() {
        sockets.push(c.socket().await);
        ids.push(
            c.get("/api/me").await.body["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    cs[0]
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    // Everyone is seated at once: two tables of two.
    let mut first = Vec::new();
    for ws in sockets.iter_mut() {
        first.push(seated(ws).await);
    }
    let games: BTreeSet<&String> = first.iter().collect();
    assert_eq!(games.len(), 2, "{first:?}");
    // Both tables are played out; everyone sits again, each with someone new.
    let mut plays = Vec::new();
    for (c, game) in cs.iter().zip(&first) {
        let (mut c, game) = (c.clone(), game.clone());
        plays.push(tokio::spawn(async move { play_out(&mut c, &game).await }));
    }
    for p in plays {
        p.await.unwrap();
    }
    let mut second = Vec::new();
    for ws in sockets.iter_mut() {
        second.push(seated(ws).await);
    }
    for i in 0..4 {
        for j in i + 1..4 {
            assert!(
                !(first[i] == first[j] && second[i] == second[j]),
                "players {i} and {j} sat together again while others were free"
            );
        }
    }
    let t = until(&mut cs[0], &id, |t| {
        t["standings"].as_array().is_some_and(|s| s.len() == 4)
    })
    .await;
    assert_eq!(t["status"], "running");
    let points: u64 = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(points, 2 * 24, "two tables counted (no streak yet)");
    assert_eq!(t["paired"][0]["tables"].as_array().unwrap().len(), 4);
}

/// Issue 49: a club's tournament is made by a member, listed to and entered by its members
/// only; a stranger neither sees it nor enters it, and cannot make one for the club.
#[tokio::test]
async fn a_club_tournament_is_for_its_members_only() {
    let s = start_sqlite("tourney_club").await;
    let mut owner = account(&s, "clubowner").await;
    let mut member = account(&s, "clubmember").await;
    let mut stranger = account(&s, "stranger").await;
    let r = owner
        .post(
            "/api/clubs",
            json!({"name": format!("thursdays{}", std::process::id()), "admission": "open"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let club = r.body["id"].as_str().unwrap().to_string();
    let j = member
        .post(&format!("/api/clubs/{club}/join"), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    let spec = json!({"name": "Club night", "game": "pyramids", "format": "swiss", "seats": 2,
                      "rounds": 1, "entry": "club", "club": club, "starts_in_s": 3600});
    let refused = stranger.post("/api/tournaments", spec.clone()).await;
    assert_eq!(
        (refused.status, refused.code()),
        (403, "club_only"),
        "{}",
        refused.text
    );
    let r = owner.post("/api/tournaments", spec).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    let listed = |body: &Value| {
        body["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str())
    };
    assert!(listed(&member.get("/api/tournaments").await.body));
    assert!(!listed(&stranger.get("/api/tournaments").await.body));
    let j = stranger
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!((j.status, j.code()), (403, "bad_invite"), "{}", j.text);
    let j = member
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
}

/// A Swiss round of games without a clock cannot wait for ever (issue 49): a week after it
/// was paired, a game still under way is adjudicated (the seat to move ranks last, as a
/// time-out would rank it), the round ends, and the next one is paired. The servers' time of
/// day is the test's; the director is stepped at chosen times.
#[tokio::test]
async fn a_clockless_swiss_round_is_adjudicated_at_its_deadline() {
    use pyramidion_server::tournament::director;
    let dir = temp_dir("tourney_deadline");
    // A minute ahead: "start now" is the system's time, the director's the rooms'.
    let t0 = pyramidion_server::wall_clock::now_ms() + 60_000;
    let clock = pyramidion_server::wall_clock::WallClock::fixed(t0);
    let s = start(sqlite_url(&dir), move |c| c.room_clock = clock).await;
    let mut ada = account(&s, "ada").await;
    let mut bea = account(&s, "bea").await;
    let r = ada
        .post(
            "/api/tournaments",
            json!({"name": "Slow", "game": "pyramids", "format": "swiss", "seats": 2,
                   "rounds": 2, "starts_in_s": 3600}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["clock"], Value::Null, "turn-based without a clock");
    assert_eq!(r.body["round_days"], 7, "the default round length");
    let id = r.body["id"].as_str().unwrap().to_string();
    let j = bea
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    ada.post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let t = until(&mut ada, &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 1)
    })
    .await;
    let round = &t["paired"][0];
    let started = round["started_at"].as_i64().unwrap();
    let week = 7 * 24 * 3600 * 1000;
    assert_eq!(round["deadline_at"], started + week, "{round}");
    let game = round["tables"][0]["game"].as_str().unwrap().to_string();
    let state = ada.socket().await.subscribe(&game, None).await;
    let to_move = state["to_move"].as_u64().unwrap() as usize;

    // Nobody plays. Just before the deadline nothing is decided.
    director::step(&s.state, &id, started + week - 1)
        .await
        .unwrap();
    let row = s.state.store.game(&game).await.unwrap().unwrap();
    assert_eq!(row.status, pyramidion_server::game_status::GameStatus::Live);

    // At the deadline the game ends, the seat to move last; round 2 is paired.
    director::step(&s.state, &id, started + week).await.unwrap();
    let t = until(&mut ada, &id, |t| {
        t["paired"].as_array().is_some_and(|r| r.len() == 2)
    })
    .await;
    let places: Vec<u64> = t["paired"][0]["tables"][0]["places"]
        .as_array()
        .unwrap_or_else(|| panic!("round 1 has its result: {t}"))
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    let mut want = vec![0, 0];
    want[to_move] = 1;
    assert_eq!(places, want, "{t}");
    assert_eq!(
        t["paired"][0]["deadline_at"],
        Value::Null,
        "the round is over"
    );
    let row = s.state.store.game(&game).await.unwrap().unwrap();
    assert_eq!(
        row.status,
        pyramidion_server::game_status::GameStatus::Finished
    );
    let result: Value = serde_json::from_str(row.result.as_deref().unwrap()).unwrap();
    assert_eq!(result["ending"], "adjudicated", "{result}");
    assert_eq!(result["resigned"], json!([to_move]), "{result}");
}
