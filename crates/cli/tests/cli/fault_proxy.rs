//! A fault-injecting TCP proxy for the fault tier (tests/cli/faults.rs), without root: it
//! stands on a loopback port between an instance and what it reaches (another instance's
//! advertised address, PostgreSQL), passes bytes both ways, and on command holds them (a
//! partition, both ways or one way, or a black-holed connection), delays them, or resets
//! every connection (dropped connections).
//!
//! Why not a crate: `noxious` (the Rust Toxiproxy) has had no release since 2021 and brings
//! tokio-util 0.6, rand 0.8 and mockall_double beside the workspace's own versions; its
//! toxics have no one-way hold and no reset of open connections, and its library API is
//! Toxiproxy's HTTP server's insides. Toxiproxy itself is not in Debian. `turmoil` simulates a
//! network inside one process, while these tests run real processes. What is needed is
//! tokio's copy loop with a switch in it: these hundred lines.
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does to the bytes it passes; the default passes them untouched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Bytes from the side that connected to the side it reached are held (not read, so the
    /// sender's buffers fill as behind a partition) until this is lifted.
    pub hold_up: bool,
    /// Bytes back, likewise.
    pub hold_down: bool,
    /// Each chunk of bytes waits this long before it is passed on.
    pub latency: Duration,
    /// Every open connection is reset (RST), and each new one at once.
    pub reset: bool,
}

impl Faults {
    /// Both ways held: a partition, or a black-holed connection. New connections are taken
    /// in by the kernel but reach nothing until the hold is lifted, as a SYN lost in a
    /// partition is sent again until it gets through.
    pub const HELD: Faults = Faults {
        hold_up: true,
        hold_down: true,
        latency: Duration::ZERO,
        reset: false,
    };

    fn held(&self, up: bool) -> bool {
        if up { self.hold_up } else { self.hold_down }
    }
}

/// A proxy listening on a loopback port and passing to `upstream`; it runs on a thread of
/// its own, so that a test blocked on a process (an instance starting through it) does not
/// stop it.
pub struct FaultProxy {
    pub addr: SocketAddr,
    control: watch::Sender<Faults>,
}

impl FaultProxy {
    pub fn start(upstream: SocketAddr) -> FaultProxy {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let (control, faults) = watch::channel(Faults::default());
        std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async move {
                    let listener = TcpListener::from_std(listener).unwrap();
                    // Ends when the proxy is dropped (its sender closes).
                    let mut closed = faults.clone();
                    loop {
                        tokio::select! {
                            accepted = listener.accept() => {
                                if let Ok((client, _)) = accepted {
                                    tokio::spawn(connection(client, upstream, faults.clone()));
                                }
                            }
                            changed = closed.changed() => if changed.is_err() { return },
                        }
                    }
                });
        });
        FaultProxy { addr, control }
    }

    pub fn set(&self, faults: Faults) {
        self.control.send_replace(faults);
    }

    /// Passes everything again; what was held goes on.
    pub fn heal(&self) {
        self.set(Faults::default());
    }
}

/// Resolves when `faults` says to reset (or the proxy is gone).
async fn reset_ordered(mut faults: watch::Receiver<Faults>) {
    while !faults.borrow_and_update().reset {
        if faults.changed().await.is_err() {
            return;
        }
    }
}

/// Waits while the direction (`up`, or back) is held; false when the proxy is gone.
async fn wait_unheld(faults: &mut watch::Receiver<Faults>, up: bool) -> bool {
    while faults.borrow_and_update().held(up) {
        if faults.changed().await.is_err() {
            return false;
        }
    }
    true
}

async fn connection(
    mut client: TcpStream,
    upstream: SocketAddr,
    mut faults: watch::Receiver<Faults>,
) {
    // Nothing reaches the other side while both ways are held: it is not even connected.
    let mut server = loop {
        let f = *faults.borrow_and_update();
        if f.reset {
            let _ = client.set_zero_linger();
            return;
        }
        if !(f.hold_up && f.hold_down) {
            match TcpStream::connect(upstream).await {
                Ok(s) => break s,
                Err(_) => {
                    // Refused upstream (an instance killed): the client sees the same.
                    let _ = client.set_zero_linger();
                    return;
                }
            }
        }
        if faults.changed().await.is_err() {
            return;
        }
    };
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let reset = {
        let (mut cr, mut cw) = client.split();
        let (mut sr, mut sw) = server.split();
        let both = async {
            tokio::join!(
                pump(&mut cr, &mut sw, true, faults.clone()),
                pump(&mut sr, &mut cw, false, faults.clone()),
            )
        };
        tokio::select! {
            _ = both => false,
            () = reset_ordered(faults.clone()) => true,
        }
    };
    if reset {
        // SO_LINGER 0: the close sends RST, as a dropped connection looks to both ends.
        let _ = (client.set_zero_linger(), server.set_zero_linger());
    }
}

/// Copies `from` to `to` until the end of the stream, under the faults of direction `up`.
async fn pump(
    from: &mut (impl AsyncRead + Unpin),
    to: &mut (impl AsyncWrite + Unpin),
    up: bool,
    mut faults: watch::Receiver<Faults>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        if !wait_unheld(&mut faults, up).await {
            return;
        }
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => {
                let _ = to.shutdown().await;
                return;
            }
            Ok(n) => n,
        };
        let latency = faults.borrow().latency;
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
        // A hold that began while these bytes were read keeps them too.
        if !wait_unheld(&mut faults, up).await || to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}
