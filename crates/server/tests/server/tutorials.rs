//! Interactive tutorials (issue 48 item 1) over HTTP: every game's steps are served as their
//! learner sees them (the game's own view for that seat: nothing more), a tried move is
//! judged by the rules — an error code or the points it misses, computed — the answer is told
//! only once a step is solved, and a guest's progress is kept (and can be reset).
use crate::common::*;
use pyramidion_core::Seat;
use pyramidion_games::tutorial;
use serde_json::json;

#[tokio::test]
async fn tutorials_are_served_judged_and_resumed() {
    let s = start_sqlite("tutorials").await;
    let mut me = Client::guest(&s).await;
    let list = me.get("/api/tutorials").await;
    assert_eq!(list.status, 200, "{}", list.text);
    let listed: Vec<String> = list.body["tutorials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["game"].as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = tutorial::games_with_tutorials()
        .iter()
        .map(|k| k.key().to_string())
        .collect();
    assert_eq!(listed, expected);
    assert!(!listed.is_empty());
    for game in &listed {
        let kind = game.parse().unwrap();
        let page = me.get(&format!("/api/tutorials/{game}")).await;
        assert_eq!(page.status, 200, "{}", page.text);
        let lessons = page.body["lessons"].as_array().unwrap();
        let mut steps = Vec::new();
        for (li, lesson) in lessons.iter().enumerate() {
            for (si, step) in lesson["steps"].as_array().unwrap().iter().enumerate() {
                let (l, st) = (
                    lesson["key"].as_str().unwrap(),
                    step["key"].as_str().unwrap(),
                );
                let shown = &page.body["positions"][li][si];
                // The learner's seat's view, exactly what a live table gives that seat.
                let p = tutorial::position(kind, l, st).unwrap();
                assert_eq!(shown["seat"], json!(p.seat.0));
                assert_eq!(
                    shown["view"],
                    p.game.view(Some(Seat(p.seat.0))),
                    "{game} {l}/{st}"
                );
                assert!(!shown["legal"].as_array().unwrap().is_empty());
                steps.push((l.to_string(), st.to_string()));
            }
        }
        // Nothing in the page says which moves solve a step.
        assert!(!page.text.contains("accepted"), "{game}");
        for (i, (l, st)) in steps.iter().enumerate() {
            let path = format!("/api/tutorials/{game}/{l}/{st}/try");
            let answers = tutorial::answers(kind, l, st).unwrap();
            for wrong in &answers.wrong {
                let r = me.post(&path, json!({ "move": wrong })).await;
                assert_eq!(r.status, 200, "{}", r.text);
                assert_eq!(r.body["ok"], false, "{game} {l}/{st} {wrong}");
                assert!(r.body.get("accepted").is_none(), "{}", r.text);
                match r.body["verdict"].as_str().unwrap() {
                    "illegal" => assert!(r.body["code"].is_string(), "{}", r.text),
                    "worse" => {
                        let (best, got, missed) = (
                            r.body["best"].as_i64().unwrap(),
                            r.body["got"].as_i64().unwrap(),
                            r.body["missed"].as_i64().unwrap(),
                        );
                        assert!(missed > 0 && best - got == missed, "{}", r.text);
                    }
                    v => panic!("{game} {l}/{st} {wrong}: {v}"),
                }
            }
            let r = me.post(&path, json!({ "move": answers.accepted[0] })).await;
            assert_eq!(r.body["ok"], true, "{}", r.text);
            assert_eq!(r.body["verdict"], "solved");
            assert_eq!(r.body["accepted"], json!(answers.accepted));
            let next = steps
                .get(i + 1)
                .map(|(l, st)| json!({"lesson": l, "step": st}));
            assert_eq!(r.body["next"], next.unwrap_or(json!(null)));
        }
        // Resumable: every step solved is kept for this guest, in order; `[]` starts again.
        let progress = format!("/api/tutorials/{game}/progress");
        let solved = me.get(&progress).await;
        let all: Vec<_> = steps
            .iter()
            .map(|(l, st)| json!({"lesson": l, "step": st}))
            .collect();
        assert_eq!(solved.body["solved"], json!(all), "{}", solved.text);
        assert_eq!(me.put(&progress, json!({"solved": []})).await.status, 200);
        assert_eq!(me.get(&progress).await.body["solved"], json!([]));
        let bad = me
            .put(
                &progress,
                json!({"solved": [{"lesson": "no", "step": "such"}]}),
            )
            .await;
        assert_eq!(
            (bad.status, bad.body["error"]["code"].as_str()),
            (400, Some("bad_request"))
        );
        let r = me
            .post(
                &format!("/api/tutorials/{game}/no/such/try"),
                json!({"move": "x"}),
            )
            .await;
        assert_eq!(
            (r.status, r.body["error"]["code"].as_str()),
            (404, Some("not_found"))
        );
        assert_eq!(Client::new(&s).get(&progress).await.status, 401);
    }
    let r = me.get("/api/tutorials/chess").await;
    assert_eq!(
        (r.status, r.body["error"]["code"].as_str()),
        (404, Some("unknown_game"))
    );
}
