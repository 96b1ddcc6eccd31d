//! `pyramidion serve`: the game server, on an embedded SQLite database by default.
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "PYRAMIDION_BIND")]
    pub bind: String,
    /// Database URL: `postgres://…` for PostgreSQL; default: SQLite in the data directory.
    #[arg(long, env = "PYRAMIDION_DATABASE")]
    pub database: Option<String>,
    /// Where the embedded SQLite database lives.
    #[arg(long, default_value = "data", env = "PYRAMIDION_DATA")]
    pub data_dir: PathBuf,
    /// Extra allowed browser origins for WebSockets (e.g. behind a proxy), comma separated.
    #[arg(long, value_delimiter = ',')]
    pub allow_origin: Vec<String>,
    /// HTTP requests per second allowed per client IP (burst: 4×).
    #[arg(long, default_value_t = 50.0)]
    pub http_rate: f64,
    /// Session cookies get `Secure` (set when clients reach the server over HTTPS; behind a
    /// proxy that sends `X-Forwarded-Proto: https` this is automatic).
    #[arg(long, env = "PYRAMIDION_SECURE_COOKIES")]
    pub secure_cookies: bool,
}

pub fn run(args: ServeArgs) -> Result<()> {
    // Logs on stderr: stdout carries the one "serving" line that scripts and tests read.
    tracing_subscriber::fmt()
        .with_target(false)
        .with_writer(std::io::stderr)
        .init();
    // Held until the process ends: a second server on this data directory refuses to start.
    let mut _lock = None;
    let url = match args.database {
        Some(url) => url,
        None => {
            std::fs::create_dir_all(&args.data_dir)
                .with_context(|| format!("cannot create {}", args.data_dir.display()))?;
            _lock = Some(pyramidion_server::lock_data_dir(&args.data_dir)?);
            format!(
                "sqlite://{}?mode=rwc",
                args.data_dir.join("pyramidion.db").display()
            )
        }
    };
    let mut config = pyramidion_server::Config::new(url.clone());
    config.allowed_origins = args.allow_origin;
    config.http_per_second = args.http_rate;
    config.http_burst = args.http_rate * 4.0;
    config.secure_cookies = args.secure_cookies;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        // Storage first: a missing, read-only or corrupt database ends the process at once,
        // before the port is taken or "serving" is said.
        let state = pyramidion_server::AppState::new(config)
            .await
            .with_context(|| format!("cannot open the storage at {url}"))?;
        let listener = tokio::net::TcpListener::bind(&args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr()?;
        println!("Pyramidion is serving on http://{addr}");
        pyramidion_server::serve_state(state, listener).await
    })
}
