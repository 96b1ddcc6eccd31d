//! Undo within a turn (issue 46 item 9), over real HTTP and WebSockets: the player to move
//! takes back a step the game's rules allow; the other player may not, nor a step that
//! revealed something; the record loses the step before anyone is told, the clock runs on,
//! and it all holds across a restart of the server.
use crate::common::*;
use serde_json::{Value, json};

/// A started duel of `game` between two guests, with a clock: (id, a, b).
async fn duel(s: &TestServer, game: &str) -> (String, Client, Client) {
    let mut a = Client::guest(s).await;
    let mut b = Client::guest(s).await;
    let body = json!({"game": game, "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "open"}], "clock": "normal"});
    let t = a.post("/api/tables", body).await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let j = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(j.status, 200, "{}", j.text);
    (id, a, b)
}

fn first_legal(state: &Value) -> String {
    state["legal"][0]["text"].as_str().unwrap().to_string()
}

/// The next `state` of `game` on `ws` numbered `state_id`.
async fn state_at(ws: &mut Socket, game: &str, state_id: u64) -> Value {
    loop {
        let v = ws.next().await;
        assert_ne!(v["type"], "error", "{v}");
        if v["type"] == "state" && v["game"] == game && v["state_id"] == state_id {
            return v;
        }
    }
}

#[tokio::test]
async fn the_player_to_move_takes_back_a_step_durably_and_nobody_else_may() {
    let s = start_sqlite("undo").await;
    let (id, a, b) = duel(&s, "pyramido").await;
    let (mut wa, mut wb) = (a.socket().await, b.socket().await);
    let (sa, sb) = (wa.subscribe(&id, None).await, wb.subscribe(&id, None).await);
    // Whoever is to move (the rules pick the first player).
    let (mut mover, mut other, mut wm, mut wo, first, other_first) =
        if sa["legal"].as_array().unwrap().is_empty() {
            (b, a, wb, wa, sb, sa)
        } else {
            (a, b, wa, wb, sa, sb)
        };
    assert_eq!(first["undo"], false, "nothing played yet");
    let undo = format!("/api/games/{id}/undo");

    // A take: the turn goes on (the placing), and the mover is offered the undo, nobody else.
    let take = first_legal(&first);
    wm.play(&id, 0, &take).await;
    let after = state_at(&mut wm, &id, 1).await;
    assert_eq!(after["undo"], true, "{after}");
    assert_eq!(after["to_move"], first["to_move"]);
    let seen = state_at(&mut wo, &id, 1).await;
    assert_eq!(seen["undo"], false);

    // The other player may not take it back, nor a stale state; a stranger is not seated.
    let r = other.post(&undo, json!({"state_id": 1})).await;
    assert_eq!((r.status, r.code()), (409, "cannot_undo"), "{}", r.text);
    let r = mover.post(&undo, json!({"state_id": 0})).await;
    assert_eq!((r.status, r.code()), (409, "stale_state"), "{}", r.text);
    let r = Client::guest(&s)
        .await
        .post(&undo, json!({"state_id": 1}))
        .await;
    assert_eq!((r.status, r.code()), (403, "not_seated"), "{}", r.text);
    let r = mover.post(&undo, json!({})).await;
    assert_eq!(r.status, 400, "{}", r.text);

    // Taken back: stored first (the record has no move), then told to both players, whose
    // views are the first ones again; the clock still runs the mover's turn, not reset.
    // The state after an undo has a new number (one more than the last), not the number of
    // the earlier state with as many moves.
    let r = mover.post(&undo, json!({"state_id": 1})).await;
    assert_eq!(
        (r.status, r.body.clone()),
        (200, json!({"state_id": 2})),
        "{}",
        r.text
    );
    assert!(s.state.store.moves(&id).await.unwrap().is_empty());
    let undone = s.state.store.undone_moves(&id).await.unwrap();
    assert_eq!(undone.len(), 1);
    assert_eq!((undone[0].ply, undone[0].text.as_str()), (0, take.as_str()));
    let back = state_at(&mut wm, &id, 2).await;
    assert_eq!(back["event"], 0, "the move log is empty again");
    assert_eq!(back["view"], first["view"]);
    assert_eq!(back["undo"], false);
    assert_eq!(back["last_move"], Value::Null);
    let seen = state_at(&mut wo, &id, 2).await;
    assert_eq!(seen["view"], other_first["view"]);
    let seat = first["to_move"].as_u64().unwrap() as usize;
    assert_eq!(back["clock"]["running"], first["to_move"]);
    assert!(
        back["clock"]["remaining_ms"][seat].as_i64()
            <= first["clock"]["remaining_ms"][seat].as_i64(),
        "{back}"
    );
    // Nothing left to take back.
    let r = mover.post(&undo, json!({"state_id": 2})).await;
    assert_eq!((r.status, r.code()), (409, "cannot_undo"), "{}", r.text);

    // Another take and a placing; then the server starts again on the same data: the record
    // replays to the same state, which still offers the undo of the placing.
    wm.play(&id, 2, &take).await;
    let taken = state_at(&mut wm, &id, 3).await;
    let place = first_legal(&taken);
    wm.play(&id, 3, &place).await;
    let placed = state_at(&mut wm, &id, 4).await;
    assert_eq!(
        placed["to_move"], first["to_move"],
        "the turn goes on after the placing"
    );
    assert_eq!(placed["undo"], true);
    let again = start(sqlite_url(&s.dir), |_| {}).await;
    mover.base = again.base.clone();
    other.base = again.base.clone();
    let mut wm = mover.socket().await;
    let reloaded = wm.subscribe(&id, None).await;
    // The state numbers go on from the stored undos: none repeats after a restart.
    assert_eq!(
        (reloaded["state_id"].clone(), reloaded["event"].clone()),
        (json!(4), json!(2))
    );
    assert_eq!(reloaded["view"], placed["view"]);
    assert_eq!(reloaded["undo"], true);
    let r = mover.post(&undo, json!({"state_id": 4})).await;
    assert_eq!(
        (r.status, r.body.clone()),
        (200, json!({"state_id": 5})),
        "{}",
        r.text
    );
    let back = state_at(&mut wm, &id, 5).await;
    assert_eq!(back["view"], taken["view"]);
    assert_eq!(
        again.state.store.moves(&id).await.unwrap(),
        vec![take.clone()]
    );
}

/// The player's other tab (a second socket of the same user) saw the state after a take; the
/// take is undone and another made in the first tab, so the game has as many moves again.
/// The second tab's stale placing, sent for the state it saw, is refused: it must not land
/// on the new position (before, the state number had come back to the one it held).
#[tokio::test]
async fn a_stale_message_from_another_tab_never_lands_after_an_undo() {
    let s = start_sqlite("undo-tabs").await;
    let (id, a, b) = duel(&s, "pyramido").await;
    let (mut wa, mut wb) = (a.socket().await, b.socket().await);
    let (sa, sb) = (wa.subscribe(&id, None).await, wb.subscribe(&id, None).await);
    let (mut mover, mut tab1, first) = if sa["legal"].as_array().unwrap().is_empty() {
        (b, wb, sb)
    } else {
        (a, wa, sa)
    };
    let mut tab2 = mover.socket().await;
    tab2.subscribe(&id, None).await;
    let undo = format!("/api/games/{id}/undo");

    // Tab 1 takes; tab 2 sees the state after the take, and the placing it offers.
    let takes: Vec<String> = first["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect();
    tab1.play(&id, 0, &takes[0]).await;
    let after_take = state_at(&mut tab2, &id, 1).await;
    let stale_place = first_legal(&after_take);
    state_at(&mut tab1, &id, 1).await;

    // Undone, then tab 1 takes again (another domino when there is one): one move again.
    let r = mover.post(&undo, json!({"state_id": 1})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let undone = r.body["state_id"].as_u64().unwrap();
    assert!(undone > 1, "an undo gives a new state number: {}", r.text);
    state_at(&mut tab1, &id, undone).await;
    let retake = takes.last().unwrap();
    tab1.play(&id, undone, retake).await;
    let now = state_at(&mut tab1, &id, undone + 1).await;
    assert_eq!(
        now["event"], 1,
        "one move played, as when tab 2 last looked"
    );
    assert!(now["state_id"].as_u64() > after_take["state_id"].as_u64());

    // Tab 2's placing for the state it saw is stale; the record holds the take only.
    tab2.play(&id, 1, &stale_place).await;
    let refused = loop {
        let v = tab2.next().await;
        if v["type"] == "error" {
            break v;
        }
    };
    assert_eq!(refused["code"], "stale_state", "{refused}");
    assert_eq!(refused["state_id"], undone + 1, "{refused}");
    // And so is an undo sent for it.
    let r = mover.post(&undo, json!({"state_id": 1})).await;
    assert_eq!((r.status, r.code()), (409, "stale_state"), "{}", r.text);
    assert_eq!(
        s.state.store.moves(&id).await.unwrap(),
        vec![retake.clone()]
    );
}

#[tokio::test]
async fn a_step_that_revealed_something_is_final() {
    let s = start_sqlite("undo-reveal").await;
    let (id, a, b) = duel(&s, "forgotten-treasures").await;
    let (mut wa, mut wb) = (a.socket().await, b.socket().await);
    let (sa, sb) = (wa.subscribe(&id, None).await, wb.subscribe(&id, None).await);
    let (mut mover, mut wm, first) = if sa["legal"].as_array().unwrap().is_empty() {
        (b, wb, sb)
    } else {
        (a, wa, sa)
    };
    // A take turns up the back of the domino under the one taken: the turn goes on (a flip or
    // the placing), but the take may not be taken back.
    wm.play(&id, 0, &first_legal(&first)).await;
    let after = state_at(&mut wm, &id, 1).await;
    assert_eq!(after["to_move"], first["to_move"]);
    assert_eq!(after["undo"], false);
    let r = mover
        .post(&format!("/api/games/{id}/undo"), json!({"state_id": 1}))
        .await;
    assert_eq!((r.status, r.code()), (409, "cannot_undo"), "{}", r.text);
    assert_eq!(s.state.store.moves(&id).await.unwrap().len(), 1);
}
