//! Pyramids in the browser: a whole three-player game with a spectator, a two-player game by
//! keyboard only, and the opponents' takes from the quarry. Here too the way a turn is played
//! by clicking, which tests of other features (live play, following a game) use as well.
mod keyboard;
mod quarry;
mod whole_game;

use crate::browser::support::{
    DESKTOP, PHONE, artifacts, exists, key_activate, py_state, py_wait_past,
};
use crate::browser::webdriver::Session;
use serde_json::json;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

/// Waits for this page's turn (or the end), then plays it by clicking; false once over.
/// `shot` names a screenshot to take (1280 and 375 px) at the first God choice and building.
pub(crate) async fn py_step(s: &Session, step: usize, shots: &mut [bool; 2]) -> bool {
    s.wait_until(
        "my Pyramids turn or the end",
        "const t = document.querySelector('[data-testid=py-table]');
         return !!t && !document.getElementById('app').classList.contains('pending') &&
                (t.dataset.phase === 'over' || !!document.querySelector('[data-testid=prompt].yours'));",
        json!([]),
        90,
    )
    .await;
    let (state, phase) = py_state(s).await;
    let dir = artifacts();
    match phase.as_str() {
        "over" => return false,
        "choose_god" => {
            if !shots[0] {
                s.screenshot(&dir, "pyramids-god-choice-1280").await;
                s.resize(PHONE.0, PHONE.1).await;
                s.screenshot(&dir, "pyramids-god-choice-375").await;
                s.resize(DESKTOP.0, DESKTOP.1).await;
                shots[0] = true;
            }
            s.click_nth("[data-testid=god]", step).await;
        }
        "choose_pair" if PAIRS.fetch_add(1, Relaxed) % 2 == 1 => {
            key_activate(s, "[data-testid=pair]").await;
            BY_KEYBOARD.fetch_add(1, Relaxed);
        }
        "choose_pair" => {
            s.click_nth("[data-testid=pair]", step).await;
        }
        "build_pyramid" if PYRAMIDS.fetch_add(1, Relaxed) % 2 == 1 => {
            // Keyboard only: Enter on a ghost shows the preview and keeps the focus there;
            // Enter again places the card.
            key_activate(s, "[data-testid=ghost]").await;
            s.wait_until(
                "the focused ghost to show its preview",
                "const g = document.querySelector('[data-testid=ghost].selected');
                 return !!g && !!g.querySelector('.preview') && document.activeElement === g;",
                json!([]),
                5,
            )
            .await;
            s.press("\u{E007}").await;
            BY_KEYBOARD.fetch_add(1, Relaxed);
        }
        "build_pyramid" => {
            s.click_nth("[data-testid=ghost]", step).await;
            s.wait_for("[data-testid=ghost].selected .preview", 5).await;
            if !shots[1]
                && s.find_all("[data-testid=my-pyramid] [data-card]")
                    .await
                    .len()
                    >= 2
            {
                s.js(
                    "document.querySelector('[data-testid=hand]').scrollIntoView();",
                    json!([]),
                )
                .await;
                s.screenshot(&dir, "pyramids-building-1280").await;
                s.resize(PHONE.0, PHONE.1).await;
                s.js(
                    "document.querySelector('[data-testid=hand]').scrollIntoView();",
                    json!([]),
                )
                .await;
                s.screenshot(&dir, "pyramids-building-375").await;
                s.resize(DESKTOP.0, DESKTOP.1).await;
                shots[1] = true;
            }
            s.click("[data-testid=confirm-pyramid]").await;
        }
        "build_more" => {
            if step.is_multiple_of(3) && exists(s, "[data-testid=obelisk]").await {
                s.click("[data-testid=obelisk]").await;
            } else if step % 3 == 1 && exists(s, "[data-testid=tomb]").await {
                s.click("[data-testid=tomb]").await;
            } else {
                s.click("[data-testid=done]").await;
            }
        }
        "discard" => {
            s.click_nth("[data-testid=discard]", step).await;
        }
        other => panic!("unexpected Pyramids phase '{other}'"),
    }
    py_wait_past(s, state).await;
    true
}

/// Pyramids turns played with the keyboard only (every other pair and Pyramid card).
pub(crate) static BY_KEYBOARD: AtomicUsize = AtomicUsize::new(0);
static PAIRS: AtomicUsize = AtomicUsize::new(0);
static PYRAMIDS: AtomicUsize = AtomicUsize::new(0);
