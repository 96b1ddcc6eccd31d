//! How to play, from the lobby and from a table, in three languages.
use crate::{DESKTOP, PHONE, artifacts, open_lobby, open_solo, world};
use serde_json::json;

/// How to play: the lobby links every game of the descriptors to its rules summary, which
/// follows the language; a table links to its own game's rules in a new tab.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn how_to_play_is_reachable_from_the_lobby_and_the_table_in_three_languages() {
    let w = world("polish-rules").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    s.wait_for("[data-testid=how-to-play]", 10).await;
    let keys = s
        .js(
            "return fetch('/api/games').then((r) => r.json()).then((c) => c.games.map((g) => g.key));",
            json!([]),
        )
        .await;
    let keys: Vec<String> = keys
        .as_array()
        .expect("game keys")
        .iter()
        .map(|k| k.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(keys.len() >= 3, "{keys:?}");
    let mut texts = Vec::new();
    for key in &keys {
        open_lobby(&s, &w.server.base).await;
        s.click(&format!(
            "[data-testid=how-to-play] [data-testid=rules-{key}]"
        ))
        .await;
        s.wait_for(&format!("[data-testid=rules-page][data-game={key}]"), 10)
            .await;
        let en = s.text("[data-testid=rules-text]").await;
        assert!(en.len() > 600, "{key}: a real summary: {en}");
        s.screenshot(&artifacts(), &format!("rules-{key}-en-1280"))
            .await;
        for lang in ["fr", "it"] {
            s.click(&format!("[data-testid=language] option[value={lang}]"))
                .await;
            let other = s
                .wait_until(
                    "the rules in another language",
                    "const e = document.querySelector('[data-testid=rules-text]');
                     return e && e.textContent !== arguments[0] && e.getAttribute('lang') === arguments[1] && e.textContent;",
                    json!([en, lang]),
                    10,
                )
                .await;
            assert!(other.as_str().unwrap_or("").len() > 600, "{key} {lang}");
        }
        s.click("[data-testid=language] option[value=en]").await;
        texts.push(en);
    }
    // Every game has its own summary; the solo game explains its two solo modes.
    let distinct: std::collections::BTreeSet<_> = texts.iter().collect();
    assert_eq!(distinct.len(), keys.len());
    let solo = texts
        .iter()
        .find(|t| t.contains("Become THE Legend") && t.contains("Become A Legend"));
    assert!(solo.is_some(), "the solo modes are explained");
    s.resize(PHONE.0, PHONE.1).await;
    s.screenshot(&artifacts(), "rules-last-en-375").await;
    s.resize(DESKTOP.0, DESKTOP.1).await;
    // From a table: a link to its game's rules that keeps the game open.
    open_solo(&s, &w.server.base).await;
    let link = s
        .js(
            "const a = document.querySelector('.table-links a[data-testid^=rules-]');
             return a && [a.getAttribute('href'), a.target];",
            json!([]),
        )
        .await;
    let game = s
        .js(
            "return fetch('/api/tables/' + location.hash.split('/')[2]).then((r) => r.json()).then((t) => t.game);",
            json!([]),
        )
        .await;
    assert_eq!(
        link,
        json!([format!("#/rules/{}", game.as_str().unwrap_or("")), "_blank"])
    );
    s.quit().await;
}
