//! Issue 29's storage paths on any backend: look-alike names (the stored key and its unique
//! index), seats held, and a user's public games one page at a time.
use super::*;

pub async fn names_quotas_and_pages(server: &TestServer) {
    let mut ann = Client::new(server);
    let r = ann
        .post(
            "/api/register",
            json!({"name": "Fair_Ann", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let ann_id = r.body["id"].as_str().unwrap().to_string();
    for look_alike in ["fair_ann", "FAIR_ANN", "ｆａｉｒ_ａｎｎ"] {
        let r = Client::new(server)
            .post(
                "/api/register",
                json!({"name": look_alike, "password": "correct horse"}),
            )
            .await;
        assert_eq!((r.status, r.code()), (409, "name_taken"), "{look_alike}");
    }
    let r = Client::new(server)
        .post(
            "/api/login",
            json!({"name": "FAIR_ANN", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.body["id"], ann_id.as_str(), "{}", r.text);
    // Three solo games (seats held while live) and one unlisted table.
    for _ in 0..3 {
        let t = ann
            .create_table(
                "forgotten-treasures",
                json!({"players": 1, "solo": "a-legend"}),
                json!([{"type": "me"}]),
            )
            .await;
        assert_eq!(t.status, 201, "{}", t.text);
    }
    let hidden = ann
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2},
                   "seats": [{"type": "me"}, {"type": "bot", "level": "random"}],
                   "listed": false}),
        )
        .await;
    assert_eq!(hidden.status, 201, "{}", hidden.text);
    let hidden = hidden.body["id"].as_str().unwrap().to_string();
    // Pages of two for a stranger: the three solo games, not the unlisted one.
    let mut stranger = Client::new(server);
    let first = stranger.get(&format!("/api/users/{ann_id}?limit=2")).await;
    assert_eq!(first.status, 200, "{}", first.text);
    let next = first.body["next"]
        .as_str()
        .expect("a second page")
        .to_string();
    let second = stranger
        .get(&format!("/api/users/{ann_id}?limit=2&before={next}"))
        .await;
    let mut ids: Vec<String> = first.body["recent"]
        .as_array()
        .unwrap()
        .iter()
        .chain(second.body["recent"].as_array().unwrap())
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 3, "{} {}", first.text, second.text);
    assert!(!ids.contains(&hidden));
    let export = stranger
        .get(&format!("/api/users/{ann_id}/games.ndjson"))
        .await;
    assert_eq!(export.text.lines().count(), 3, "{}", export.text);
    assert!(
        ann.get(&format!("/api/users/{ann_id}/games.ndjson"))
            .await
            .text
            .contains(&hidden)
    );
}
