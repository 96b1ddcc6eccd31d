//! Private notes per game (issue 46 item 10): a player's note is theirs alone — not the other
//! players', not a spectator's, not in the record — kept across a restart of the server.
use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn a_players_note_is_read_by_nobody_else_and_outlives_a_restart() {
    let s = start_sqlite("notes").await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let mut watcher = Client::guest(&s).await;
    let id = duel_table(&mut a, &mut b).await;
    let path = format!("/api/games/{id}/note");
    // None yet; then kept, trailing blanks trimmed.
    assert_eq!(a.get(&path).await.body, json!({"text": ""}));
    let plan = "B takes blue: keep the obelisk for round 3 ";
    let put = a.put(&path, json!({"text": plan})).await;
    assert_eq!(put.status, 200, "{}", put.text);
    assert_eq!(put.body["text"], plan.trim_end());
    assert_eq!(a.get(&path).await.body["text"], plan.trim_end());
    // The other player has their own (empty) note; a spectator and a stranger have none.
    assert_eq!(b.get(&path).await.body, json!({"text": ""}));
    let w = watcher.get(&path).await;
    assert_eq!(
        (w.status, w.body["error"]["code"].as_str()),
        (409, Some("not_seated"))
    );
    let w = watcher.put(&path, json!({"text": "mine"})).await;
    assert_eq!(
        (w.status, w.body["error"]["code"].as_str()),
        (409, Some("not_seated"))
    );
    let anonymous = Client::new(&s).get(&path).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    // Not in what anyone else reads of the game.
    for text in [
        b.get(&format!("/api/tables/{id}")).await.text,
        b.get(&format!("/api/games/{id}/chat")).await.text,
    ] {
        assert!(!text.contains("obelisk for round 3"), "{text}");
    }
    // Too long: refused whole, the note as it was.
    let long = "é".repeat(2001);
    let r = a.put(&path, json!({"text": long})).await;
    assert_eq!(
        (r.status, r.body["error"]["code"].as_str()),
        (400, Some("note_too_long"))
    );
    assert_eq!(a.get(&path).await.body["text"], plan.trim_end());
    assert_eq!(
        a.put(&path, json!({"text": "é".repeat(2000)})).await.status,
        200
    );
    // No such game.
    let r = a.get("/api/games/0123456789abcdef0123/note").await;
    assert_eq!(r.status, 404, "{}", r.text);
    // Kept durably: a server started again on the same data reads it back; "" deletes it.
    let again = start(sqlite_url(&s.dir), |_| {}).await;
    a.base = again.base.clone();
    assert_eq!(a.get(&path).await.body["text"], "é".repeat(2000));
    assert_eq!(a.put(&path, json!({"text": ""})).await.status, 200);
    assert_eq!(a.get(&path).await.body, json!({"text": ""}));
}
