//! What a notification mail says (issue 46, item 8): a subject and a text per event (the
//! table filled, your move, a rematch offer) naming the others at the table and, for a move,
//! when the turn's time runs out, in the recipient's language; a `Message-ID` on the server's
//! domain and the one-click `List-Unsubscribe` headers. Mails used to be "Pyramidion: <game>"
//! whatever happened, naming nobody, with no `Message-ID`.
use crate::common::after_game_scenarios::account;
use crate::common::*;
use crate::reach::players::*;
use crate::reach::sinks::*;
use pyramidion_server::reach::mail::BATCH_MS;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Every mail that reaches the sink until it has been quiet for `quiet`.
async fn drain(
    mails: &mut tokio::sync::mpsc::UnboundedReceiver<Mail>,
    quiet: Duration,
) -> Vec<Mail> {
    let mut out = Vec::new();
    while let Ok(Some(mail)) = tokio::time::timeout(quiet, mails.recv()).await {
        out.push(mail);
    }
    out
}

/// `key`'s text in `lang` with `{name}` placeholders filled.
fn text(lang: &str, key: &str, params: &[(&str, &str)]) -> String {
    let mut out = catalog_text(lang, key);
    for (name, value) in params {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[tokio::test]
async fn a_mail_says_what_happened_and_with_whom_with_a_message_id_and_list_unsubscribe() {
    let (smtp, mut mails) = smtp_sink().await;
    let s = start_sqlite_with("mail-texts", |c| {
        c.reach.smtp = Some(smtp.clone());
        c.reach.public_url = "https://play.pyramidion.test:8443/".into();
    })
    .await;
    let mut a = account(&s, "anna").await;
    let mut b = account(&s, "bruno").await;
    verified_address(&mut a, &mut mails, "anna@example.org", Some("fr")).await;
    verified_address(&mut b, &mut mails, "bruno@example.org", Some("en")).await;
    // Who reads which language, and whom they play.
    let readers = BTreeMap::from([
        ("<anna@example.org>", ("fr", "bruno")),
        ("<bruno@example.org>", ("en", "anna")),
    ]);

    // A turn-based table; Anna does not have the site open.
    let t = a
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2},
                   "seats": [{"type": "me"}, {"type": "open"}], "clock": "day"}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    // Bruno plays until it is Anna's move (as `turn_based_game` does: a turn the room
    // announces), Anna away all along but for her own moves.
    let anna = a.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let bruno = b.get("/api/me").await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut state = play_while(&b, &id, 1).await;
    if state["to_move"] == 0 {
        play_while(&a, &id, 0).await;
        away(&s, &anna).await;
        state = play_while(&b, &id, 1).await;
    }
    assert_eq!(state["to_move"], 0, "{state}");
    away(&s, &bruno).await;
    let mut got = drain(&mut mails, Duration::from_secs(3)).await;
    // Events of a game within the hour wait in its batch: let the hour pass.
    s.state
        .reach
        .flush_mail(pyramidion_server::wall_clock::now_ms() + BATCH_MS + 1)
        .await;
    got.extend(drain(&mut mails, Duration::from_secs(2)).await);

    let mut ids = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut check = |mail: &Mail, seen: &mut BTreeSet<(String, &'static str)>| {
        let to = mail.to[0].as_str();
        let (lang, other) = readers[to];
        let (subject, body) = parse(mail);
        let game = catalog_text(lang, "game.pyramids");
        let params = [
            ("game", game.as_str()),
            ("opponents", other),
            ("asker", other),
        ];
        let kind = ["your_move", "table_full", "rematch"]
            .into_iter()
            .find(|k| subject == text(lang, &format!("notify.mail_{k}_subject"), &params))
            .unwrap_or_else(|| panic!("a subject per event naming {other}: {subject:?}"));
        assert!(subject.contains(other), "{subject}");
        assert!(
            body.contains(&text(lang, &format!("notify.mail_{kind}_body"), &params)),
            "the text says what happened with whom: {body}"
        );
        if kind == "your_move" {
            let before = catalog_text(lang, "notify.mail_deadline");
            let before = before.split("{deadline}").next().unwrap();
            assert!(
                body.contains(before) && body.contains(" UTC"),
                "a move's mail says when the turn's time runs out: {body}"
            );
        }
        let message_id = header(&mail.data, "Message-ID").expect("a Message-ID header");
        assert!(
            message_id.starts_with('<') && message_id.ends_with("@play.pyramidion.test>"),
            "{message_id}"
        );
        assert!(ids.insert(message_id), "each mail its own Message-ID");
        let unsubscribe = header(&mail.data, "List-Unsubscribe").expect("List-Unsubscribe");
        assert!(
            unsubscribe.starts_with("<https://play.pyramidion.test:8443/api/notify/unsubscribe/"),
            "{unsubscribe}"
        );
        assert_eq!(
            header(&mail.data, "List-Unsubscribe-Post").as_deref(),
            Some("List-Unsubscribe=One-Click")
        );
        seen.insert((to.to_string(), kind));
    };
    for mail in &got {
        check(mail, &mut seen);
    }
    // Anna sat waiting: she hears the game started, and that it is her move (Bruno filled
    // the table himself; he may have heard of a move of his before he came).
    for kind in ["table_full", "your_move"] {
        assert!(
            seen.contains(&("<anna@example.org>".to_string(), kind)),
            "{kind}: {seen:?}"
        );
    }
    assert!(!seen.contains(&("<bruno@example.org>".to_string(), "table_full")));

    // Anna resigns and offers a rematch: Bruno's mail names her as the one asking.
    let r = a.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = a.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let offer = recv(&mut mails, "the rematch offer's mail").await;
    assert_eq!(offer.to, ["<bruno@example.org>"]);
    check(&offer, &mut seen);
    assert!(seen.contains(&("<bruno@example.org>".to_string(), "rematch")));
}
