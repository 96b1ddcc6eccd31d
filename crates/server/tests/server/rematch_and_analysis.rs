//! Rematches and analyses of finished games, through the HTTP API with games played over the
//! socket.
use crate::common::after_game_scenarios::{DUEL, account, play_out, play_table};
use crate::common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn a_rematch_seats_the_same_players_with_a_new_deal() {
    let s = start_sqlite("rematch").await;
    let mut c = Client::guest(&s).await;
    let seats = json!([{"type": "me"}, {"type": "bot", "level": "random"}]);
    let (id, _) = play_table(&mut c, DUEL, json!({"players": 2}), seats, true).await;
    let r = c.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["status"], "live", "only bots to wait for: it starts");
    assert_eq!(r.body["rated"], true);
    assert_eq!(r.body["seats"][0]["me"], true);
    assert_eq!(r.body["seats"][1]["level"], "random");
    let again = c.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["id"], r.body["id"]);
    let new = r.body["id"].as_str().unwrap();
    let (old_seed, new_seed) = (
        s.state.store.game(&id).await.unwrap().unwrap().seed,
        s.state.store.game(new).await.unwrap().unwrap().seed,
    );
    assert_ne!(old_seed, new_seed);
    let mut stranger = Client::guest(&s).await;
    let r = stranger
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (409, "not_seated"));
    let r = c
        .post(&format!("/api/games/{new}/rematch"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (409, "not_finished"));
}

/// Two players: the first to ask makes the table, the other takes the seat kept for them.
#[tokio::test]
async fn both_players_meet_again_at_the_rematch() {
    let s = start_sqlite("rematch-two").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let t = a
        .create_table(
            DUEL,
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        b.post(&format!("/api/tables/{id}/join"), json!({}))
            .await
            .status,
        200
    );
    let mut wa = a.socket().await;
    let mut wb = b.socket().await;
    let sa = wa.subscribe(&id, None).await;
    let sb = wb.subscribe(&id, None).await;
    let (ra, rb) = tokio::join!(wa.play_out(&id, sa, 1), wb.play_out(&id, sb, 2));
    assert_eq!(ra["finished"], rb["finished"]);
    let r = b.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["status"], "open");
    assert_eq!(r.body["seats"][0]["type"], "reserved");
    let a_id = a.get("/api/me").await.body["id"].clone();
    assert_eq!(r.body["seats"][0]["user"], a_id);
    assert_eq!(r.body["seats"][1]["me"], true);
    let new = r.body["id"].as_str().unwrap().to_string();
    // Nobody else takes the seat kept for a, not even with the table's invite link, which
    // the asker (its creator) may see and share.
    let invite = b.get(&format!("/api/tables/{new}")).await.body["invite"].clone();
    let mut stranger = Client::guest(&s).await;
    for body in [json!({}), json!({ "invite": invite })] {
        let r = stranger
            .post(&format!("/api/tables/{new}/join"), body)
            .await;
        assert!(
            matches!(r.code(), "not_found" | "table_full"),
            "{} {}",
            r.status,
            r.text
        );
    }
    let r2 = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r2.status, 200);
    assert_eq!(r2.body["id"], new.as_str());
    assert_eq!(r2.body["seats"][0]["me"], true);
    assert!(r2.body["invite"].is_null(), "no invite needed: {}", r2.text);
    let joined = a.post(&format!("/api/tables/{new}/join"), json!({})).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.body["status"], "live");
    assert_eq!(joined.body["seats"][0]["me"], true);
}

/// "Analyse": a player queues it, the bot pool works it out, and the replay shows each
/// decision's points lost.
#[tokio::test]
async fn a_finished_game_is_analysed_on_request() {
    let s = start_sqlite("analysis").await;
    let mut c = Client::guest(&s).await;
    let seats = json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]);
    let t = c.create_table(DUEL, json!({"players": 2}), seats).await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let r = c
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (409, "not_finished"));
    play_out(&mut c, &id).await;
    let none = c.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(none.body["status"], "none");
    let mut stranger = Client::guest(&s).await;
    let r = stranger
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!((r.status, r.code()), (409, "not_seated"));
    let r = c
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.body["status"], "queued");
    let mut done = Value::Null;
    for _ in 0..600 {
        let now = c.get(&format!("/api/games/{id}/analysis")).await.body;
        assert_ne!(now["status"], "failed", "{now}");
        if now["status"] == "done" {
            done = now;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let analysis = &done["analysis"];
    let replay = c.get(&format!("/api/games/{id}/replay")).await.body;
    assert_eq!(
        replay["analysis"]["analysis"], *analysis,
        "the replay carries it"
    );
    let plies = replay["plies"].as_u64().unwrap();
    let decisions = analysis["decisions"].as_array().expect("analysed in time");
    assert!(!decisions.is_empty());
    for d in decisions {
        let ply = d["ply"].as_u64().unwrap();
        assert!(ply < plies, "{d}");
        assert_eq!(replay["moves"][ply as usize]["text"], d["played"], "{d}");
        assert_eq!(replay["moves"][ply as usize]["seat"], d["seat"], "{d}");
        assert!(d["lost"].as_f64().unwrap() >= 0.0, "{d}");
    }
    // Both seats' decisions are there, the bot's and the player's.
    assert_eq!(analysis["seats"].as_array().unwrap().len(), 2);
    let again = c
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["analysis"], *analysis);
}

/// An analysis a restart cut short (its row still `queued`) starts again with the server,
/// rather than staying "queued" until someone asks again.
#[tokio::test]
async fn an_analysis_cut_short_by_a_restart_is_resumed() {
    let s = start_sqlite("analysis-restart").await;
    let mut c = Client::guest(&s).await;
    let seats = json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]);
    let t = c.create_table(DUEL, json!({"players": 2}), seats).await;
    let id = t.body["id"].as_str().unwrap().to_string();
    play_out(&mut c, &id).await;
    // As the first server would have left it when killed mid-analysis.
    s.state
        .store
        .set_analysis(
            &id,
            pyramidion_server::analysis_status::AnalysisStatus::Queued,
            None,
        )
        .await
        .unwrap();
    let restarted = start(sqlite_url(&s.dir), |_| {}).await;
    let mut reader = Client::new(&restarted);
    let mut status = Value::Null;
    for _ in 0..600 {
        let now = reader.get(&format!("/api/games/{id}/analysis")).await.body;
        status = now["status"].clone();
        if status != "queued" {
            assert!(
                now["analysis"]["decisions"]
                    .as_array()
                    .is_some_and(|d| !d.is_empty()),
                "{now}"
            );
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(status, "done");
}

/// Any signed-in player may ask for the analysis of a finished public game they did not play
/// in, up to a daily quota; not of an unlisted one, and not as a guest. Its players are never
/// counted against the quota.
#[tokio::test]
async fn a_signed_in_player_analyses_public_games_within_a_daily_quota() {
    let s = start_sqlite_with("analysis-quota", |c| c.analysis_daily_quota = 1).await;
    let mut player = Client::guest(&s).await;
    let seats = json!([{"type": "me"}, {"type": "bot", "level": "random"}]);
    let mut games = Vec::new();
    for listed in [true, true, false] {
        let t = player
            .post(
                "/api/tables",
                json!({ "game": DUEL, "options": {"players": 2}, "seats": seats, "listed": listed }),
            )
            .await;
        assert_eq!(t.status, 201, "{}", t.text);
        let id = t.body["id"].as_str().unwrap().to_string();
        play_out(&mut player, &id).await;
        games.push(id);
    }
    let mut reader = account(&s, "reader").await;
    let ask = |id: &str| format!("/api/games/{id}/analysis");
    let r = reader.post(&ask(&games[0]), json!({})).await;
    assert_eq!(r.status, 202, "{}", r.text);
    // Asking again for the same game costs nothing.
    let r = reader.post(&ask(&games[0]), json!({})).await;
    assert!(matches!(r.status, 200 | 202), "{}", r.text);
    let r = reader.post(&ask(&games[1]), json!({})).await;
    assert_eq!((r.status, r.code()), (429, "analysis_quota"), "{}", r.text);
    let r = reader.post(&ask(&games[2]), json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (409, "not_seated"),
        "unlisted: {}",
        r.text
    );
    let mut guest = Client::guest(&s).await;
    let r = guest.post(&ask(&games[1]), json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (409, "not_seated"),
        "a guest: {}",
        r.text
    );
    // The game's own player is not limited by the quota.
    let r = player.post(&ask(&games[1]), json!({})).await;
    assert_eq!(r.status, 202, "{}", r.text);
}
