//! Connections under abuse (issue 29): a WebSocket holds its address's slot and a global
//! permit until it closes, an address has one message budget across its sockets, a socket
//! follows a bounded number of games, the open-file limit covers `--max-connections`, and
//! behind a trusted proxy each client is counted by its own address.
use crate::common::*;
use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A TCP connection to `server` from the loopback address `from` (127.0.0.0/8 is all local).
async fn connect_from(from: &str, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(from.parse().unwrap(), 0))
        .unwrap();
    socket.connect(server).await.unwrap()
}

/// The whole answer to one request on a fresh connection (empty: closed unanswered).
async fn request_from(from: &str, server: SocketAddr, request: &str) -> String {
    let mut c = connect_from(from, server).await;
    c.write_all(request.as_bytes()).await.unwrap();
    let mut all = Vec::new();
    let _ = c.read_to_end(&mut all).await;
    String::from_utf8_lossy(&all).into_owned()
}

const HEALTH: &str = "GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";

/// A socket that has answered a ping: its upgrade is complete.
async fn open_socket(c: &Client) -> Socket {
    let mut ws = c.socket().await;
    ws.send(json!({"type": "ping", "id": 1})).await;
    assert_eq!(ws.next_of("pong").await["id"], 1);
    ws
}

async fn try_socket(server: &TestServer) -> Result<(), String> {
    let url = format!("{}/ws", server.base.replacen("http", "ws", 1));
    tokio_tungstenite::connect_async(url)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[tokio::test]
async fn the_129th_websocket_from_one_address_is_refused_while_another_address_is_served() {
    // The default cap (128 per address).
    let s = start_sqlite("ws-cap").await;
    assert_eq!(s.state.config.limits.connections_per_ip, 128);
    let c = Client::new(&s);
    let mut held = Vec::new();
    for _ in 0..128 {
        held.push(open_socket(&c).await);
    }
    let local: IpAddr = "127.0.0.1".parse().unwrap();
    assert_eq!(s.state.connections.open(local), 128, "every socket counted");
    let refused = try_socket(&s).await;
    assert!(refused.is_err(), "the 129th socket was accepted");
    // Another address is served meanwhile.
    let answer = request_from("127.0.0.2", s.addr, HEALTH).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A socket that closes gives its slot back.
    let mut one = held.pop().unwrap();
    one.ws.close(None).await.unwrap();
    drop(one);
    for attempt in 0.. {
        if try_socket(&s).await.is_ok() {
            break;
        }
        assert!(attempt < 2000, "the closed socket's slot never came back");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_websocket_keeps_its_connection_permit_until_it_closes() {
    let s = start_sqlite_with("ws-permit", |c| c.limits.max_connections = 3).await;
    let c = Client::new(&s);
    let local: IpAddr = "127.0.0.1".parse().unwrap();
    let mut a = open_socket(&c).await;
    let b = open_socket(&c).await;
    // Long after the upgrade (a round trip each way), both still count.
    a.send(json!({"type": "ping", "id": 2})).await;
    assert_eq!(a.next_of("pong").await["id"], 2);
    assert_eq!(s.state.connections.open(local), 2);
    drop(a);
    drop(b);
    for attempt in 0.. {
        if s.state.connections.open(local) == 0 {
            break;
        }
        assert!(attempt < 2000, "closed sockets still counted");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // Three permits in all: with two sockets open, a third connection is served (the
    // permits came back: three more sockets open one after the other).
    let _held = [
        open_socket(&c).await,
        open_socket(&c).await,
        open_socket(&c).await,
    ];
    assert_eq!(s.state.connections.open(local), 3);
}

/// Pongs and `rate_limited` errors among `n` messages read from `ws`.
async fn answers(ws: &mut Socket, n: usize) -> (usize, usize) {
    let (mut pongs, mut limited) = (0, 0);
    for _ in 0..n {
        let v: Value = ws.next().await;
        match v["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if v["code"] == "rate_limited" => limited += 1,
            _ => panic!("unexpected {v}"),
        }
    }
    (pongs, limited)
}

#[tokio::test]
async fn an_address_has_one_message_budget_across_its_sockets() {
    let s = start_sqlite_with("ws-budget", |c| {
        // Ten messages, never refilled within the test.
        c.ws_messages_per_second = 1e-9;
        c.ws_burst = 10.0;
    })
    .await;
    let c = Client::new(&s);
    let (mut a, mut b) = (c.socket().await, c.socket().await);
    for id in 0..6 {
        a.send(json!({"type": "ping", "id": id})).await;
        b.send(json!({"type": "ping", "id": id})).await;
    }
    let (pa, la) = answers(&mut a, 6).await;
    let (pb, lb) = answers(&mut b, 6).await;
    assert_eq!(
        (pa + pb, la + lb),
        (10, 2),
        "one budget of 10 for both sockets"
    );
    // A third socket of the same address has nothing left either.
    let mut third = c.socket().await;
    third.send(json!({"type": "ping", "id": 9})).await;
    assert_eq!(answers(&mut third, 1).await, (0, 1));
}

fn the_code_of(v: &Value) -> &str {
    v["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn a_socket_follows_a_bounded_number_of_games() {
    let s = start_sqlite_with("ws-rooms", |c| c.limits.rooms_per_socket = 2).await;
    let mut guest = Client::guest(&s).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let t = guest
            .create_table(
                "forgotten-treasures",
                json!({"players": 1, "solo": "a-legend"}),
                json!([{"type": "me"}]),
            )
            .await;
        assert_eq!(t.status, 201, "{}", t.text);
        games.push(t.body["id"].as_str().unwrap().to_string());
    }
    let mut ws = guest.socket().await;
    ws.subscribe(&games[0], None).await;
    ws.subscribe(&games[1], None).await;
    ws.send(json!({"type": "subscribe", "game": games[2]}))
        .await;
    let refused = ws.next_of("error").await;
    assert_eq!(the_code_of(&refused), "too_many_games", "{refused}");
    assert_eq!(refused["game"], games[2].as_str());
    // A move in a third game is refused the same way (a move subscribes).
    ws.play(&games[2], 0, "anything").await;
    assert_eq!(the_code_of(&ws.next_of("error").await), "too_many_games");
    // Following one again is no new room; leaving one makes room for another.
    ws.subscribe(&games[1], None).await;
    ws.send(json!({"type": "unsubscribe", "game": games[0]}))
        .await;
    ws.subscribe(&games[2], None).await;
}

#[test]
fn the_open_file_limit_covers_max_connections_or_the_server_refuses() {
    let err = pyramidion_server::fd_limit::ensure(usize::MAX).unwrap_err();
    assert!(err.to_string().contains("--max-connections"), "{err}");
    let files = pyramidion_server::fd_limit::ensure(64).unwrap();
    assert!(files >= 64 + pyramidion_server::fd_limit::RESERVED_FILES);
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_is_limited_by_its_own_address() {
    let s = start_sqlite_with("proxy", |c| {
        c.trusted_proxies = vec!["127.0.0.2/32".parse().unwrap()];
        c.limits.guests_per_ip_per_hour = 1;
    })
    .await;
    let me = |xff: &str| {
        format!(
            "GET /api/me HTTP/1.1\r\nHost: test\r\nConnection: close\r\nX-Forwarded-For: {xff}\r\n\r\n"
        )
    };
    // Through the proxy: one new guest per client address.
    for client in ["192.0.2.1", "192.0.2.2"] {
        let answer = request_from("127.0.0.2", s.addr, &me(client)).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let answer = request_from("127.0.0.2", s.addr, &me("192.0.2.1")).await;
    assert!(answer.contains("too_many_guests"), "{answer}");
    // Anyone else's header is not believed: this direct client is 127.0.0.3, whatever it says.
    let answer = request_from("127.0.0.3", s.addr, &me("192.0.2.9")).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let answer = request_from("127.0.0.3", s.addr, &me("192.0.2.10")).await;
    assert!(answer.contains("too_many_guests"), "{answer}");
}

/// A request from `from` for the game list, with one `X-Forwarded-For` line per entry of
/// `xff` (HAProxy's `option forwardfor` adds its own line after the client's).
async fn games_from(from: &str, server: SocketAddr, xff: &[&str]) -> String {
    let mut request = "GET /api/games HTTP/1.1\r\nHost: test\r\nConnection: close\r\n".to_string();
    for line in xff {
        request.push_str(&format!("X-Forwarded-For: {line}\r\n"));
    }
    request.push_str("\r\n");
    request_from(from, server, &request).await
}

/// Issue 54: behind HAProxy, a client sending `X-Forwarded-For: nonsense` was counted as the
/// proxy, whose own requests (its health checks) then met `429`. The client's words left of
/// the proxy's entry are not read; a header the proxy passed through unchanged names nobody
/// and is refused, and neither spends the proxy's budget.
#[tokio::test]
async fn a_malformed_forwarded_for_from_the_proxy_does_not_spend_the_proxys_budget() {
    let s = start_sqlite_with("proxy-garbage", |c| {
        c.trusted_proxies = vec!["127.0.0.2/32".parse().unwrap()];
        // Three requests per address, never refilled.
        c.http_per_second = 0.0;
        c.http_burst = 3.0;
    })
    .await;
    let proxy = "127.0.0.2";
    // The client's garbage, then the address HAProxy appended: that client is counted.
    for _ in 0..3 {
        let answer = games_from(proxy, s.addr, &["nonsense", "192.0.2.1"]).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let answer = games_from(proxy, s.addr, &["nonsense", "192.0.2.1"]).await;
    assert!(answer.contains("rate_limited"), "{answer}");
    // The proxy passed a client's header through unchanged: refused, counted against nobody.
    for xff in [&["nonsense"][..], &["192.0.2.1, nonsense"], &[""]] {
        for _ in 0..5 {
            let answer = games_from(proxy, s.addr, xff).await;
            assert!(answer.starts_with("HTTP/1.1 400"), "{xff:?}: {answer}");
            assert!(answer.contains("bad_forwarded_for"), "{answer}");
        }
    }
    // The proxy's own budget is whole, and so is another client's.
    for _ in 0..3 {
        let answer = games_from(proxy, s.addr, &[]).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let answer = games_from(proxy, s.addr, &["192.0.2.2"]).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// Issue 54: the load balancer's health checks are never rate-limited, whoever floods the
/// server from its address or any other.
#[tokio::test]
async fn health_checks_answer_200_under_a_flood() {
    let s = start_sqlite_with("health-flood", |c| {
        c.trusted_proxies = vec!["127.0.0.2/32".parse().unwrap()];
        c.http_per_second = 0.0;
        c.http_burst = 3.0;
    })
    .await;
    // The proxy's own requests, a client behind it and a direct client spend their budgets.
    for _ in 0..4 {
        games_from("127.0.0.2", s.addr, &[]).await;
        games_from("127.0.0.2", s.addr, &["192.0.2.1"]).await;
        games_from("127.0.0.3", s.addr, &[]).await;
    }
    for (from, xff) in [
        ("127.0.0.2", &[][..]),
        ("127.0.0.2", &["192.0.2.1"]),
        ("127.0.0.3", &[]),
    ] {
        let answer = games_from(from, s.addr, xff).await;
        assert!(answer.contains("rate_limited"), "{from} {xff:?}: {answer}");
    }
    // Health checks, as often as a balancer sends them, with or without a (bad) header.
    for _ in 0..20 {
        for (from, xff) in [
            ("127.0.0.2", ""),
            ("127.0.0.2", "X-Forwarded-For: nonsense\r\n"),
            ("127.0.0.3", ""),
        ] {
            let request =
                format!("GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{xff}\r\n");
            let answer = request_from(from, s.addr, &request).await;
            assert!(answer.starts_with("HTTP/1.1 200"), "{from} {xff}: {answer}");
        }
    }
}

/// Issue 54: every per-address limit counts an IPv6 client by its /64 (one customer's block),
/// here new guests through the proxy and the HTTP rate.
#[tokio::test]
async fn ipv6_clients_are_counted_by_their_64() {
    let s = start_sqlite_with("ipv6-64", |c| {
        c.trusted_proxies = vec!["127.0.0.2/32".parse().unwrap()];
        c.limits.guests_per_ip_per_hour = 1;
    })
    .await;
    let me = |xff: &str| {
        format!(
            "GET /api/me HTTP/1.1\r\nHost: test\r\nConnection: close\r\nX-Forwarded-For: {xff}\r\n\r\n"
        )
    };
    let answer = request_from("127.0.0.2", s.addr, &me("2001:db8:1:2::1")).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Another address of the same /64: the same client.
    let answer = request_from("127.0.0.2", s.addr, &me("2001:db8:1:2:abcd::7")).await;
    assert!(answer.contains("too_many_guests"), "{answer}");
    // The neighbouring /64: another client.
    let answer = request_from("127.0.0.2", s.addr, &me("2001:db8:1:3::1")).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    let s = start_sqlite_with("ipv6-64-rate", |c| {
        c.trusted_proxies = vec!["127.0.0.2/32".parse().unwrap()];
        c.http_per_second = 0.0;
        c.http_burst = 2.0;
    })
    .await;
    for host in ["2001:db8:9:9::1", "2001:db8:9:9::2"] {
        let answer = games_from("127.0.0.2", s.addr, &[host]).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let answer = games_from("127.0.0.2", s.addr, &["2001:db8:9:9::3"]).await;
    assert!(answer.contains("rate_limited"), "{answer}");
}
