//! `pyramidion replay FILE`: verify a record move by move and print the final result.
use anyhow::{Context, Result};
use clap::Args;
use pyramidion_core::Rules;
use pyramidion_core::record::Record;
use pyramidion_games::{GameKind, dispatch};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Record file, text or JSON form (`-` for standard input).
    pub file: PathBuf,
}

pub fn read_record(path: &PathBuf) -> Result<Record> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    Record::parse(&text).with_context(|| format!("{}", path.display()))
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let record = read_record(&args.file)?;
    let kind: GameKind = record.game.parse()?;
    dispatch!(kind, G => {
        let game: G = record.replay().with_context(|| format!("{}", args.file.display()))?;
        outln!("{}: {} moves verified", record.game, record.moves.len())?;
        match game.outcome() {
            Some(o) => {
                for (s, (score, rank)) in o.scores.iter().zip(&o.ranks).enumerate() {
                    outln!("seat {s}: {score} points, rank {}", rank + 1)?;
                }
                if let Some(a) = o.automa {
                    outln!("automa: {a} points")?;
                }
            }
            None => outln!("game not finished: {:?} to move", game.to_move())?,
        }
        Ok(())
    })
}
