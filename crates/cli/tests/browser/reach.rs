//! Reaching players who are away, in the browser: a turn-based table offers to turn
//! notifications on, and doing so registers the service worker and gives the server this
//! browser's subscription; every page's tab title counts the games waiting for my move.
use super::*;

/// Stands in for the browser's push service, which headless Chromium cannot reach here (it
/// registers with Google's servers): `pushManager.subscribe` answers a subscription whose
/// keys the page draws with WebCrypto, as a browser does, and records the VAPID key it was
/// given. Everything else (permission, service worker, the page's calls) is the real thing.
const STAND_IN_PUSH_SERVICE: &str = "
    const b64 = (a) => btoa(String.fromCharCode(...a)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    window.__sub = null;
    PushManager.prototype.getSubscription = async function () { return window.__sub; };
    PushManager.prototype.subscribe = async function (options) {
      window.__vapid = b64(new Uint8Array(options.applicationServerKey));
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
      const p256dh = b64(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
      const auth = b64(crypto.getRandomValues(new Uint8Array(16)));
      window.__sub = {
        endpoint: 'https://push.example.org/browser-test',
        toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh, auth } }; },
        unsubscribe: async () => true,
      };
      return window.__sub;
    };
    return true;";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_based_table_offers_notifications_and_the_tab_title_counts_my_moves() {
    let turn = ONE_AT_A_TIME.lock().await;
    let dir = std::env::temp_dir().join(format!("pyramidion-browser-reach-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let w = World {
        server: start_server_with(
            dir,
            "127.0.0.1:0",
            &["--clocks", "day=86400,fast=180+2", "--bot-pace-ms", "0"],
        ),
        driver: Driver::start().await,
        _turn: turn,
    };
    let base = w.server.base.clone();
    let en = catalog("en");
    let s = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    open_lobby(&s, &base).await;

    // A real-time table does not offer it; a turn-based one does, on its waiting page.
    let pick = |second: &str, clock: &str| {
        let (second, clock) = (second.to_string(), clock.to_string());
        let s = &s;
        async move {
            s.click("[data-testid=new-game] option[value=pyramids]")
                .await;
            s.click("[data-testid=new-players] option[value='2']").await;
            s.click(&format!(
                "[data-testid=new-seat-1] option[value='{second}']"
            ))
            .await;
            s.click(&format!("[data-testid=new-clock] option[value='{clock}']"))
                .await;
            s.click("[data-testid=create-table]").await;
        }
    };
    pick("open", "fast").await;
    s.wait_for("[data-testid=waiting]", 15).await;
    assert!(
        s.find_all("[data-testid=notify-offer]").await.is_empty(),
        "no offer for a real-time table"
    );
    open_lobby(&s, &base).await;
    pick("open", "day").await;
    s.wait_for("[data-testid=waiting] [data-testid=notify-offer]", 15)
        .await;
    assert_eq!(
        s.text("[data-testid=notify-offer] p").await,
        en["notify_offer.text"].as_str().unwrap()
    );
    s.screenshot(&artifacts(), "reach-offer").await;

    // Turning it on, as a person accepting the browser's prompt.
    s.grant_permission("notifications").await;
    assert_eq!(s.js(STAND_IN_PUSH_SERVICE, json!([])).await, json!(true));
    s.click("[data-testid=notify-offer-enable]").await;
    s.wait_until(
        "the offer to go once push is on",
        "return document.querySelector('[data-testid=notify-offer]') ? null : true;",
        json!([]),
        20,
    )
    .await;
    let worker = s
        .wait_until(
            "the service worker",
            "return navigator.serviceWorker.getRegistration('/').then((r) => r && r.active ? r.active.scriptURL : null);",
            json!([]),
            20,
        )
        .await;
    assert_eq!(worker, json!(format!("{base}/sw.js")));
    let settings = s
        .js(
            "return fetch('/api/notify').then((r) => r.json());",
            json!([]),
        )
        .await;
    assert_eq!(settings["push_devices"], 1, "{settings}");
    assert_eq!(
        s.js("return window.__vapid;", json!([])).await,
        settings["push_public_key"],
        "subscribed with the server's VAPID key"
    );

    // The settings page says push is on here, and that this server sends no e-mail.
    s.goto(&format!("{base}/#/settings")).await;
    s.wait_for("[data-testid=push-status][data-state=on]", 15)
        .await;
    s.wait_for("[data-testid=email-off]", 15).await;
    s.screenshot(&artifacts(), "reach-settings").await;

    // A game against a bot: when it is my move, every page's title starts with the count.
    open_lobby(&s, &base).await;
    pick("bot:greedy", "day").await;
    s.wait_for("[data-testid=prompt].yours", 30).await;
    s.wait_for("[data-testid=your-move][data-count='1']", 15)
        .await;
    s.wait_until(
        "the count in the title",
        "return document.title.startsWith('(1) ') ? document.title : null;",
        json!([]),
        15,
    )
    .await;
    s.goto(&format!("{base}/#/turns")).await;
    s.wait_for("[data-testid=turn-list]", 15).await;
    let title = s
        .wait_until(
            "the your-move page's title",
            "return document.title.startsWith('(1) ') && !document.title.startsWith('(1) (') ? document.title : null;",
            json!([]),
            15,
        )
        .await;
    assert_eq!(
        title,
        json!(format!(
            "(1) {} · Pyramidion",
            en["turns.title"].as_str().unwrap()
        ))
    );
    s.quit().await;
}
