//! The tables' finish, one file per table plus How to play: every ghost placement and the
//! placing buttons inside a 1280×800 (and 375×812) viewport without scrolling, Rotate and `R`
//! landing only on orientations with a slot and keeping the focus, previews on focus, the
//! Forgotten Treasures stage end as a plan, plurals, the favicon, Pyramido and Pyramids played
//! by keyboard only, and the How to play pages in three languages.
mod forgotten_treasures;
mod how_to_play;
mod pyramido;
mod pyramids;

use crate::webdriver::Session;
use serde_json::{Value, json};

pub(crate) const DESKTOP_800: (u32, u32) = (1280, 800);

/// Sizes the window so that the page itself (the viewport) is `width` × `height`.
pub(crate) async fn viewport(s: &Session, width: u32, height: u32) {
    s.resize(width, height).await;
    let inner = s
        .js("return [window.innerWidth, window.innerHeight];", json!([]))
        .await;
    let (iw, ih) = (
        inner[0].as_u64().unwrap_or(0) as u32,
        inner[1].as_u64().unwrap_or(0) as u32,
    );
    s.resize(
        width + width.saturating_sub(iw),
        height + height.saturating_sub(ih),
    )
    .await;
    let inner = s
        .js("return [window.innerWidth, window.innerHeight];", json!([]))
        .await;
    assert_eq!(inner, json!([width, height]), "viewport size");
}

/// Every ghost of the own pyramid, Rotate and "Place here", as boxes outside the viewport
/// (empty when all are inside), with the number of ghosts.
pub(crate) async fn outside_viewport(s: &Session) -> (usize, Value) {
    let v = s
        .js(
            "const vw = window.innerWidth, vh = window.innerHeight;
             const ghosts = [...document.querySelectorAll('[data-testid=my-pyramid] [data-testid=ghost] .ghost-outline')];
             const buttons = ['rotate', 'confirm-place'].map((id) => document.querySelector(`[data-testid=${id}]`));
             const out = [];
             for (const e of [...ghosts, ...buttons]) {
               if (!e) { out.push('missing'); continue; }
               const r = e.getBoundingClientRect();
               if (r.left < 0 || r.top < 0 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
                 out.push([e.getAttribute('class') || e.dataset.testid, r.left, r.top, r.right, r.bottom, vw, vh]);
             }
             return [ghosts.length, out];",
            json!([]),
        )
        .await;
    (v[0].as_u64().unwrap_or(0) as usize, v[1].clone())
}

/// The orientation shown (the hand's direction) and how many usable ones Rotate offers.
pub(crate) async fn orientation(s: &Session) -> (String, u64) {
    let v = s
        .js(
            "const b = document.querySelector('[data-testid=rotate]');
             return [document.querySelector('[data-testid=hand] .hand-box').dataset.dir, Number(b.dataset.orientations)];",
            json!([]),
        )
        .await;
    (
        v[0].as_str().unwrap_or("").to_string(),
        v[1].as_u64().unwrap_or(0),
    )
}
