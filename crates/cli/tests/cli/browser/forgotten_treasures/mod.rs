//! Forgotten Treasures in the browser: whole games by clicking, the placing step and the
//! stage end, and THE Legend's turns in the solo log. Here too the way a turn is played by
//! clicking, which tests of other features (following a game) use as well.
mod legend_log;
mod placing;
mod whole_game;

use crate::browser::support::{artifacts, exists, table_state, wait_past};
use crate::browser::webdriver::Session;
use serde_json::json;

/// Places the domino in hand by clicking: rotate until some slot shows, pick a ghost (the
/// `pick`-th, wrapping), check the preview (and take a screenshot of it when asked), confirm.
pub(crate) async fn place(s: &Session, pick: usize, screenshot: Option<&str>) {
    for _ in 0..4 {
        if exists(s, "[data-testid=ghost]").await {
            break;
        }
        s.click("[data-testid=rotate]").await;
    }
    assert!(
        exists(s, "[data-testid=ghost]").await,
        "no ghost placement in any orientation"
    );
    s.click_nth("[data-testid=ghost]", pick).await;
    s.wait_for("[data-testid=ghost].selected .preview", 5).await;
    if let Some(name) = screenshot {
        s.screenshot(&artifacts(), name).await;
    }
    s.click("[data-testid=confirm-place]").await;
}

/// Plays the step the page asks for, by clicking; returns false once the game is over.
/// At the first stage end, one area is activated by hand before the best allocation.
pub(crate) async fn play_step(s: &Session, step: usize, by_hand: &mut bool) -> bool {
    let (state, phase) = table_state(s).await;
    match phase.as_str() {
        "over" => return false,
        "take" => s.click("[data-testid=take]").await,
        "flip" => s.click("[data-testid=flip]").await,
        "place" => place(s, step, None).await,
        "discard" => s.click("[data-testid=discard]").await,
        "activate" => {
            // Activations are a plan: picking a payment sends nothing, Finish sends the plan.
            let before = s.text("[data-testid=stage-points]").await;
            if *by_hand {
                let areas = s
                    .find_all("[data-testid^=area-button-]:not([disabled])")
                    .await;
                for i in 0..areas.len() {
                    s.click_nth("[data-testid^=area-button-]:not([disabled])", i)
                        .await;
                    if exists(s, "[data-testid=pay]").await {
                        s.click("[data-testid=pay]").await;
                        let after = s.text("[data-testid=stage-points]").await;
                        assert_ne!(before, after, "the planned stage points follow the plan");
                        assert_eq!(table_state(s).await.0, state, "nothing sent before Finish");
                        *by_hand = false;
                        return true;
                    }
                }
            }
            if exists(s, "[data-testid=best-allocation]:not([disabled])").await {
                s.click("[data-testid=best-allocation]").await;
            }
            s.click("[data-testid=finish-scoring]").await;
            // The plan is the best allocation here: no confirmation is asked.
            assert!(!exists(s, "[data-testid=confirm-finish]").await);
            s.wait_until(
                "the plan to be sent and the scoring finished",
                "const t = document.querySelector('[data-testid=ft-table]');
                 return t && Number(t.dataset.stateId) > arguments[0]
                   && !document.getElementById('app').classList.contains('pending')
                   && !document.querySelector('[data-testid=scoring-panel][data-sending=true]')
                   && (t.dataset.phase !== 'activate' || !document.querySelector('[data-testid=prompt].yours'));",
                json!([state]),
                30,
            )
            .await;
            return true;
        }
        other => panic!("unexpected phase '{other}'"),
    }
    wait_past(s, state).await;
    true
}
