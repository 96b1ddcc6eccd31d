//! `pyramidion perft`: legal move counts at a position given by a record prefix.
use crate::game_args::GameChoice;
use crate::replay::read_record;
use anyhow::Result;
use clap::Args;
use pyramidion_core::record::Record;
use pyramidion_core::rules::perft;
use pyramidion_core::{Rules, Seed};
use pyramidion_games::{GameKind, dispatch};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Record whose prefix gives the position (default: a new game from the flags below).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Play only this many moves of the record.
    #[arg(long)]
    pub moves: Option<usize>,
    /// Count move sequences up to this depth.
    #[arg(long, default_value_t = 1)]
    pub depth: u32,
    #[command(flatten)]
    pub choice: GameChoice,
    #[arg(long, default_value_t = 1)]
    pub seed: Seed,
}

pub fn run(args: PerftArgs) -> Result<()> {
    let record = match &args.record {
        Some(path) => read_record(path)?,
        None => Record {
            game: args.choice.game.key().to_string(),
            options: args.choice.options_json()?,
            seed: args.seed,
            result: None,
            moves: Vec::new(),
            move_lines: Vec::new(),
        },
    };
    let kind: GameKind = record.game.parse()?;
    dispatch!(kind, G => {
        let game: G = record.replay_prefix(args.moves)?;
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let to_move = match game.to_move() {
            pyramidion_core::ToMove::Seat(s) => format!("{s} to move"),
            pyramidion_core::ToMove::Over => "game over".to_string(),
        };
        outln!("position: {} after {} moves, {to_move}", record.game, game.ply())?;
        let shown: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
        outln!("legal moves ({}): {}", legal.len(), shown.join(", "))?;
        for depth in 1..=args.depth {
            outln!("perft {depth}: {}", perft(&game, depth))?;
        }
        Ok(())
    })
}
