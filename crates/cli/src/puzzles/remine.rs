//! `pyramidion puzzles --remine FILE`: judges a puzzle file's positions again by this build's
//! miner (both runs, its seeds, its rule) and writes the lines it still keeps, as the mining
//! command would write them today: the shipped sets re-checked after the rule changed
//! (docs/puzzles.md). A line's source names its bot game (`bot:<seed>`): the game is played
//! again with `--bots` to find the move played there, which joins the judge's candidates as
//! it did when the line was mined.
use super::{PuzzleLine, PuzzlesArgs, prefix};
use crate::bots::parse_bots;
use crate::sim::play_game;
use anyhow::{Context, Result, bail};
use pyramidion_ai::puzzle::PuzzleConfig;
use pyramidion_core::Rules;
use pyramidion_core::record::Record;
use pyramidion_games::dispatch;
use rayon::prelude::*;
use std::io::Write as _;
use std::time::Instant;

/// One line of the file: its game, options, bot seed and position (the record up to it).
struct Line {
    game: String,
    options: serde_json::Value,
    seed: u64,
    record: Record,
}

pub fn remine(args: &PuzzlesArgs, path: &std::path::Path) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p: serde_json::Value = serde_json::from_str(line)?;
        let source = p["source"].as_str().unwrap_or_default();
        let Some(seed) = source.strip_prefix("bot:").and_then(|s| s.parse().ok()) else {
            bail!("{source:?}: only lines mined from bot games (bot:<seed>) can be mined again");
        };
        lines.push(Line {
            game: p["game"].as_str().unwrap_or_default().to_string(),
            options: p["options"].clone(),
            seed,
            record: serde_json::from_value(p["record"].clone())?,
        });
    }
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build()?;
    let kept: Vec<Option<String>> = pool.install(|| {
        lines
            .par_iter()
            .map(|line| {
                let kind: pyramidion_games::GameKind =
                    line.game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
                dispatch!(kind, G => remine_line::<G>(args, line))
            })
            .collect::<Result<Vec<_>>>()
    })?;
    let mut out = super::output(args)?;
    for l in kept.iter().flatten() {
        writeln!(out, "{l}")?;
    }
    out.flush()?;
    let yes = kept.iter().filter(|k| k.is_some()).count();
    eprintln!(
        "{yes} of {} puzzles kept by this build's miner; {:.0} s",
        kept.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The line as the miner writes it today, or `None` where it keeps no puzzle there.
fn remine_line<G: Rules>(args: &PuzzlesArgs, line: &Line) -> Result<Option<String>> {
    let options: G::Options =
        serde_json::from_value(line.options.clone()).context("options do not fit the game")?;
    let players = line.options["players"].as_u64().unwrap_or(2) as usize;
    let bots = parse_bots(&args.bots, players)?;
    let mut full = Record::new(G::DESCRIPTOR.key, &options, line.seed);
    play_game::<G>(&options, line.seed, &bots, Some(&mut full))?;
    let ply = line.record.moves.len();
    if full.moves.get(..ply) != Some(&line.record.moves[..]) {
        bail!(
            "bot:{} after {ply} moves: the bots ({}) do not play that game again",
            line.seed,
            args.bots
        );
    }
    let config = PuzzleConfig {
        budget: args
            .budget
            .unwrap_or_else(|| PuzzleConfig::judge(G::DESCRIPTOR, args.judge_seed).budget),
        seed: args.judge_seed,
    };
    let mut dropped = 0;
    let mined = pyramidion_games::analysis::mine_plies(&full, config, ply..ply + 1, &mut dropped)
        .map_err(|e| anyhow::anyhow!("bot:{}: {e}", line.seed))?;
    eprintln!(
        "{} bot:{} after {ply} moves: {}",
        line.game,
        line.seed,
        if mined.is_empty() { "dropped" } else { "kept" }
    );
    let Some(m) = mined.first() else {
        return Ok(None);
    };
    Ok(Some(serde_json::to_string(&PuzzleLine {
        game: G::DESCRIPTOR.key,
        options: &line.options,
        source: format!("bot:{}", line.seed),
        record: prefix(&full, m.ply),
        mined: m,
    })?))
}
