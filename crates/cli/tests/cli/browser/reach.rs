//! Reaching players who are away, in the browser: a turn-based table offers to turn
//! notifications on, and doing so registers the service worker and gives the server this
//! browser's subscription; every page's tab title counts the games waiting for my move.
use crate::browser::support::{DESKTOP, PHONE, artifacts, catalog, fill, open_lobby, world_with};
use crate::browser::webdriver::{Session, free_port};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Value, json};

#[path = "../../../../server/tests/server/reach_support/sinks.rs"]
mod sinks;

/// Stands in for the browser's push service, which headless Chromium cannot reach here (it
/// registers with Google's servers): `pushManager.subscribe` answers a subscription whose
/// keys the page draws with WebCrypto, as a browser does, and records the VAPID key it was
/// given, and keeps the keys (`window.__keys`: the private scalar and `auth`, base64url) so
/// the test can decrypt what the server sends. `arguments[0]` is the endpoint. Everything else
/// (permission, service worker, the page's calls, the server's push) is the real thing.
const STAND_IN_PUSH_SERVICE: &str = "
    const b64 = (a) => btoa(String.fromCharCode(...a)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    const endpoint = arguments[0];
    window.__sub = null;
    PushManager.prototype.getSubscription = async function () { return window.__sub; };
    PushManager.prototype.subscribe = async function (options) {
      window.__vapid = b64(new Uint8Array(options.applicationServerKey));
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
      const p256dh = b64(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
      const auth = b64(crypto.getRandomValues(new Uint8Array(16)));
      window.__keys = { d: (await crypto.subtle.exportKey('jwk', pair.privateKey)).d, auth };
      window.__sub = {
        endpoint,
        toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh, auth } }; },
        unsubscribe: async () => true,
      };
      return window.__sub;
    };
    return true;";

/// Creates a two-player Pyramids table from the lobby: `second` is the second seat's choice
/// (`open`, `bot:greedy`…), `clock` a profile key.
async fn create_table(s: &Session, second: &str, clock: &str) {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_based_table_offers_notifications_and_the_tab_title_counts_my_moves() {
    let w = world_with(
        "reach",
        "127.0.0.1:0",
        &["--clocks", "day=86400,fast=180+2", "--bot-pace-ms", "0"],
    )
    .await;
    let base = w.server.base.clone();
    let en = catalog("en");
    let s = w
        .driver
        .session_with_notifications(DESKTOP.0, DESKTOP.1)
        .await;
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
    assert_eq!(
        s.js(
            STAND_IN_PUSH_SERVICE,
            json!(["https://push.example.org/browser-test"])
        )
        .await,
        json!(true)
    );
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

async fn recv<T>(rx: &mut tokio::sync::mpsc::UnboundedReceiver<T>, what: &str) -> T {
    tokio::time::timeout(std::time::Duration::from_secs(30), rx.recv())
        .await
        .unwrap_or_else(|_| panic!("{what} within 30 s"))
        .expect("the sink runs")
}

fn mail_text(mail: &sinks::Mail) -> String {
    mail_parser::MessageParser::default()
        .parse(mail.data.as_bytes())
        .expect("a mail")
        .body_text(0)
        .unwrap_or_default()
        .to_string()
}

/// The first link in `text` that starts with `prefix`.
fn link(text: &str, prefix: &str) -> String {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} link in {text}"));
    text[start..].split_whitespace().next().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_closed_the_tab_gets_a_push_and_a_mail_when_the_table_fills() {
    let (push_base, mut pushed) = sinks::push_endpoint().await;
    let (smtp, mut mails) = sinks::smtp_sink().await;
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let flags = [
        "--clocks",
        "day=86400",
        "--bot-pace-ms",
        "0",
        "--smtp",
        &smtp,
        "--public-url",
        &base,
        "--push-allow-http",
    ];
    let w = world_with("reach-away", &format!("127.0.0.1:{port}"), &flags).await;
    assert_eq!(w.server.base, base);
    let en = catalog("en");
    let host = w
        .driver
        .session_with_notifications(DESKTOP.0, DESKTOP.1)
        .await;
    open_lobby(&host, &base).await;

    // An account, and its address confirmed by the link of the mail.
    host.click("[data-testid=sign-in]").await;
    host.wait_for("[data-testid=register-name]", 10).await;
    host.js(
        "document.querySelector('[data-testid=register-name]').value = 'anna_away';
         document.querySelector('[data-testid=register-password]').value = 'correct horse battery';",
        json!([]),
    )
    .await;
    host.click("[data-testid=register-submit]").await;
    host.wait_until(
        "signed in",
        "return document.querySelector('[data-testid=me]')?.textContent === 'anna_away' || null;",
        json!([]),
        15,
    )
    .await;
    host.goto(&format!("{base}/#/settings")).await;
    host.wait_for("[data-testid=email-address]", 15).await;
    host.js(
        "document.querySelector('[data-testid=email-address]').value = 'anna@example.org';",
        json!([]),
    )
    .await;
    host.click("[data-testid=email-save]").await;
    host.wait_for("[data-testid=email-status]", 15).await;
    let verify = recv(&mut mails, "the verification mail").await;
    assert_eq!(verify.to, ["<anna@example.org>"]);
    host.goto(&link(
        &mail_text(&verify),
        &format!("{base}/#/verify-email/"),
    ))
    .await;
    host.wait_for("[data-testid=email-verified]", 15).await;
    host.goto(&format!("{base}/#/settings")).await;
    host.wait_for("[data-testid=email-status]", 15).await;
    assert_eq!(
        host.text("[data-testid=email-status]").await,
        fill(
            &en["settings.email_verified"],
            "address",
            "anna@example.org"
        )
    );

    // A turn-based table; notifications turned on from it.
    open_lobby(&host, &base).await;
    create_table(&host, "open", "day").await;
    host.wait_for("[data-testid=notify-offer]", 15).await;
    let id = host
        .js("return location.hash.split('/').pop();", json!([]))
        .await
        .as_str()
        .unwrap()
        .to_string();
    host.grant_permission("notifications").await;
    host.js(
        STAND_IN_PUSH_SERVICE,
        json!([format!("{push_base}/push/anna")]),
    )
    .await;
    host.click("[data-testid=notify-offer-enable]").await;
    let keys = host
        .wait_until(
            "subscribed",
            "return document.querySelector('[data-testid=notify-offer]') ? null : window.__keys;",
            json!([]),
            20,
        )
        .await;

    // The host closes the table's tab (no page of the site open: no socket).
    host.goto("about:blank").await;
    let metrics = reqwest::Client::new();
    let mut closed = false;
    for _ in 0..300 {
        let text = metrics
            .get(format!("{base}/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if text.lines().any(|l| l == "pyramidion_connections 0") {
            closed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(closed, "the host's socket closed");

    // Another player takes the open seat: the host, away, is told by push and by mail.
    let guest = w.driver.session(PHONE.0, PHONE.1).await;
    guest.goto(&format!("{base}/#/table/{id}")).await;
    guest.click("[data-testid=join]").await;
    guest.wait_for("[data-testid=py-table]", 20).await;

    let push = recv(&mut pushed, "the push").await;
    assert_eq!(push.device, "anna");
    assert_eq!(push.headers["content-encoding"], "aes128gcm");
    let secret = web_push_native::p256::SecretKey::from_slice(
        &B64.decode(keys["d"].as_str().unwrap()).unwrap(),
    )
    .unwrap();
    let auth: [u8; 16] = B64
        .decode(keys["auth"].as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    let plain = web_push_native::decrypt(push.body, &secret, &web_push_native::Auth::from(auth))
        .expect("the push decrypts with the keys the page drew");
    let payload: Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(payload["kind"], "table_full", "{payload}");
    assert_eq!(payload["url"], format!("/#/game/{id}"));
    assert_eq!(payload["title"], en["notify.table_full_title"]);
    assert_eq!(
        payload["body"],
        json!(fill(
            &en["notify.table_full_body"],
            "game",
            en["game.pyramids"].as_str().unwrap()
        ))
    );

    let mail = recv(&mut mails, "the mail").await;
    assert_eq!(mail.to, ["<anna@example.org>"]);
    let text = mail_text(&mail);
    assert_eq!(
        link(&text, &format!("{base}/#/game/")),
        format!("{base}/#/game/{id}")
    );
    let unsubscribe = link(&text, &format!("{base}/#/unsubscribe/"));
    assert!(
        mail.data
            .contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click")
    );

    // The mail's unsubscribe link, opened, turns e-mail off.
    let back = w.driver.session(DESKTOP.0, DESKTOP.1).await;
    back.goto(&unsubscribe).await;
    back.wait_for("[data-testid=unsubscribed]", 15).await;
    back.screenshot(&artifacts(), "reach-unsubscribed").await;
    guest.quit().await;
    back.quit().await;
    host.quit().await;
}

/// Issue 46, items 8 and 9: notification settings are a link of the top bar on every page (at
/// 1280 and 375 px), not only behind the "Your move" pill; turning push on and failing says
/// why on the settings page, in the reader's language: the browser's subscribe error, then the
/// server's refusal (its code's text and the code). Both used to be silent (a toast at most).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_top_bar_leads_to_notification_settings_and_a_failed_push_says_why() {
    let w = world_with("reach-settings-link", "127.0.0.1:0", &[]).await;
    let base = w.server.base.clone();
    let fr = catalog("fr");
    for (width, height, name) in [
        (DESKTOP.0, DESKTOP.1, "desktop"),
        (PHONE.0, PHONE.1, "phone"),
    ] {
        let s = w.driver.session_with_notifications(width, height).await;
        open_lobby(&s, &base).await;
        s.click("[data-testid=language] option[value=fr]").await;
        s.wait_until(
            "the top bar's settings link in French",
            "const a = document.querySelector('.topbar [data-testid=topbar-settings]');
             return a && a.getAttribute('aria-label') === arguments[0] ? true : null;",
            json!([fr["settings.link"]]),
            15,
        )
        .await;
        let label = s
            .js(
                "const a = document.querySelector('.topbar [data-testid=topbar-settings]');
                 const r = a.getBoundingClientRect();
                 return { href: a.getAttribute('href'), aria: a.getAttribute('aria-label'),
                          visible: r.width > 0 && r.height > 0 && r.right <= innerWidth };",
                json!([]),
            )
            .await;
        assert_eq!(label["href"], "#/settings", "{label}");
        assert_eq!(label["aria"], fr["settings.link"], "{label}");
        assert_eq!(label["visible"], true, "in view at {width} px: {label}");
        s.click("[data-testid=topbar-settings]").await;
        s.wait_for("[data-testid=push-settings]", 15).await;
        s.wait_for("[data-testid=push-status][data-state=off]", 15)
            .await;

        // The browser's push service refuses: said in words on the page.
        s.grant_permission("notifications").await;
        s.js(
            "PushManager.prototype.getSubscription = async function () { return null; };
             PushManager.prototype.subscribe = async function () {
               throw new DOMException('Registration failed - push service error', 'AbortError');
             };
             return true;",
            json!([]),
        )
        .await;
        s.click("[data-testid=push-enable]").await;
        s.wait_for("[data-testid=push-error]", 20).await;
        assert_eq!(
            s.text("[data-testid=push-error]").await,
            fill(
                &fr["settings.push_error_browser"],
                "reason",
                "AbortError: Registration failed - push service error"
            )
        );
        s.screenshot(&artifacts(), &format!("reach-push-error-browser-{name}"))
            .await;

        // The browser subscribes, the server refuses the endpoint (plain http): its code said.
        s.js(
            STAND_IN_PUSH_SERVICE,
            json!(["http://127.0.0.1:9/push/refused"]),
        )
        .await;
        s.click("[data-testid=push-enable]").await;
        let refused = fill(
            &fr["settings.push_error_server"],
            "reason",
            &format!(
                "{} (bad_subscription)",
                fr["error.bad_subscription"].as_str().unwrap()
            ),
        );
        s.wait_until(
            "the server's refusal on the page",
            "const p = document.querySelector('[data-testid=push-error]');
             return p && p.textContent === arguments[0] ? true : null;",
            json!([refused]),
            20,
        )
        .await;
        s.screenshot(&artifacts(), &format!("reach-push-error-server-{name}"))
            .await;
        s.quit().await;
    }
}
