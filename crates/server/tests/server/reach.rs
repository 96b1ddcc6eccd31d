//! Reaching players who are away (docs/protocol.md, "Notifications"): Web Push to a push
//! endpoint the test stands up (each notification decrypted with the keys the test drew for
//! its "browser"), and e-mail to an SMTP sink the test starts, batched per game and hour.
#[path = "reach_support/players.rs"]
pub mod players;
#[path = "reach_support/sinks.rs"]
pub mod sinks;
use crate::common::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use players::*;
use pyramidion_server::reach::mail::BATCH_MS;
use serde_json::{Value, json};
use sinks::*;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::AsyncReadExt;

#[tokio::test]
async fn a_player_away_gets_encrypted_pushes_when_the_table_fills_and_it_is_their_move() {
    let (endpoint, mut pushed) = push_endpoint().await;
    let s = start_sqlite_with("reach-push", |c| c.reach.allow_http_push = true).await;
    let mut a = Client::guest(&s).await;
    let device = Device::new();
    let mut sub = device.subscription(&format!("{endpoint}/push/anna"));
    sub["lang"] = json!("fr");
    let r = a.post("/api/push/subscribe", sub).await;
    assert_eq!(
        (r.status, r.body["push_devices"].clone()),
        (201, json!(1)),
        "{}",
        r.text
    );
    let vapid = r.body["push_public_key"].as_str().unwrap().to_string();
    // A second browser whose push service takes the first notification, then says the
    // subscription is gone (410).
    let old = Device::new();
    let mut gone = old.subscription(&format!("{endpoint}/push/once-anna"));
    gone["lang"] = json!("fr");
    let r = a.post("/api/push/subscribe", gone).await;
    assert_eq!(
        (r.status, r.body["push_devices"].clone()),
        (201, json!(2)),
        "{}",
        r.text
    );

    let id = turn_based_game(&s, &mut a).await;

    // The table filled, and it is A's move: each reaches both of A's browsers (in either
    // order); the second browser's push service answers the second one 410.
    let mut kinds = BTreeSet::new();
    for _ in 0..4 {
        let push = recv(&mut pushed, "a push").await;
        assert_eq!(push.headers["content-encoding"], "aes128gcm");
        assert!(push.headers.contains_key("ttl"));
        let authorization = push.headers["authorization"].to_str().unwrap();
        let (token, key) = authorization
            .strip_prefix("vapid t=")
            .and_then(|rest| rest.split_once(", k="))
            .expect("a VAPID authorization");
        assert_eq!(key, vapid, "signed with the server's VAPID key");
        // The token is the server's signature for this push service's origin (RFC 8292).
        use web_push_native::jwt_simple::prelude::*;
        let public = ES256PublicKey::from_bytes(&B64.decode(key).unwrap()).unwrap();
        // The audience is the endpoint's scheme and host: `web-push-native` leaves out the
        // port, which only matters for a push service on a port other than 443 (none is).
        let options = VerificationOptions {
            allowed_audiences: Some(std::collections::HashSet::from([
                "http://127.0.0.1".to_string()
            ])),
            ..Default::default()
        };
        public
            .verify_token::<NoCustomClaims>(token, Some(options))
            .expect("a valid VAPID signature for the endpoint's origin");
        let keys = if push.device == "anna" { &device } else { &old };
        let payload = keys.decrypt(&push.body);
        assert_eq!(payload["game"], id.as_str(), "{payload}");
        assert_eq!(payload["url"], format!("/#/game/{id}"));
        let kind = payload["kind"].as_str().unwrap().to_string();
        let game = catalog_text("fr", "game.pyramids");
        assert_eq!(
            payload["title"],
            catalog_text("fr", &format!("notify.{kind}_title"))
        );
        assert_eq!(
            payload["body"],
            catalog_text("fr", &format!("notify.{kind}_body")).replace("{game}", &game)
        );
        kinds.insert((push.device, kind));
    }
    let anna: BTreeSet<&str> = kinds
        .iter()
        .filter(|(d, _)| d == "anna")
        .map(|(_, k)| k.as_str())
        .collect();
    assert_eq!(anna, BTreeSet::from(["table_full", "your_move"]));
    assert_eq!(kinds.iter().filter(|(d, _)| d == "once-anna").count(), 2);
    // The dropped subscription (it once worked) is deleted; the other stays.
    let mut devices = Value::Null;
    for _ in 0..2000 {
        devices = a.get("/api/notify").await.body["push_devices"].clone();
        if devices == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(devices, 1, "the 410 subscription is deleted");

    // After a restart (a second server on the same database) the keys are the same, and the
    // resumed game does not tell A of the same turn again: the next push is a new event.
    let restarted = start(sqlite_url(&s.dir), |c| c.reach.allow_http_push = true).await;
    let mut again = Client::new(&restarted);
    again.cookie = a.cookie.clone();
    let me = again.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        again.get("/api/notify").await.body["push_public_key"],
        vapid.as_str()
    );
    let mut told = false;
    for _ in 0..2000 {
        // Reading the table wakes its game; the room tells whose turn it is when it starts.
        again.get(&format!("/api/tables/{id}")).await;
        if restarted.state.rooms.running(&id).is_some() && restarted.state.hub.knows_turn(&me, &id)
        {
            told = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(told, "the resumed game knows it is A's move");
    let other = turn_based_game(&restarted, &mut again).await;
    let push = recv(&mut pushed, "the next push").await;
    let payload = device.decrypt(&push.body);
    assert_eq!(payload["game"], other.as_str(), "{payload}");
}

#[tokio::test]
async fn bad_subscriptions_and_settings_are_refused_and_change_nothing() {
    let s = start_sqlite("reach-bad-push").await;
    let mut a = Client::guest(&s).await;
    let before = a.get("/api/notify").await;
    assert_eq!(before.status, 200, "{}", before.text);
    assert_eq!(before.body["push_devices"], 0);
    assert_eq!(before.body["email_available"], false);
    let device = Device::new();
    let good = device.subscription("https://push.example.org/send/abc");
    let mut cases = vec![json!({}), json!({"endpoint": "https://push.example.org/x"})];
    for (field, value) in [
        ("endpoint", json!("ftp://push.example.org/x")),
        ("endpoint", json!("not a url")),
        // Plain http is for tests' loopback endpoints only.
        ("endpoint", json!("http://127.0.0.1:9/push")),
        (
            "endpoint",
            json!(format!("https://push.example.org/{}", "x".repeat(1100))),
        ),
        ("p256dh", json!("not base64!")),
        ("p256dh", json!(B64.encode([4u8; 65]))),
        ("auth", json!(B64.encode([1u8; 15]))),
        ("auth", json!(12)),
    ] {
        let mut bad = good.clone();
        if field == "endpoint" {
            bad["endpoint"] = value;
        } else {
            bad["keys"][field] = value;
        }
        cases.push(bad);
    }
    for bad in cases {
        let r = a.post("/api/push/subscribe", bad.clone()).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_subscription"),
            "{bad}: {}",
            r.text
        );
    }
    assert_eq!(
        a.get("/api/notify").await.body,
        before.body,
        "nothing changed"
    );

    for bad in [
        json!({"push": {"your_move": false}}),
        json!({"push": {"nope": true}, "email": {}}),
        json!({"push": {"your_move": "no"}, "email": {}}),
        json!({"push": {}, "email": {}, "sms": {}}),
    ] {
        let r = put(&mut a, "/api/notify", bad.clone()).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_settings"),
            "{bad}: {}",
            r.text
        );
    }
    assert_eq!(
        a.get("/api/notify").await.body,
        before.body,
        "nothing changed"
    );

    // A good subscription is stored, and removed on request; settings are stored.
    let r = a.post("/api/push/subscribe", good).await;
    assert_eq!(
        (r.status, r.body["push_devices"].clone()),
        (201, json!(1)),
        "{}",
        r.text
    );
    let r = a
        .post(
            "/api/push/unsubscribe",
            json!({"endpoint": "https://push.example.org/send/abc"}),
        )
        .await;
    assert_eq!(
        (r.body["removed"].clone(), r.body["push_devices"].clone()),
        (json!(true), json!(0))
    );
    let prefs = json!({"push": {"your_move": true, "rematch": false, "table_full": true},
                       "email": {"your_move": false, "rematch": true, "table_full": true}});
    let r = put(&mut a, "/api/notify", prefs.clone()).await;
    assert_eq!(
        (r.status, r.body["prefs"].clone()),
        (200, prefs),
        "{}",
        r.text
    );

    // E-mail needs an SMTP server.
    let r = a
        .post("/api/me/email", json!({"address": "anna@example.org"}))
        .await;
    assert_eq!((r.status, r.code()), (409, "email_off"), "{}", r.text);
}

#[tokio::test]
async fn a_verified_address_gets_one_mail_per_game_and_hour_with_a_one_click_unsubscribe() {
    let (smtp, mut mails) = smtp_sink().await;
    let s = start_sqlite_with("reach-mail", |c| {
        c.reach.smtp = Some(smtp.clone());
        c.reach.public_url = "http://pyramidion.test".into();
    })
    .await;
    let mut a = Client::guest(&s).await;
    // Guests have no address.
    let r = a
        .post("/api/me/email", json!({"address": "anna@example.org"}))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (403, "account_required"),
        "{}",
        r.text
    );
    let r = a
        .post(
            "/api/register",
            json!({"name": "anna", "password": "long enough"}),
        )
        .await;
    assert!(r.status < 300, "{}", r.text);
    let me = a.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let before = a.get("/api/notify").await.body;
    for bad in ["not an address", "anna@", " anna@example.org", "a@b@c"] {
        let r = a
            .post("/api/me/email", json!({"address": bad, "lang": "it"}))
            .await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_email"),
            "{bad}: {}",
            r.text
        );
    }
    let r = a.post("/api/me/email", json!({"address": 5})).await;
    assert_eq!((r.status, r.code()), (400, "bad_request"), "{}", r.text);
    assert_eq!(a.get("/api/notify").await.body, before, "nothing changed");
    assert!(mails.try_recv().is_err(), "no mail for a refused address");

    let r = a
        .post(
            "/api/me/email",
            json!({"address": "anna@example.org", "lang": "it"}),
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(
        r.body["email"],
        json!({"address": "anna@example.org", "verified": false})
    );
    // A second verification mail within the minute is refused (a mail bomb otherwise).
    let again = a
        .post(
            "/api/me/email",
            json!({"address": "anna@example.org", "lang": "it"}),
        )
        .await;
    assert_eq!((again.status, again.code()), (429, "rate_limited"));
    let verify = recv(&mut mails, "the verification mail").await;
    assert_eq!(verify.to, ["<anna@example.org>"]);
    let (subject, body) = parse(&verify);
    assert_eq!(subject, catalog_text("it", "notify.verify_subject"));
    let token = body
        .split("http://pyramidion.test/#/verify-email/")
        .nth(1)
        .expect("a verification link")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let r = a
        .post("/api/me/email/verify", json!({"token": "0123"}))
        .await;
    assert_eq!((r.status, r.code()), (404, "bad_token"), "{}", r.text);
    let r = a
        .post("/api/me/email/verify", json!({"token": token}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let settings = a.get("/api/notify").await.body;
    assert_eq!(
        settings["email"],
        json!({"address": "anna@example.org", "verified": true})
    );
    assert_eq!(settings["email_available"], true);
    // A bad address now changes nothing either.
    let r = a.post("/api/me/email", json!({"address": "nope"})).await;
    assert_eq!((r.status, r.code()), (400, "bad_email"));
    assert_eq!(a.get("/api/notify").await.body, settings);

    // The table fills and it is A's move: two events about one game, one mail now.
    let id = turn_based_game(&s, &mut a).await;
    let first = recv(&mut mails, "the first event's mail").await;
    assert_eq!(first.to, ["<anna@example.org>"]);
    let (subject, body) = parse(&first);
    let game = catalog_text("it", "game.pyramids");
    // The other player (a guest), as the mail names them.
    let other = s
        .state
        .store
        .seats(&id)
        .await
        .unwrap()
        .into_iter()
        .find_map(|seat| match seat {
            pyramidion_server::db::rows::SeatKind::Human(u) if u != me => Some(u),
            _ => None,
        })
        .expect("an opponent");
    let other = pyramidion_server::identity::display_name(&other, None);
    let fill = |key: &str| {
        catalog_text("it", key)
            .replace("{game}", &game)
            .replace("{opponents}", &other)
    };
    assert!(
        body.contains(&format!("http://pyramidion.test/#/game/{id}")),
        "{body}"
    );
    let unsubscribe = header(&first.data, "List-Unsubscribe").expect("a List-Unsubscribe header");
    let unsubscribe = unsubscribe.trim_matches(['<', '>']).to_string();
    assert!(unsubscribe.starts_with("http://pyramidion.test/api/notify/unsubscribe/"));
    assert_eq!(
        header(&first.data, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let token = unsubscribe.rsplit('/').next().unwrap();
    assert!(
        body.contains(&format!("http://pyramidion.test/#/unsubscribe/{token}")),
        "the text has the one-click link too: {body}"
    );
    let first_kind = ["table_full", "your_move"]
        .into_iter()
        .find(|k| body.contains(&fill(&format!("notify.mail_{k}_body"))))
        .expect("the mail says what happened");
    assert_eq!(
        subject,
        fill(&format!("notify.mail_{first_kind}_subject")),
        "the subject says what happened, with whom"
    );

    // The other event waits for the hour: stored in the game's batch, not mailed.
    let mut batch = None;
    for _ in 0..2000 {
        batch = s.state.store.mail_batch(&me, &id).await.unwrap();
        if batch.as_ref().is_some_and(|(_, pending)| pending.is_some()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (sent_at, pending) = batch.expect("a batch");
    let second_kind = if first_kind == "table_full" {
        "your_move"
    } else {
        "table_full"
    };
    assert_eq!(
        pending.as_deref(),
        Some(format!("[\"{second_kind}\"]").as_str())
    );
    assert!(mails.try_recv().is_err(), "one mail per game and hour");
    let sent_at = sent_at.unwrap();
    // Within the hour nothing leaves; once it has passed, the batch does (time injected).
    s.state.reach.flush_mail(sent_at + BATCH_MS - 1).await;
    assert!(mails.try_recv().is_err(), "still within the hour");
    s.state.reach.flush_mail(sent_at + BATCH_MS).await;
    let second = mails
        .try_recv()
        .expect("the batch leaves once the hour has passed");
    let (subject, body) = parse(&second);
    assert_eq!(subject, fill(&format!("notify.mail_{second_kind}_subject")));
    assert!(
        body.contains(&fill(&format!("notify.mail_{second_kind}_body"))),
        "{body}"
    );
    assert!(!body.contains(&fill(&format!("notify.mail_{first_kind}_body"))));
    assert_ne!(
        header(&first.data, "Message-ID"),
        header(&second.data, "Message-ID"),
        "each mail its own Message-ID"
    );

    // The sweep forgets a batch with nothing waiting once its hour has passed (a new event
    // would be mailed at once all the same), not before.
    let second_at = s
        .state
        .store
        .mail_batch(&me, &id)
        .await
        .unwrap()
        .unwrap()
        .0
        .unwrap();
    s.state.sweep(second_at + BATCH_MS - 1).await;
    assert!(s.state.store.mail_batch(&me, &id).await.unwrap().is_some());
    s.state.sweep(second_at + BATCH_MS).await;
    assert!(s.state.store.mail_batch(&me, &id).await.unwrap().is_none());

    // One click (RFC 8058) turns every e-mail event off; a wrong token changes nothing.
    let wrong = unsubscribe.replace(token, "ffff");
    assert_eq!(one_click(&s.base, &wrong).await, 404);
    assert_eq!(
        a.get("/api/notify").await.body["prefs"]["email"]["your_move"],
        true
    );
    assert_eq!(one_click(&s.base, &unsubscribe).await, 200);
    let prefs = a.get("/api/notify").await.body["prefs"].clone();
    assert_eq!(
        prefs,
        json!({"push": {"your_move": true, "rematch": true, "table_full": true, "vacation": true,
                        "challenge": true},
               "email": {"your_move": false, "rematch": false, "table_full": false,
                         "vacation": false, "challenge": false}})
    );
}

#[tokio::test]
async fn a_rematch_offer_reaches_the_other_player_once_they_have_left() {
    let (endpoint, mut pushed) = push_endpoint().await;
    let s = start_sqlite_with("reach-rematch", |c| c.reach.allow_http_push = true).await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let device = Device::new();
    let mut sub = device.subscription(&format!("{endpoint}/push/anna"));
    sub["lang"] = json!("en");
    assert_eq!(a.post("/api/push/subscribe", sub).await.status, 201);
    let t = a
        .create_table(
            "pyramids",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    // A is on the site (a socket open) when the table fills: no push for that.
    let mut wa = a.socket().await;
    assert_eq!(wa.next_of("hello").await["type"], "hello");
    assert_eq!(
        b.post(&format!("/api/tables/{id}/join"), json!({}))
            .await
            .status,
        200
    );
    let mut wb = b.socket().await;
    let sa = wa.subscribe(&id, None).await;
    let sb = wb.subscribe(&id, None).await;
    let (ra, _) = tokio::join!(wa.play_out(&id, sa, 1), wb.play_out(&id, sb, 2));
    assert_eq!(ra["finished"], true);
    // A closes the page: once the server has seen the socket close, A is away.
    let a_id = a.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    drop(wa);
    away(&s, &a_id).await;
    let r = b.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let new = r.body["id"].as_str().unwrap().to_string();
    // Nothing was pushed while A was on the site, nor for moves of a game without a long
    // turn: the first push is the rematch offer.
    let push = recv(&mut pushed, "the rematch push").await;
    let payload = device.decrypt(&push.body);
    assert_eq!(payload["kind"], "rematch", "{payload}");
    assert_eq!(payload["game"], new.as_str());
    assert_eq!(payload["url"], format!("/#/table/{new}"));
    assert_eq!(payload["title"], catalog_text("en", "notify.rematch_title"));
}

/// A live game of `c` against a bot, to address events to (`Hub::away` needs a stored game).
async fn game_against_a_bot(c: &mut Client) -> String {
    let t = c
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2},
                   "seats": [{"type": "me"}, {"type": "bot", "level": "random"}]}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    t.body["id"].as_str().unwrap().to_string()
}

async fn user_id(c: &mut Client) -> String {
    c.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Issue 54: any guest could make the server POST to loopback, private ranges, the cloud's
/// metadata service or a database port. Only public hosts are taken, unless the operator
/// allows one (`--push-allow-host`); `--push-allow-http` (tests) lets loopback through.
#[tokio::test]
async fn push_endpoints_inside_the_network_are_refused() {
    let s = start_sqlite_with("reach-inside", |c| {
        c.reach.push_allow = pyramidion_server::reach::push::AllowList::parse(&[
            "10.9.0.0/16".to_string(),
            "push.corp.example".to_string(),
        ])
        .unwrap();
    })
    .await;
    let mut a = Client::guest(&s).await;
    let device = Device::new();
    for endpoint in [
        "https://127.0.0.1/push",
        "https://127.8.9.10:8443/push",
        "https://0.0.0.0/push",
        "https://10.1.2.3/push",
        "https://172.16.0.1/push",
        "https://172.31.255.254/push",
        "https://192.168.1.1/push",
        "https://100.64.0.1/push",
        "https://169.254.169.254/latest/meta-data/",
        "https://metadata.google.internal/computeMetadata/v1/",
        "https://[::1]:5432/",
        "https://[::ffff:127.0.0.1]/push",
        "https://[fc00::1]/push",
        "https://[fd12:3456::1]/push",
        "https://[fe80::1]/push",
        "https://[64:ff9b::a00:1]/push",
        "https://localhost/push",
        "https://intranet/push",
        // Other spellings of 127.0.0.1 that the system's resolver understands.
        "https://127.1/push",
        "https://0x7f.0.0.1/push",
        "https://2130706433/push",
        // Plain http stays refused too.
        "http://push.example.org/push",
    ] {
        let r = a
            .post("/api/push/subscribe", device.subscription(endpoint))
            .await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_subscription"),
            "{endpoint}: {}",
            r.text
        );
    }
    assert_eq!(a.get("/api/notify").await.body["push_devices"], 0);
    // Public hosts, and what the operator allowed.
    for endpoint in [
        "https://93.184.215.14/push",
        "https://[2606:4700::1111]/push",
        "https://10.9.1.1/push",
        "https://push.corp.example/push",
    ] {
        let r = a
            .post("/api/push/subscribe", device.subscription(endpoint))
            .await;
        assert_eq!(r.status, 201, "{endpoint}: {}", r.text);
    }
    // A name that resolves to loopback (`localhost` is in every hosts file), not refused for
    // its name: with `--push-allow-http` loopback is allowed, so the name is looked up.
    let dev = start_sqlite_with("reach-inside-dev", |c| c.reach.allow_http_push = true).await;
    let mut b = Client::guest(&dev).await;
    let r = b
        .post(
            "/api/push/subscribe",
            device.subscription("http://localhost:9/push"),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let r = b
        .post(
            "/api/push/subscribe",
            device.subscription("https://192.168.1.1/push"),
        )
        .await;
    assert_eq!(r.code(), "bad_subscription", "{}", r.text);
}

/// Issue 54: a push service's 404/410 used to delete a subscription at once, telling a guest
/// whether a URL exists. A subscription that never took a notification stays (it goes only
/// after failing long and often, whatever the failures were).
#[tokio::test]
async fn a_subscription_that_never_worked_is_not_dropped_on_its_first_410() {
    let (endpoint, mut pushed) = push_endpoint().await;
    let s = start_sqlite_with("reach-oracle", |c| c.reach.allow_http_push = true).await;
    let mut a = Client::guest(&s).await;
    let me = user_id(&mut a).await;
    let device = Device::new();
    let gone = format!("{endpoint}/push/gone-anna");
    let r = a
        .post("/api/push/subscribe", device.subscription(&gone))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let game = game_against_a_bot(&mut a).await;
    for n in 1..=3 {
        s.state
            .hub
            .away(&me, &game, pyramidion_server::reach::Kind::Rematch);
        assert_eq!(recv(&mut pushed, "a push").await.device, "gone-anna");
        // Each 410 is counted, and the subscription kept.
        let mut failures = 0;
        for _ in 0..2000 {
            let subs = s.state.reach.store.subscriptions(&me).await.unwrap();
            assert_eq!(subs.len(), 1, "the subscription was dropped");
            failures = subs[0].health.failures;
            if failures == n {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(failures, n);
    }
    assert_eq!(a.get("/api/notify").await.body["push_devices"], 1);
}

/// Issue 54: an endpoint stored before these checks (or whose host the operator no longer
/// allows) is checked again when a push leaves: nothing inside is connected to, and the
/// failure is counted like any other. (That a name resolving inside is never dialled is
/// `reach::push`'s unit test of the push client's resolver.)
#[tokio::test]
async fn a_stored_endpoint_inside_is_never_connected_to() {
    let (slow, seen) = slow_endpoint().await;
    let port = slow.rsplit(':').next().unwrap().to_string();
    let s = start_sqlite("reach-stored-inside").await;
    let mut a = Client::guest(&s).await;
    let me = user_id(&mut a).await;
    let device = Device::new();
    let sub = device.subscription("https://push.example.org/x");
    for host in ["localhost.", "127.0.0.1"] {
        let stored = pyramidion_server::reach::store::Subscription {
            endpoint: format!("https://{host}:{port}/push/a"),
            p256dh: sub["keys"]["p256dh"].as_str().unwrap().to_string(),
            auth: sub["keys"]["auth"].as_str().unwrap().to_string(),
            lang: "en".to_string(),
            health: Default::default(),
        };
        s.state
            .reach
            .store
            .add_subscription(&me, &stored, 10)
            .await
            .unwrap();
    }
    let game = game_against_a_bot(&mut a).await;
    s.state
        .hub
        .away(&me, &game, pyramidion_server::reach::Kind::Rematch);
    let mut failures = Vec::new();
    for _ in 0..2000 {
        let subs = s.state.reach.store.subscriptions(&me).await.unwrap();
        failures = subs.iter().map(|sub| sub.health.failures).collect();
        if failures == [1, 1] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(failures, [1, 1], "both deliveries failed, both kept");
    assert_eq!(seen.accepted.load(Ordering::SeqCst), 0, "nothing connected");
}

/// Issue 54: every push left from one task, one after another with a 15 s time-out, so one
/// user's slow endpoints held back everyone's notices. Here one user's ten endpoints never
/// answer; another user's push leaves while those are still waiting.
#[tokio::test]
async fn a_slow_endpoint_does_not_delay_another_users_push() {
    let (fast, mut pushed) = push_endpoint().await;
    let (slow, seen) = slow_endpoint().await;
    let s = start_sqlite_with("reach-slow", |c| {
        c.reach.allow_http_push = true;
        // Longer than the test may take: the fast push must not wait for any slow one.
        c.reach.push_timeout = Duration::from_secs(300);
    })
    .await;
    let mut slow_user = Client::guest(&s).await;
    let slow_id = user_id(&mut slow_user).await;
    for n in 0..10 {
        let sub = Device::new().subscription(&format!("{slow}/push/slow-{n}"));
        let r = slow_user.post("/api/push/subscribe", sub).await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    let mut fast_user = Client::guest(&s).await;
    let fast_id = user_id(&mut fast_user).await;
    let device = Device::new();
    let r = fast_user
        .post(
            "/api/push/subscribe",
            device.subscription(&format!("{fast}/push/fast")),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let slow_game = game_against_a_bot(&mut slow_user).await;
    let fast_game = game_against_a_bot(&mut fast_user).await;

    use pyramidion_server::reach::Kind;
    // The slow user's notices first (two: the second waits behind the first).
    s.state.hub.away(&slow_id, &slow_game, Kind::Rematch);
    s.state.hub.away(&slow_id, &slow_game, Kind::TableFull);
    for _ in 0..2000 {
        if seen.accepted.load(Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        seen.accepted.load(Ordering::SeqCst) > 0,
        "the slow pushes started"
    );
    s.state.hub.away(&fast_id, &fast_game, Kind::Rematch);
    let push = recv(&mut pushed, "the other user's push").await;
    assert_eq!(push.device, "fast");
    assert_eq!(device.decrypt(&push.body)["game"], fast_game.as_str());
    assert_eq!(
        seen.closed.load(Ordering::SeqCst),
        0,
        "the slow endpoints are all still waiting"
    );
}

/// What a [`slow_endpoint`] saw.
#[derive(Default)]
pub struct SlowSeen {
    /// Connections accepted…
    pub accepted: AtomicUsize,
    /// …and closed by the other side (it gave up waiting).
    pub closed: AtomicUsize,
}

/// A push service on loopback that takes connections and requests and never answers:
/// `http://127.0.0.1:PORT`.
pub async fn slow_endpoint() -> (String, Arc<SlowSeen>) {
    let seen = Arc::new(SlowSeen::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let counts = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            counts.accepted.fetch_add(1, Ordering::SeqCst);
            let counts = counts.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                // Reads whatever comes until the client hangs up; answers nothing.
                while matches!(socket.read(&mut buf).await, Ok(n) if n > 0) {}
                counts.closed.fetch_add(1, Ordering::SeqCst);
            });
        }
    });
    (base, seen)
}

/// A subscription's delivery health as stored (run on SQLite here, on PostgreSQL by
/// `postgres::postgres_backend`).
pub async fn push_health_is_stored(s: &TestServer) {
    let mut a = Client::guest(s).await;
    let me = user_id(&mut a).await;
    let store = &s.state.reach.store;
    let device = Device::new().subscription("https://push.example.org/x");
    let sub = pyramidion_server::reach::store::Subscription {
        endpoint: format!("https://push.example.org/health-{me}"),
        p256dh: device["keys"]["p256dh"].as_str().unwrap().to_string(),
        auth: device["keys"]["auth"].as_str().unwrap().to_string(),
        lang: "en".to_string(),
        health: Default::default(),
    };
    store.add_subscription(&me, &sub, 10).await.unwrap();
    let health = || async { store.subscriptions(&me).await.unwrap()[0].health };
    assert_eq!(health().await, Default::default());
    store.push_failed(&sub.endpoint, 1_000).await.unwrap();
    store.push_failed(&sub.endpoint, 2_000).await.unwrap();
    let failing = health().await;
    assert_eq!(
        (failing.delivered, failing.failures, failing.failing_since),
        (false, 2, Some(1_000))
    );
    store.push_delivered(&sub.endpoint, 3_000).await.unwrap();
    let working = health().await;
    assert_eq!(
        (working.delivered, working.failures, working.failing_since),
        (true, 0, None)
    );
}

#[tokio::test]
async fn push_health_is_stored_on_sqlite() {
    push_health_is_stored(&start_sqlite("reach-health").await).await;
}

/// Vacation mode (issue 46): the other player of a turn-based game, away from the site, is
/// told by push that its clock pauses for a player on vacation.
#[tokio::test]
async fn a_vacation_reaches_the_other_player_away() {
    let (endpoint, mut pushed) = push_endpoint().await;
    let s = start_sqlite_with("reach-vacation", |c| c.reach.allow_http_push = true).await;
    let mut a = Client::guest(&s).await;
    let mut b = Client::guest(&s).await;
    let device = Device::new();
    let mut sub = device.subscription(&format!("{endpoint}/push/anna"));
    sub["lang"] = json!("it");
    assert_eq!(a.post("/api/push/subscribe", sub).await.status, 201);
    let t = a
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2},
                   "seats": [{"type": "me"}, {"type": "open"}], "clock": "day"}),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    let r = b.post("/api/me/vacation", json!({"days": 2})).await;
    assert_eq!(
        (r.status, r.body["paused"].clone()),
        (200, json!(1)),
        "{}",
        r.text
    );
    // The table filling (and maybe A's move) come first.
    for _ in 0..4 {
        let payload = device.decrypt(&recv(&mut pushed, "a push").await.body);
        if payload["kind"] == "vacation" {
            assert_eq!(payload["game"], id.as_str());
            assert_eq!(
                payload["title"],
                catalog_text("it", "notify.vacation_title")
            );
            return;
        }
    }
    panic!("no vacation push");
}
