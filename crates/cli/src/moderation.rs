//! `pyramidion moderation`: the chat messages players reported, for the server's operator.
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ModerationArgs {
    /// Database URL (as `serve --database`); default: SQLite in the data directory.
    #[arg(long, env = "PYRAMIDION_DATABASE")]
    pub database: Option<String>,
    /// Where the embedded SQLite database lives (as `serve --data-dir`).
    #[arg(long, default_value = "data", env = "PYRAMIDION_DATA")]
    pub data_dir: PathBuf,
    /// One JSON object a line instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ModerationArgs) -> Result<()> {
    // Read only: a running server keeps writing to the same database.
    let url = args.database.unwrap_or_else(|| {
        format!(
            "sqlite://{}?mode=ro",
            args.data_dir.join("pyramidion.db").display()
        )
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let reports = runtime.block_on(pyramidion_server::live::chat::reports_at(&url))?;
    if reports.is_empty() && !args.json {
        println!("no reported messages");
    }
    for r in reports {
        if args.json {
            println!("{}", serde_json::to_string(&r)?);
            continue;
        }
        let m = &r.message;
        let said = match (&m.text, &m.phrase) {
            (Some(text), _) => format!("{text:?}"),
            (None, Some(phrase)) => format!("[phrase {phrase}]"),
            (None, None) => String::new(),
        };
        println!(
            "reported {} by {}: game {} ({} channel, move {}), message {} from {} ({}): {said}",
            r.reported_at, r.reporter, m.game, m.channel, m.ply, m.id, m.name, m.user
        );
    }
    Ok(())
}
