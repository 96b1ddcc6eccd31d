//! Bounds on mail (issue 54, item 2), counted by the recipient's address and not by game or
//! table: a rematch loop (ask, leave, ask again: a new table, so a new game, each time) sent
//! the former opponent a mail a loop (1,071 in 60 s); verification links went to any address
//! as often as accounts asked.
use crate::common::after_game_scenarios::account;
use crate::common::*;
use crate::reach::players::*;
use crate::reach::sinks::*;
use pyramidion_server::reach::store::{MailBound, MailScope};
use serde_json::json;
use std::time::Duration;

/// Nothing more reaches the sink within `quiet`.
async fn no_more_mail(mails: &mut tokio::sync::mpsc::UnboundedReceiver<Mail>, quiet: Duration) {
    if let Ok(Some(mail)) = tokio::time::timeout(quiet, mails.recv()).await {
        let (subject, body) = parse(&mail);
        panic!("one more mail to {:?}: {subject}\n{body}", mail.to);
    }
}

#[tokio::test]
async fn a_rematch_loop_mails_the_former_opponent_once() {
    let (smtp, mut mails) = smtp_sink().await;
    let s = start_sqlite_with("mail-rematch-loop", |c| {
        c.reach.smtp = Some(smtp.clone());
        c.reach.public_url = "http://pyramidion.test".into();
    })
    .await;
    let mut a = account(&s, "anna").await;
    let mut b = account(&s, "bruno").await;
    verified_address(&mut b, &mut mails, "bruno@example.org", None).await;
    let t = a
        .create_table(
            "pyramids",
            json!({"players": 2}),
            json!([{"type": "me"}, {"type": "open"}]),
        )
        .await;
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    let r = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Bruno is away (he never opened a socket): each offer is an event for him.
    let mut tables = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let r = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
        assert_eq!(r.status, 201, "{}", r.text);
        let table = r.body["id"].as_str().unwrap().to_string();
        let left = a
            .post(&format!("/api/tables/{table}/leave"), json!({}))
            .await;
        assert_eq!(left.body["status"], "abandoned", "{}", left.text);
        tables.insert(table);
    }
    assert_eq!(tables.len(), 12, "each ask made a new table");
    let offer = recv(&mut mails, "the first offer's mail").await;
    assert_eq!(offer.to, ["<bruno@example.org>"]);
    let (_, body) = parse(&offer);
    let game = catalog_text("en", "game.pyramids");
    assert!(
        body.contains(
            &catalog_text("en", "notify.mail_rematch_body")
                .replace("{game}", &game)
                .replace("{asker}", "anna")
        ),
        "{body}"
    );
    // The eleven other offers are the same conversation: none is mailed, now or later.
    no_more_mail(&mut mails, Duration::from_secs(3)).await;
    let later = pyramidion_server::wall_clock::now_ms() + 2 * 3600 * 1000;
    s.state.reach.flush_mail(later).await;
    no_more_mail(&mut mails, Duration::from_millis(300)).await;
}

#[tokio::test]
async fn verification_mails_to_one_address_are_bounded_whoever_asks() {
    let (smtp, mut mails) = smtp_sink().await;
    let s = start_sqlite_with("mail-verify-bound", |c| {
        c.reach.smtp = Some(smtp.clone());
        c.limits.registrations_per_ip_per_hour = 100;
    })
    .await;
    // Three accounts name one mailbox, spelt three ways: three mails.
    for (i, address) in [
        "victim@example.org",
        "Victim@Example.ORG",
        "victim+games@example.org",
    ]
    .into_iter()
    .enumerate()
    {
        let mut c = account(&s, &format!("asker{i}")).await;
        let r = c.post("/api/me/email", json!({"address": address})).await;
        assert_eq!(r.status, 202, "{}", r.text);
        assert_eq!(
            recv(&mut mails, "a verification mail").await.to,
            [format!("<{address}>")]
        );
    }
    // A fourth is refused, with its code, and nothing is sent.
    let mut c = account(&s, "asker3").await;
    let r = c
        .post("/api/me/email", json!({"address": "VICTIM+x@example.org"}))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (429, "too_many_verification_mails"),
        "{}",
        r.text
    );
    assert_eq!(
        c.get("/api/notify").await.body["email"],
        serde_json::Value::Null,
        "the refused address is not stored"
    );
    no_more_mail(&mut mails, Duration::from_millis(500)).await;
    // Another mailbox is not held back by it.
    let mut d = account(&s, "asker4").await;
    let r = d
        .post("/api/me/email", json!({"address": "someone@example.org"}))
        .await;
    assert_eq!(r.status, 202, "{}", r.text);
    recv(&mut mails, "another address's mail").await;
}

/// The counts behind every bound on mail: per address, per sender, per pair, within a window.
#[tokio::test]
async fn mail_bounds_count_by_address_sender_and_window() {
    let s = start_sqlite("mail-slots").await;
    mail_bounds_are_counted(&s).await;
}

/// [`mail_bounds_count_by_address_sender_and_window`] on any backend (the PostgreSQL tier runs
/// it too).
pub async fn mail_bounds_are_counted(s: &TestServer) {
    let store = &s.state.store;
    let now = 10_000_000;
    let per_address = |cap| MailBound {
        scope: MailScope::Address,
        since: now - 1000,
        cap,
    };
    for at in [now - 1, now] {
        let took = store
            .take_mail_slot("event", "a@x.org", None, at, &[per_address(2)])
            .await
            .unwrap();
        assert_eq!(took, None);
    }
    let full = store
        .take_mail_slot("event", "a@x.org", None, now, &[per_address(2)])
        .await
        .unwrap();
    assert_eq!(full, Some(MailScope::Address));
    // Another kind, another address: counted apart.
    for (kind, address) in [("verify", "a@x.org"), ("event", "b@x.org")] {
        let took = store
            .take_mail_slot(kind, address, None, now, &[per_address(2)])
            .await
            .unwrap();
        assert_eq!(took, None, "{kind} {address}");
    }
    // Past the window the address has room again.
    let later = MailBound {
        scope: MailScope::Address,
        since: now,
        cap: 2,
    };
    assert_eq!(
        store
            .take_mail_slot("event", "a@x.org", None, now + 1, &[later])
            .await
            .unwrap(),
        None
    );
    // A sender's bound counts every address they asked for; a pair's, one address.
    let sender = |scope, cap| MailBound {
        scope,
        since: now - 1000,
        cap,
    };
    for address in ["c@x.org", "d@x.org"] {
        let took = store
            .take_mail_slot(
                "offer",
                address,
                Some("u1"),
                now,
                &[sender(MailScope::Pair, 1), sender(MailScope::Sender, 2)],
            )
            .await
            .unwrap();
        assert_eq!(took, None, "{address}");
    }
    let again = store
        .take_mail_slot(
            "offer",
            "c@x.org",
            Some("u1"),
            now,
            &[sender(MailScope::Pair, 1)],
        )
        .await
        .unwrap();
    assert_eq!(again, Some(MailScope::Pair));
    let third = store
        .take_mail_slot(
            "offer",
            "e@x.org",
            Some("u1"),
            now,
            &[sender(MailScope::Pair, 1), sender(MailScope::Sender, 2)],
        )
        .await
        .unwrap();
    assert_eq!(third, Some(MailScope::Sender));
    let other = store
        .take_mail_slot(
            "offer",
            "c@x.org",
            Some("u2"),
            now,
            &[sender(MailScope::Pair, 1)],
        )
        .await
        .unwrap();
    assert_eq!(other, None, "another asker is another conversation");
    // The sweep forgets what no bound looks back at.
    store.sweep_mail_log(now + 1).await.unwrap();
    assert_eq!(
        store
            .take_mail_slot("event", "a@x.org", None, now + 2, &[per_address(1)])
            .await
            .unwrap(),
        None
    );
}

/// Mails to one address are bounded by the hour whatever games they are about (each game has
/// its own batch): past the bound, a game's batch waits, and leaves once the hour has room.
#[tokio::test]
async fn notification_mails_to_one_address_are_bounded_by_the_hour() {
    let (smtp, mut mails) = smtp_sink().await;
    let s = start_sqlite_with("mail-per-address", |c| {
        c.reach.smtp = Some(smtp.clone());
        c.reach.mail_limits.per_address_hour = 2;
    })
    .await;
    let mut b = account(&s, "bruno").await;
    verified_address(&mut b, &mut mails, "bruno@example.org", None).await;
    let b_id = b.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Three of Bruno's tables fill while he is away: three games, one event each.
    let mut games = Vec::new();
    for _ in 0..3 {
        let t = b
            .create_table(
                "pyramids",
                json!({"players": 2}),
                json!([{"type": "me"}, {"type": "open"}]),
            )
            .await;
        assert_eq!(t.status, 201, "{}", t.text);
        let id = t.body["id"].as_str().unwrap().to_string();
        let mut c = Client::guest(&s).await;
        let joined = c.post(&format!("/api/tables/{id}/join"), json!({})).await;
        assert_eq!(joined.body["status"], "live", "{}", joined.text);
        games.push(id);
    }
    for n in 0..2 {
        let mail = recv(&mut mails, &format!("mail {n}")).await;
        assert_eq!(mail.to, ["<bruno@example.org>"]);
    }
    no_more_mail(&mut mails, Duration::from_secs(2)).await;
    // The third waits in its game's batch…
    let mut waiting = None;
    for _ in 0..500 {
        for game in &games {
            if let Some((None, Some(_))) = s.state.store.mail_batch(&b_id, game).await.unwrap() {
                waiting = Some(game.clone());
            }
        }
        if waiting.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let waiting = waiting.expect("one game's mail waits");
    // …and leaves once the hour has room (time injected).
    let now = pyramidion_server::wall_clock::now_ms();
    s.state.reach.flush_mail(now).await;
    no_more_mail(&mut mails, Duration::from_millis(300)).await;
    s.state.reach.flush_mail(now + 3600 * 1000).await;
    let (_, body) = parse(&recv(&mut mails, "the mail that waited").await);
    assert!(body.contains(&waiting), "{body}");
}
