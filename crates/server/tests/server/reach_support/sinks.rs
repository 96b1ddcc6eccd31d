//! What the reach tests stand up on loopback: a push service endpoint (an HTTP server that
//! keeps every POST) and an SMTP sink (a server speaking just enough SMTP to take mails).
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// One POST to the push endpoint.
pub struct Pushed {
    /// The path's last segment (which subscription it was for).
    pub device: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

/// A push service on loopback: `POST /push/{device}` is kept and answered `201`, except
/// devices named `gone-…`, answered `410 Gone` (a subscription the browser dropped), and
/// `once-…`, answered `201` the first time and `410` after (one dropped after it worked).
pub async fn push_endpoint() -> (String, mpsc::UnboundedReceiver<Pushed>) {
    type Seen = Arc<Mutex<HashSet<String>>>;
    let (tx, rx) = mpsc::unbounded_channel();
    async fn take(
        State((tx, seen)): State<(mpsc::UnboundedSender<Pushed>, Seen)>,
        Path(device): Path<String>,
        headers: HeaderMap,
        body: Bytes,
    ) -> StatusCode {
        let first = seen.lock().unwrap().insert(device.clone());
        let gone = device.starts_with("gone-") || (device.starts_with("once-") && !first);
        let _ = tx.send(Pushed {
            device,
            headers,
            body: body.to_vec(),
        });
        if gone {
            StatusCode::GONE
        } else {
            StatusCode::CREATED
        }
    }
    let app = axum::Router::new()
        .route("/push/{device}", axum::routing::post(take))
        .with_state((tx, Seen::default()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, rx)
}

/// One mail the sink took: its envelope recipients and its data (headers and body).
pub struct Mail {
    pub to: Vec<String>,
    pub data: String,
}

/// An SMTP sink on loopback: `smtp://127.0.0.1:PORT`. It accepts every mail.
pub async fn smtp_sink() -> (String, mpsc::UnboundedReceiver<Mail>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let _ = session(socket, tx).await;
            });
        }
    });
    (url, rx)
}

async fn session(
    socket: tokio::net::TcpStream,
    tx: mpsc::UnboundedSender<Mail>,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 sink ESMTP\r\n").await?;
    let mut to = Vec::new();
    loop {
        let mut line = String::new();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_ascii_uppercase();
        let reply: &[u8] = if command.starts_with("EHLO") {
            b"250-sink\r\n250 8BITMIME\r\n"
        } else if command.starts_with("HELO")
            || command.starts_with("MAIL FROM")
            || command.starts_with("RSET")
            || command.starts_with("NOOP")
        {
            b"250 OK\r\n"
        } else if command.starts_with("RCPT TO") {
            to.push(line.trim_end()[8..].trim().to_string());
            b"250 OK\r\n"
        } else if command == "DATA" {
            write.write_all(b"354 go on\r\n").await?;
            let mut data = String::new();
            loop {
                let mut l = String::new();
                if lines.read_line(&mut l).await? == 0 {
                    return Ok(());
                }
                if l == ".\r\n" || l == ".\n" {
                    break;
                }
                // Dot-stuffing (RFC 5321 4.5.2).
                data.push_str(l.strip_prefix('.').unwrap_or(&l));
            }
            let _ = tx.send(Mail {
                to: std::mem::take(&mut to),
                data,
            });
            b"250 taken\r\n"
        } else if command == "QUIT" {
            write.write_all(b"221 bye\r\n").await?;
            return Ok(());
        } else {
            b"502 not here\r\n"
        };
        write.write_all(reply).await?;
    }
}
