//! The one ranking function, on its own: every case the issue met (a resigner crowned, a
//! stand-in bot winning for someone who walked away) stated on ranks.
use super::*;
use pyramidion_core::RankKey;

#[test]
fn resigners_rank_last_the_first_lowest() {
    // Engine: seat 2 first, 0 second, 1 third, 3 fourth; seats 2 then 0 resigned.
    assert_eq!(
        final_ranks(Some(&[1, 2, 0, 3]), 4, &[2, 0], &[]),
        vec![2, 0, 3, 1]
    );
    // Ended early: the seat left is first.
    assert_eq!(final_ranks(None, 2, &[1], &[]), vec![0, 1]);
    assert_eq!(final_ranks(None, 3, &[0, 2], &[]), vec![2, 0, 1]);
    // Solo: resigning loses to the automa.
    assert_eq!(final_ranks(None, 1, &[0], &[]), vec![1]);
    // No resignation: the engine's ranks as they are (a solo loss stays a loss).
    assert_eq!(final_ranks(Some(&[1]), 1, &[], &[]), vec![1]);
    // Ties among the seats left stay ties.
    assert_eq!(final_ranks(Some(&[0, 0, 2]), 3, &[2], &[]), vec![0, 0, 2]);
}

#[test]
fn a_resigner_the_rules_rank_first_is_never_crowned() {
    // Issue 46, item 1: three players, seat 1 resigned in round 2 and its bot scored most.
    assert_eq!(final_ranks(Some(&[1, 0, 2]), 3, &[1], &[]), vec![0, 2, 1]);
    let outcome = final_outcome(
        Outcome::ranked(vec![40, 52, 31], vec![RankKey::new("score", [40, 52, 31])]),
        &[1],
        &[],
    );
    assert_eq!(outcome.ranks, vec![0, 2, 1]);
    // Seat 0 leads now: nothing decided its place; seat 2 is behind it on the score.
    assert_eq!(
        outcome.decided_by,
        vec![None, Some("resigned"), Some("score")]
    );
    assert_eq!(
        outcome.scores,
        vec![40, 52, 31],
        "the points stay the rules'"
    );
}

#[test]
fn an_absent_seat_ranks_below_every_present_one_and_above_the_resigned() {
    // Issue 46, item 2: a duel whose absent seat's bot won 46-34.
    assert_eq!(final_ranks(Some(&[0, 1]), 2, &[], &[0]), vec![1, 0]);
    // Four seats: 0 absent (first by the rules), 3 absent (third), 1 resigned (second).
    assert_eq!(
        final_ranks(Some(&[0, 1, 2, 3]), 4, &[1], &[0, 3]),
        vec![1, 3, 0, 2]
    );
    // Ended early with an absent seat still in: it ranks after the present ones.
    assert_eq!(final_ranks(None, 3, &[2], &[0]), vec![1, 0, 2]);
    // A seat both absent and resigned (claimed) is resigned.
    assert_eq!(final_ranks(Some(&[0, 1, 2]), 3, &[0], &[0]), vec![2, 0, 1]);
    // Everyone absent: the rules decide among them (a game that played itself out).
    assert_eq!(final_ranks(Some(&[1, 0]), 2, &[], &[0, 1]), vec![1, 0]);
    // Solo: a stand-in bot's win is no win.
    assert_eq!(final_ranks(Some(&[0]), 1, &[], &[0]), vec![1]);
}

#[test]
fn a_claim_lifts_nobody() {
    // 0 resigned first; 2 is absent; 1 and 3 play on. Then 1 claims against 2.
    let engine = [2, 3, 0, 1];
    let before = final_ranks(Some(&engine), 4, &[0], &[2]);
    let after = final_ranks(Some(&engine), 4, &[0, 2], &[]);
    assert_eq!(before, vec![3, 1, 2, 0]);
    assert_eq!(after, before, "the claimed seat stays between the others");
}

#[test]
fn the_view_says_the_servers_outcome() {
    let engine = Outcome::ranked(vec![10, 20], vec![RankKey::new("score", [10, 20])]);
    let ours = final_outcome(engine.clone(), &[], &[1]);
    let view = serde_json::value::to_raw_value(&serde_json::json!({
        "phase": "over", "outcome": engine, "seats": []
    }))
    .unwrap();
    let ranked: serde_json::Value =
        serde_json::from_str(ranked_view(view, Some(&ours)).get()).unwrap();
    assert_eq!(ranked["outcome"]["ranks"], serde_json::json!([0, 1]));
    assert_eq!(ranked["outcome"]["decided_by"][1], "absent");
    assert_eq!(ranked["phase"], "over");
    // A view with no outcome yet stays as it is.
    let running = serde_json::value::to_raw_value(&serde_json::json!({"outcome": null})).unwrap();
    assert_eq!(
        ranked_view(running, Some(&ours)).get(),
        r#"{"outcome":null}"#
    );
}

#[test]
fn stored_results_are_read_one_way() {
    let finished = serde_json::json!({"ranks": [1, 0], "scores": [3, 4], "absent": [0]});
    assert_eq!(stored_ranks(&finished), Some(vec![1, 0]));
    assert_eq!(stored_seats(&finished, "absent"), vec![0]);
    assert_eq!(stored_seats(&finished, "resigned"), Vec::<u8>::new());
    let early = early_result("claimed", &[0, 1], &[1], &[1]);
    assert_eq!(
        serde_json::to_value(&early).unwrap(),
        serde_json::json!({"ending": "claimed", "ranks": [0, 1], "resigned": [1]}),
        "a claimed seat is resigned, not absent; an empty `absent` is left out"
    );
}
