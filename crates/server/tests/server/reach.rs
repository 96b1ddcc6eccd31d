//! Reaching players who are away (docs/protocol.md, "Notifications"): Web Push to a push
//! endpoint the test stands up (each notification decrypted with the keys the test drew for
//! its "browser"), and e-mail to an SMTP sink the test starts, batched per game and hour.
#[path = "reach_support/players.rs"]
mod players;
#[path = "reach_support/sinks.rs"]
mod sinks;
use crate::common::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use players::*;
use pyramidion_server::reach::mail::BATCH_MS;
use serde_json::{Value, json};
use sinks::*;
use std::collections::BTreeSet;
use std::time::Duration;

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
    // A second browser whose subscription its push service has dropped (410 Gone).
    let old = Device::new();
    let mut gone = old.subscription(&format!("{endpoint}/push/gone-anna"));
    gone["lang"] = json!("fr");
    let r = a.post("/api/push/subscribe", gone).await;
    assert_eq!(
        (r.status, r.body["push_devices"].clone()),
        (201, json!(2)),
        "{}",
        r.text
    );

    let id = turn_based_game(&s, &mut a).await;

    // The table filled, and it is A's move: each reaches A's browser (in either order); the
    // first also reaches the dropped one, whose push service answers 410, and then no more.
    let mut kinds = BTreeSet::new();
    for _ in 0..3 {
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
    assert_eq!(kinds.iter().filter(|(d, _)| d == "gone-anna").count(), 1);
    // The dropped subscription is deleted; the other stays.
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
    assert_eq!(
        subject,
        catalog_text("it", "notify.mail_subject").replace("{game}", &game)
    );
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
        .find(|k| {
            body.contains(&catalog_text("it", &format!("notify.{k}_body")).replace("{game}", &game))
        })
        .expect("the mail says what happened");

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
    let (_, body) = parse(&second);
    assert!(
        body.contains(
            &catalog_text("it", &format!("notify.{second_kind}_body")).replace("{game}", &game)
        ),
        "{body}"
    );
    assert!(!body.contains(
        &catalog_text("it", &format!("notify.{first_kind}_body")).replace("{game}", &game)
    ));

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
        json!({"push": {"your_move": true, "rematch": true, "table_full": true},
               "email": {"your_move": false, "rematch": false, "table_full": false}})
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
