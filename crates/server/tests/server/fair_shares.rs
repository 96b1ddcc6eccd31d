//! Fair shares under abuse (issue 29): the bot pool's lanes, the analysis and search-bot caps,
//! bounded analysis restarts, rated tables with clocks and the rules against rating farming,
//! through a real server.
//!
//! Most servers here run with `bot_threads = 0`: no pool thread takes searches or analyses,
//! so whatever waits behind them waits for ever. What still happens then is what the fast
//! lane alone does: nothing in these tests depends on how long anything takes.
use crate::common::after_game_scenarios::{DUEL, account, play_table};
use crate::common::*;
use pyramidion_server::live::fair_queue::Lane;
use serde_json::{Value, json};
use sqlx::Row;

/// A server on which nothing searches or analyses (see the module's documentation).
async fn no_search(name: &str, tweak: impl FnOnce(&mut pyramidion_server::Config)) -> TestServer {
    start_sqlite_with(name, |c| {
        c.bot_threads = 0;
        tweak(c);
    })
    .await
}

/// Waits (without timing anything) until `n` jobs wait in `lane`.
async fn until_waiting(s: &TestServer, lane: Lane, n: usize) {
    for _ in 0..2000 {
        if s.state.bots.waiting(lane) >= n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("{n} jobs never waited in {lane:?}");
}

/// Issue 29's must-show: another user runs 20 tables of `max` bots and has 40 analyses
/// queued, every one waiting (here: for ever, as no thread searches or analyses); a victim's
/// greedy bot still answers every move and the victim's game is played to its end, while all
/// 20 searches and 40 analyses still wait.
#[tokio::test]
async fn a_victims_greedy_bot_plays_while_a_flooders_searches_wait() {
    let s = no_search("fair-flood", |c| {
        c.limits.search_bots_per_user = 100;
        c.limits.analyses_per_user = 40;
        c.limits.analyses_per_address = 40;
        c.limits.max_analyses = 40;
        // Flooder and victim share 127.0.0.1 here; on a real server they are two addresses,
        // so the per-address message budget (tested in `limits`) must not be what is measured.
        c.ws_messages_per_second = 1e6;
        c.ws_burst = 1e6;
    })
    .await;
    let mut flooder = account(&s, "flooder").await;
    let mut finished = Vec::new();
    for _ in 0..40 {
        finished.push(finished_game(&mut flooder).await);
    }
    for game in &finished {
        assert_eq!(ask_analysis(&mut flooder, game).await.status, 202);
    }
    until_waiting(&s, Lane::Analysis, 40).await;
    for _ in 0..20 {
        // The bot sits first: it is to move at once.
        let t = flooder
            .create_table(
                DUEL,
                json!({"players": 2}),
                json!([{"type": "bot", "level": "max"}, {"type": "me"}]),
            )
            .await;
        assert_eq!(t.status, 201, "{}", t.text);
    }
    until_waiting(&s, Lane::Search, 20).await;
    let mut victim = Client::guest(&s).await;
    let seats = json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]);
    let (_, done) = play_table(&mut victim, DUEL, json!({"players": 2}), seats, false).await;
    assert_eq!(done["finished"], true);
    assert_eq!(
        (
            s.state.bots.waiting(Lane::Search),
            s.state.bots.waiting(Lane::Analysis)
        ),
        (20, 40),
        "the victim's game never needed a search or an analysis to be served"
    );
    let metrics = victim.get("/metrics").await.text;
    assert!(
        metrics.contains("pyramidion_bot_jobs_waiting{lane=\"search\"} 20"),
        "{metrics}"
    );
}

/// A player finishes a game against a greedy bot (played in the fast lane).
async fn finished_game(c: &mut Client) -> String {
    let seats = json!([{"type": "me"}, {"type": "bot", "level": "greedy"}]);
    play_table(c, DUEL, json!({"players": 2}), seats, false)
        .await
        .0
}

async fn ask_analysis(c: &mut Client, game: &str) -> Reply {
    c.post(&format!("/api/games/{game}/analysis"), json!({}))
        .await
}

/// Two analyses queued per user, then `429 too_many_analyses`; the server's cap, then
/// `503 analysis_queue_full`. Nothing analyses here, so the queue is exactly what was asked.
#[tokio::test]
async fn the_third_queued_analysis_of_a_user_is_refused_and_the_server_has_a_cap() {
    let s = no_search("fair-analyses", |c| c.limits.max_analyses = 3).await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let mut c = Client::guest(&s).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(finished_game(&mut a).await);
    }
    let (gb, gc) = (finished_game(&mut b).await, finished_game(&mut c).await);
    for g in &games[..2] {
        let r = ask_analysis(&mut a, g).await;
        assert_eq!(
            (r.status, &r.body["status"]),
            (202, &json!("queued")),
            "{}",
            r.text
        );
    }
    // Asking again for a queued one is no new analysis: it still answers "queued".
    let again = ask_analysis(&mut a, &games[0]).await;
    assert_eq!(again.status, 202, "{}", again.text);
    let third = ask_analysis(&mut a, &games[2]).await;
    assert_eq!(
        (third.status, third.code()),
        (429, "too_many_analyses"),
        "{}",
        third.text
    );
    assert_eq!(
        a.get(&format!("/api/games/{}/analysis", games[2]))
            .await
            .body["status"],
        "none",
        "a refused analysis is not recorded"
    );
    let r = ask_analysis(&mut b, &gb).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let full = ask_analysis(&mut c, &gc).await;
    assert_eq!(
        (full.status, full.code()),
        (503, "analysis_queue_full"),
        "{}",
        full.text
    );
    assert_eq!(s.state.analyses.len(), 3);
    // Only the first chunk of each waits in the pool, in the analysis lane.
    until_waiting(&s, Lane::Analysis, 3).await;
}

/// Issue 54: guests made from one address are one asker for the analysis queue: with two
/// analyses allowed per address, a second guest of the same address (here every client is
/// 127.0.0.1) is refused with `429 too_many_analyses_here` once the first holds both, though
/// it has asked for none itself.
#[tokio::test]
async fn guests_of_one_address_share_its_analysis_cap() {
    let s = no_search("fair-analyses-address", |c| {
        c.limits.analyses_per_address = 2;
    })
    .await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let ga = [finished_game(&mut a).await, finished_game(&mut a).await];
    let gb = finished_game(&mut b).await;
    for g in &ga {
        assert_eq!(ask_analysis(&mut a, g).await.status, 202);
    }
    let refused = ask_analysis(&mut b, &gb).await;
    assert_eq!(
        (refused.status, refused.code()),
        (429, "too_many_analyses_here"),
        "{}",
        refused.text
    );
    assert_eq!(s.state.analyses.len(), 2);
}

/// Issue 46: the analysis API says where an analysis is: queued, with the analyses asked
/// before it ahead, while the pool's one searching thread is busy with a bot's move; then
/// running, with its plies done, once the thread is free; then done.
#[tokio::test]
async fn an_analysis_says_it_is_queued_with_its_place_then_running() {
    let s = start_sqlite_with("analysis-progress", |c| c.bot_threads = 1).await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let (ga, gb) = (finished_game(&mut a).await, finished_game(&mut b).await);
    // The searching thread thinks for another table until released.
    let (started_tx, started_rx) = tokio::sync::oneshot::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let bots = s.state.bots.clone();
    let busy = tokio::spawn(async move {
        let search = pyramidion_server::live::bot_pool::Ticket {
            lane: Lane::Search,
            owner: "bots".into(),
            game: "t".into(),
        };
        bots.run(search, move || {
            let _ = started_tx.send(());
            let _ = release_rx.recv();
        })
        .await
    });
    started_rx.await.expect("the thread took the search");
    let first = ask_analysis(&mut a, &ga).await;
    assert_eq!(first.status, 202, "{}", first.text);
    assert_eq!(first.body["progress"]["state"], "queued", "{}", first.text);
    assert_eq!(first.body["progress"]["ahead"], 0, "{}", first.text);
    let second = ask_analysis(&mut b, &gb).await;
    assert_eq!(second.status, 202, "{}", second.text);
    let asked = b.get(&format!("/api/games/{gb}/analysis")).await.body;
    assert_eq!(asked["status"], "queued", "{asked}");
    assert_eq!(asked["progress"]["state"], "queued", "{asked}");
    assert_eq!(asked["progress"]["ahead"], 1, "{asked}");
    assert_eq!(asked["progress"]["done_plies"], 0, "{asked}");
    assert!(asked["progress"]["plies"].as_u64().unwrap() > 0, "{asked}");
    release_tx.send(()).unwrap();
    assert_eq!(busy.await.unwrap(), Some(()));
    let mut running = None;
    let mut last = Value::Null;
    for _ in 0..6000 {
        last = b.get(&format!("/api/games/{gb}/analysis")).await.body;
        assert_ne!(last["status"], "failed", "{last}");
        if last["status"] == "done" {
            break;
        }
        if last["progress"]["state"] == "running" && running.is_none() {
            running = Some(last.clone());
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let running = running.expect("the analysis was seen running");
    assert!(
        running["progress"]["done_plies"].as_u64().unwrap()
            < running["progress"]["plies"].as_u64().unwrap(),
        "{running}"
    );
    assert_eq!(last["status"], "done", "{last}");
    assert!(last.get("progress").is_none(), "{last}");
}

async fn analysis_row(s: &TestServer, game: &str) -> (String, i64) {
    let r = sqlx::query("SELECT status, attempts FROM analyses WHERE game_id = $1")
        .bind(game)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap();
    (r.try_get("status").unwrap(), r.try_get("attempts").unwrap())
}

/// An analysis cut short by restarts starts again with the server, but three starts in all:
/// then it is marked failed rather than restarted with every reboot.
#[tokio::test]
async fn an_analysis_restarts_with_the_server_at_most_three_times() {
    let s = no_search("fair-analysis-restarts", |_| {}).await;
    let mut c = Client::guest(&s).await;
    let game = finished_game(&mut c).await;
    assert_eq!(ask_analysis(&mut c, &game).await.status, 202);
    assert_eq!(analysis_row(&s, &game).await, ("queued".into(), 1));
    let url = sqlite_url(&s.dir);
    for attempts in [2, 3] {
        let restarted = start(url.clone(), |c| c.bot_threads = 0).await;
        assert_eq!(
            analysis_row(&restarted, &game).await,
            ("queued".into(), attempts)
        );
        assert_eq!(restarted.state.analyses.len(), 1, "resumed");
    }
    let given_up = start(url, |c| c.bot_threads = 0).await;
    assert_eq!(analysis_row(&given_up, &game).await.0, "failed");
    assert!(given_up.state.analyses.is_empty());
    // Its player may ask again: a fresh request starts counting anew.
    let mut again = Client::new(&given_up);
    again.cookie = c.cookie.clone();
    assert_eq!(ask_analysis(&mut again, &game).await.status, 202);
    assert_eq!(analysis_row(&given_up, &game).await, ("queued".into(), 1));
}

/// A user's open and live tables hold at most `search_bots_per_user` search bots; quick bots
/// are not counted.
#[tokio::test]
async fn search_bot_seats_are_capped_per_user() {
    let s = no_search("fair-bot-seats", |c| c.limits.search_bots_per_user = 3).await;
    let mut c = account(&s, "many_bots").await;
    let r = c
        .create_table(
            DUEL,
            json!({"players": 3}),
            json!([{"type": "me"}, {"type": "bot", "level": "easy"}, {"type": "bot", "level": "max"}]),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let over = c
        .create_table(
            DUEL,
            json!({"players": 3}),
            json!([{"type": "me"}, {"type": "bot", "level": "hard"}, {"type": "bot", "level": "hard"}]),
        )
        .await;
    assert_eq!(
        (over.status, over.code()),
        (429, "too_many_bot_seats"),
        "{}",
        over.text
    );
    let quick = c
        .create_table(
            DUEL,
            json!({"players": 3}),
            json!([{"type": "me"}, {"type": "bot", "level": "greedy"}, {"type": "bot", "level": "random"}]),
        )
        .await;
    assert_eq!(quick.status, 201, "{}", quick.text);
    let one_more = c
        .create_table(
            DUEL,
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "medium"}]),
        )
        .await;
    assert_eq!(
        one_more.status, 201,
        "the third search bot: {}",
        one_more.text
    );
    // Another user has their own allowance.
    let mut other = Client::guest(&s).await;
    let r = other
        .create_table(
            DUEL,
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "bot", "level": "max"}]),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
}

#[tokio::test]
async fn a_rated_table_needs_a_clock() {
    let s = no_search("fair-rated-clock", |_| {}).await;
    let mut c = Client::guest(&s).await;
    let body = |clock: Value| {
        json!({"game": DUEL, "options": {"players": 2}, "rated": true, "clock": clock,
               "seats": [{"type": "me"}, {"type": "open"}]})
    };
    let r = c.post("/api/tables", body(Value::Null)).await;
    assert_eq!(
        (r.status, r.code()),
        (400, "rated_needs_clock"),
        "{}",
        r.text
    );
    let r = c.post("/api/tables", body(json!("fast"))).await;
    assert_eq!(r.status, 201, "{}", r.text);
}

/// Two players at a rated table, neither plays: each times out three turns and is handed to
/// a bot; then the game is left to greedy bots in the fast lane (no thread searches here)
/// and ends, rated.
#[tokio::test]
async fn a_stalled_rated_game_ends_under_the_time_out_policy() {
    let s = no_search("fair-stalled", |c| {
        c.clocks = pyramidion_server::time_control::parse_profiles("tiny=1").unwrap();
    })
    .await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let t = a
        .post(
            "/api/tables",
            json!({"game": DUEL, "options": {"players": 2}, "rated": true, "clock": "tiny",
                   "seats": [{"type": "me"}, {"type": "open"}]}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    let mut ws = a.socket().await;
    let mut state = ws.subscribe(&id, None).await;
    while state["finished"] != true {
        state = ws.next_of("state").await;
    }
    assert_eq!(state["bots"], json!([true, true]), "{state}");
    let row = s.state.store.game(&id).await.unwrap().unwrap();
    assert_eq!(row.status, "finished");
    let changes = sqlx::query("SELECT COUNT(*) AS n FROM rating_changes WHERE game_id = $1")
        .bind(&id)
        .fetch_one(&s.state.store.pool)
        .await
        .unwrap();
    assert_eq!(
        changes.try_get::<i64, _>("n").unwrap(),
        2,
        "the result is rated"
    );
}

/// Two accounts play two rated games: the first moves their (provisional) ratings, the
/// second, a repeat of a pair with a provisional player, moves neither; provisional ratings
/// stay off the leaderboard.
#[tokio::test]
async fn a_repeated_game_against_a_provisional_account_counts_for_nothing() {
    let s = start_sqlite("fair-farming").await;
    let mut a = account(&s, "farmer").await;
    let mut b = account(&s, "throwaway").await;
    let mut outcomes = Vec::new();
    for round in 0..2u64 {
        let t = a
            .post(
                "/api/tables",
                json!({"game": DUEL, "options": {"players": 2}, "rated": true, "clock": "day",
                       "seats": [{"type": "me"}, {"type": "open"}]}),
            )
            .await;
        let id = t.body["id"].as_str().unwrap().to_string();
        assert_eq!(
            b.post(&format!("/api/tables/{id}/join"), json!({}))
                .await
                .status,
            200
        );
        let (mut wa, mut wb) = (a.socket().await, b.socket().await);
        let (sa, sb) = (wa.subscribe(&id, None).await, wb.subscribe(&id, None).await);
        let (done, _) = tokio::join!(
            wa.play_out(&id, sa, 2 * round + 1),
            wb.play_out(&id, sb, 2 * round + 2)
        );
        outcomes.push((id, done["outcome"]["ranks"].clone()));
    }
    let changes = |game: String| {
        let pool = s.state.store.pool.clone();
        async move {
            sqlx::query(
                "SELECT rating_before, rating_after FROM rating_changes WHERE game_id = $1
                  ORDER BY seat",
            )
            .bind(game)
            .fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r.try_get::<f64, _>("rating_before").unwrap(),
                    r.try_get::<f64, _>("rating_after").unwrap(),
                )
            })
            .collect::<Vec<_>>()
        }
    };
    let first = changes(outcomes[0].0.clone()).await;
    assert_eq!(first.len(), 2);
    if outcomes[0].1[0] != outcomes[0].1[1] {
        assert!(
            first.iter().all(|(b, a)| b != a),
            "the first game counts: {first:?}"
        );
    }
    let second = changes(outcomes[1].0.clone()).await;
    assert_eq!(second.len(), 2);
    assert!(
        second.iter().all(|(b, a)| b == a),
        "the repeat counts for nothing: {second:?}"
    );
    // The history says so, so that the page explains the "+0" (issue 46); the first game,
    // decided, counted.
    let history = a.get("/api/me/games").await.body;
    let rating_of = |id: &str| {
        history["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .map(|g| g["mine"]["rating"].clone())
            .unwrap()
    };
    assert_eq!(rating_of(&outcomes[1].0)["counted"], false, "{history}");
    if outcomes[0].1[0] != outcomes[0].1[1] {
        assert_eq!(rating_of(&outcomes[0].0)["counted"], true, "{history}");
    }
    let board = a.get(&format!("/api/leaderboards/{DUEL}")).await.body;
    assert_eq!(board["players"], json!([]), "both are provisional: {board}");
}

/// The scenario the PostgreSQL tier runs, on SQLite.
#[tokio::test]
async fn the_fair_shares_storage_scenario_runs_on_sqlite() {
    let s = start_sqlite("fair-scenario").await;
    crate::common::fair_scenarios::fair_shares_storage(&s).await;
}
