//! Friends, clubs and profiles (issue 49 items 2–4) on SQLite; the same scenarios run on
//! PostgreSQL in `postgres.rs`.
use crate::common::after_game_scenarios::{account, play_table};
use crate::common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn friends_follow_see_each_other_challenge_and_keep_tables() {
    let s = start_sqlite("social-friends").await;
    social_scenarios::friends(&s).await;
}

#[tokio::test]
async fn clubs_admit_moderate_ban_and_keep_their_tables() {
    let s = start_sqlite("social-clubs").await;
    social_scenarios::clubs(&s).await;
}

/// A profile's statistics over a few finished games: a solo game, a rated duel against a
/// bot played out, and a rated duel the player resigned (ranked last, counted as left).
#[tokio::test]
async fn a_profile_counts_games_wins_scores_resignations_and_draws_the_rating_history() {
    let s = start_sqlite("social-stats").await;
    let mut anna = account(&s, "anna").await;
    let mut bruno = account(&s, "bruno").await;
    let (_, solo) = play_table(
        &mut anna,
        "forgotten-treasures",
        json!({"players": 1, "solo": "the-legend"}),
        json!([{"type": "me"}]),
        false,
    )
    .await;
    let (_, duel) = play_table(
        &mut anna,
        "pyramids",
        json!({"players": 2}),
        json!([{"type": "me"}, {"type": "bot", "level": "random"}]),
        true,
    )
    .await;
    // A rated duel with Bruno that Anna leaves at once.
    let body = json!({"game": "pyramids", "options": {"players": 2}, "rated": true,
                      "clock": "day", "seats": [{"type": "me"}, {"type": "open"}]});
    let t = anna.post("/api/tables", body).await;
    let left = t.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        bruno
            .post(&format!("/api/tables/{left}/join"), json!({}))
            .await
            .status,
        200
    );
    let r = anna
        .post(&format!("/api/games/{left}/resign"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);

    let st = Client::new(&s).get("/api/users/anna/stats").await;
    assert_eq!(st.status, 200, "{}", st.text);
    let game = |key: &str| -> Value {
        st.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["game"] == key)
            .cloned()
            .unwrap_or_else(|| panic!("no {key}: {}", st.text))
    };
    let pyr = game("pyramids");
    let won_vs_bot = u64::from(duel["outcome"]["ranks"][0] == 0);
    assert_eq!(pyr["games"], 2, "{}", st.text);
    assert_eq!(pyr["wins"], won_vs_bot, "{}", st.text);
    assert_eq!(
        pyr["by_players"],
        json!([{"players": 2, "games": 2, "wins": won_vs_bot}])
    );
    // The resigned game has no score: the mean and the best are the played-out duel's.
    let mine = duel["outcome"]["scores"][0].as_i64().unwrap();
    assert_eq!(pyr["best_score"], mine, "{}", st.text);
    assert_eq!(pyr["mean_score"].as_f64(), Some(mine as f64));
    let ft = game("forgotten-treasures");
    assert_eq!(ft["games"], 1);
    assert_eq!(ft["best_score"], solo["outcome"]["scores"][0]);
    assert_eq!(
        ft["by_players"][0],
        json!({"players": 1, "games": 1, "wins": u64::from(solo["outcome"]["ranks"][0] == 0)})
    );
    assert_eq!(
        st.body["fair_play"],
        json!({"games": 2, "resigned": 1, "timed_out": 0})
    );
    // Two rated games, two points, from the first rating before them.
    let history = &st.body["rating_history"];
    assert_eq!(history.as_array().unwrap().len(), 1, "{}", st.text);
    assert_eq!(history[0]["game"], "pyramids");
    assert_eq!(history[0]["start"], 1500.0);
    let points = history[0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "{}", st.text);
    let profile = anna.get("/api/users/anna").await;
    assert_eq!(points[1]["rating"], profile.body["ratings"][0]["rating"]);
    assert!(points[0]["at"].as_i64() <= points[1]["at"].as_i64());
    // Bruno did not leave: his record is clean.
    let b = Client::new(&s).get("/api/users/bruno/stats").await;
    assert_eq!(
        b.body["fair_play"],
        json!({"games": 1, "resigned": 0, "timed_out": 0})
    );
    assert_eq!(b.body["games"][0]["wins"], 1);
}

/// A challenge reaches a friend who is away as a push (the event `challenge`), opening the
/// table whose seat is kept for them.
#[tokio::test]
async fn a_challenge_reaches_a_friend_who_is_away_by_push() {
    use crate::reach::players::{Device, catalog_text, recv};
    let (endpoint, mut pushed) = crate::reach::sinks::push_endpoint().await;
    let s = start_sqlite_with("social-push", |c| c.reach.allow_http_push = true).await;
    let mut anna = account(&s, "anna").await;
    let mut bruno = account(&s, "bruno").await;
    let device = Device::new();
    let mut sub = device.subscription(&format!("{endpoint}/push/bruno"));
    sub["lang"] = json!("fr");
    assert_eq!(bruno.post("/api/push/subscribe", sub).await.status, 201);
    assert_eq!(
        anna.post("/api/users/bruno/follow", json!({})).await.status,
        200
    );
    let r = anna
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2},
                   "seats": [{"type": "me"}, {"type": "friend", "user": "bruno"}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let table = r.body["id"].as_str().unwrap();
    let push = recv(&mut pushed, "the challenge push").await;
    let payload = device.decrypt(&push.body);
    assert_eq!(payload["kind"], "challenge", "{payload}");
    assert_eq!(payload["url"], format!("/#/table/{table}"));
    assert_eq!(
        payload["title"],
        catalog_text("fr", "notify.challenge_title")
    );
}
