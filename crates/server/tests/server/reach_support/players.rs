//! The reach tests' players and browsers: a device's push keys, a turn-based game whose
//! creator is away, HTTP and mail helpers.
use super::sinks::Mail;
use crate::common::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Value, json};
use std::time::Duration;
use web_push_native::p256;
use web_push_native::p256::elliptic_curve::sec1::ToEncodedPoint;

/// The English, French or Italian text of `key`, as the client's catalog has it.
pub fn catalog_text(lang: &str, key: &str) -> String {
    let path = format!("{}/../../web/i18n/{lang}.json", env!("CARGO_MANIFEST_DIR"));
    let map: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    map[key].as_str().unwrap().to_string()
}

/// A browser's push subscription keys, drawn here as a browser draws them.
pub struct Device {
    pub secret: p256::SecretKey,
    pub auth: [u8; 16],
}

impl Device {
    pub fn new() -> Device {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).unwrap();
        let mut auth = [0u8; 16];
        getrandom::fill(&mut auth).unwrap();
        Device {
            secret: p256::SecretKey::from_slice(&bytes).unwrap(),
            auth,
        }
    }

    /// `PushSubscription.toJSON()` for `endpoint`.
    pub fn subscription(&self, endpoint: &str) -> Value {
        let public = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": { "p256dh": B64.encode(public.as_bytes()), "auth": B64.encode(self.auth) },
        })
    }

    pub fn decrypt(&self, body: &[u8]) -> Value {
        let auth = web_push_native::Auth::from(self.auth);
        let plain = web_push_native::decrypt(body.to_vec(), &self.secret, &auth)
            .expect("the push decrypts with the subscription's keys");
        serde_json::from_slice(&plain).unwrap()
    }
}

/// A live two-player Pyramids table with a turn-based clock (a day per turn): `a` created it
/// (seat 0) and is away (no socket) when a new guest joins (seat 1). If seat 0 is to move
/// first, `a` plays that turn on a socket and leaves again; then seat 1 plays, on a socket,
/// until it is seat 0's move. So `a`, away, hears that the table filled and that it is their
/// move.
pub async fn turn_based_game(s: &TestServer, a: &mut Client) -> String {
    let t = a
        .post(
            "/api/tables",
            json!({"game": "pyramids", "options": {"players": 2},
                   "seats": [{"type": "me"}, {"type": "open"}], "clock": "day"}),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let id = t.body["id"].as_str().unwrap().to_string();
    let mut b = Client::guest(s).await;
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.body["status"], "live", "{}", joined.text);
    let mut state = play_while(&b, &id, 1).await;
    if state["to_move"] == 0 {
        play_while(a, &id, 0).await;
        let me = a.get("/api/me").await.body["id"]
            .as_str()
            .unwrap()
            .to_string();
        away(s, &me).await;
        state = play_while(&b, &id, 1).await;
    }
    assert_eq!(state["to_move"], 0, "{state}");
    id
}

/// Plays, on a socket of `c`, while `seat` is to move in `game` (the first legal move each
/// time); returns the state that ends it. The socket is closed on return.
pub async fn play_while(c: &Client, game: &str, seat: u64) -> Value {
    let mut socket = c.socket().await;
    let mut state = socket.subscribe(game, None).await;
    while state["to_move"] == seat {
        let sid = state["state_id"].as_u64().unwrap();
        let text = state["legal"][0]["text"].as_str().unwrap().to_string();
        socket.play(game, sid, &text).await;
        state = socket.state_at_least(game, sid + 1).await;
    }
    state
}

/// Waits until the server has seen every socket of `user` close.
pub async fn away(s: &TestServer, user: &str) {
    for _ in 0..2000 {
        if !s.state.hub.connected(user) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{user} still has a socket open");
}

/// `PUT` with a JSON body, with the client's session.
pub async fn put(c: &mut Client, path: &str, body: Value) -> Reply {
    let mut req = c.http.put(format!("{}{path}", c.base)).json(&body);
    if let Some(cookie) = &c.cookie {
        req = req.header("cookie", cookie.clone());
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply { status, body, text }
}

pub async fn recv<T>(rx: &mut tokio::sync::mpsc::UnboundedReceiver<T>, what: &str) -> T {
    tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .unwrap_or_else(|_| panic!("{what} within 20 s"))
        .unwrap()
}

/// Sends `POST` with a form body, as a mail client's one-click unsubscribe does.
pub async fn one_click(base: &str, url: &str) -> u16 {
    let path = url
        .split_once("/api/")
        .map(|(_, p)| format!("/api/{p}"))
        .unwrap();
    reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// A header of a raw mail, unfolded.
pub fn header(data: &str, name: &str) -> Option<String> {
    let head = data
        .split("\r\n\r\n")
        .next()
        .unwrap()
        .replace("\r\n ", " ")
        .replace("\r\n\t", " ");
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

/// Sets `c`'s address (mails in `lang`, or the server's default) and follows the link of the
/// verification mail.
pub async fn verified_address(
    c: &mut Client,
    mails: &mut tokio::sync::mpsc::UnboundedReceiver<Mail>,
    address: &str,
    lang: Option<&str>,
) {
    let mut body = json!({"address": address});
    if let Some(lang) = lang {
        body["lang"] = json!(lang);
    }
    let r = c.post("/api/me/email", body).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let (_, text) = parse(&recv(mails, "the verification mail").await);
    let token = text
        .split("/#/verify-email/")
        .nth(1)
        .expect("a verification link")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let r = c
        .post("/api/me/email/verify", json!({"token": token}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

pub fn parse(mail: &Mail) -> (String, String) {
    let message = mail_parser::MessageParser::default()
        .parse(mail.data.as_bytes())
        .expect("a mail");
    (
        message.subject().unwrap_or_default().to_string(),
        message.body_text(0).unwrap_or_default().to_string(),
    )
}
