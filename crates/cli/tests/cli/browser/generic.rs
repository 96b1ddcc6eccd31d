//! The demonstration game (tic-tac-toe, registered in the test tier) through the generic
//! table: its status line, its prompt and its result are the shell's, drawn from the view's
//! envelope alone, as for the games with a table of their own.
use crate::browser::support::{DESKTOP, artifacts, exists, open_lobby, world};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tic_tac_toe_is_played_to_the_end_on_the_generic_table_and_the_shell_draws_the_frame() {
    let w = world("generic").await;
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &w.server.base).await;
    // The game cards are drawn once the lobby's first answers are in, which on a loaded
    // machine may come after the socket is up: waited for, not looked for once.
    s.wait_until(
        "the lobby offers tic-tac-toe (the test tier registers it: scripts/test)",
        "return !!document.querySelector('[data-testid=quick-bots-tic-tac-toe]');",
        serde_json::json!([]),
        15,
    )
    .await;
    s.click("[data-testid=quick-bots-tic-tac-toe]").await;
    s.wait_for("[data-testid=generic-table]", 15).await;
    s.wait_for("[data-testid=table-status] [data-testid=prompt]", 5)
        .await;
    let mut moves = 0;
    for _ in 0..200 {
        if exists(&s, "[data-testid=result]").await {
            break;
        }
        if exists(&s, "[data-testid=prompt].yours").await && exists(&s, "button.generic-cell").await
        {
            s.click("button.generic-cell").await;
            moves += 1;
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
    s.wait_for("[data-testid=result]", 15).await;
    // The shortest game is five moves, so each seat makes at least two (three when it moves
    // first: the bot may move first and win on its third).
    assert!(moves >= 2, "{moves} moves by clicking");
    // Both seats ranked, with a headline; the game is over in the status line.
    assert_eq!(s.find_all("[data-testid=ranking] tbody tr").await.len(), 2);
    assert!(!s.text("[data-testid=result-headline]").await.is_empty());
    assert!(!exists(&s, "[data-testid=prompt].yours").await);
    s.screenshot(&artifacts(), "tic-tac-toe-result-1280").await;
    s.quit().await;
}
