//! `pyramidion ladder`: each level of a game's bot ladder plays the level below it in a paired
//! match (the `arena`'s), and the command reports every step: the Elo difference with its 95%
//! interval, the time per move of the upper level, and whether the step holds.
//!
//! A step holds when the upper level is at least [`STEP_ELO`] Elo above the lower one and the
//! 95% interval of that difference lies above zero: the two levels' ratings, each interval
//! measured from the level below, do not overlap. Adjacent levels play each other directly
//! because that is the comparison the ladder promises (a player who beats `medium` should find
//! `hard` harder); ratings over `random` are the sums of the steps.
use crate::arena::{MatchSpec, Report, play_match, report};
use anyhow::{Context, Result, bail};
use clap::Args;
use pyramidion_ai::level::BotLevel;
use pyramidion_core::Seed;
use pyramidion_games::GameKind;
use serde::Serialize;

/// The least Elo a level must be above the one below.
pub const STEP_ELO: f64 = 100.0;

#[derive(Args, Debug)]
pub struct LadderArgs {
    /// The game (a registered key, listed by `--help`).
    #[arg(long, value_parser = crate::game_args::game_parser(), default_value_t = GameKind::ALL[0])]
    pub game: GameKind,
    /// Number of players: the upper level takes one seat, the lower level every other.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Pairs per step (games are pairs × players).
    #[arg(long, default_value_t = 50)]
    pub pairs: u64,
    /// The levels to climb, weakest first, `a,b,c` (default: every level the game lists).
    /// A part of the ladder can run on its own, e.g. in another process.
    #[arg(long)]
    pub levels: Option<String>,
    /// Seed of the first pair of every step; pair i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: Seed,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also write the result as JSON into this file.
    #[arg(long)]
    pub json: Option<std::path::PathBuf>,
}

/// One step: `upper` against the level below it.
#[derive(Serialize)]
struct Step {
    lower: String,
    upper: String,
    /// Search iterations per decision of the upper level (none for random and greedy).
    upper_iterations: Option<u32>,
    holds: bool,
    /// The whole match, as `arena --json` writes it (bot 0 is the upper level).
    #[serde(rename = "match")]
    result: Report,
}

#[derive(Serialize)]
struct LadderReport {
    game: GameKind,
    players: u8,
    pairs_per_step: u64,
    seed: Seed,
    step_elo: f64,
    steps: Vec<Step>,
    /// Whether every step holds.
    holds: bool,
}

/// The levels to climb: `--levels`, or every ladder name the game's descriptor lists.
fn levels(args: &LadderArgs) -> Result<Vec<BotLevel>> {
    let descriptor = args.game.descriptor();
    let names: Vec<String> = match &args.levels {
        Some(list) => list.split(',').map(|n| n.trim().to_string()).collect(),
        None => BotLevel::names()
            .into_iter()
            .filter(|n| descriptor.bot_level(n).is_some())
            .map(str::to_string)
            .collect(),
    };
    let levels = names
        .iter()
        .map(|n| n.parse::<BotLevel>().map_err(anyhow::Error::from))
        .collect::<Result<Vec<_>>>()?;
    if levels.len() < 2 {
        bail!("a ladder needs at least two levels");
    }
    Ok(levels)
}

fn elo_text(x: f64) -> String {
    if x.is_infinite() || x.abs() > 2000.0 {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.0}")
    }
}

/// Elo of a score, infinite at 0 and 1 (a one-sided match).
fn elo_of(score: f64, elo: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        elo
    }
}

pub fn run(args: LadderArgs) -> Result<()> {
    if args.pairs == 0 {
        bail!("--pairs must be at least 1");
    }
    if args.players < 2 {
        bail!("a ladder needs at least 2 players");
    }
    let levels = levels(&args)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let descriptor = args.game.descriptor();
    outln!(
        "{} {} players: {} pairs ({} games) per step, seeds {}..={}",
        args.game,
        args.players,
        args.pairs,
        args.pairs * u64::from(args.players),
        args.seed,
        args.seed + args.pairs - 1
    )?;
    outln!(
        "{:<22}{:>10}{:>22}{:>12}{:>12}{:>8}",
        "step",
        "Elo",
        "95% interval",
        "ms/move",
        "slowest ms",
        "holds"
    )?;
    let mut steps = Vec::new();
    for pair in levels.windows(2) {
        let (lower, upper) = (pair[0], pair[1]);
        let spec = MatchSpec {
            game: args.game,
            players: args.players,
            bots: [upper, lower],
            pairs: args.pairs,
            seed: args.seed,
            sprt: None,
            threads,
        };
        let pairs = play_match(&spec, None)?;
        let result = report(&spec, &pairs);
        let e = &result.a_over_b;
        let (elo, low, high) = (
            elo_of(e.score, e.elo),
            elo_of(e.score_low, e.elo_low),
            elo_of(e.score_high, e.elo_high),
        );
        let holds = elo >= STEP_ELO && low > 0.0;
        outln!(
            "{:<22}{:>10}{:>22}{:>12.1}{:>12.0}{:>8}",
            format!("{} > {}", upper.name(), lower.name()),
            elo_text(elo),
            format!("{} to {}", elo_text(low), elo_text(high)),
            result.bots[0].ms_per_move,
            result.bots[0].slowest_ms,
            if holds { "yes" } else { "no" }
        )?;
        steps.push(Step {
            lower: lower.name().into_owned(),
            upper: upper.name().into_owned(),
            upper_iterations: upper.iterations(descriptor),
            holds,
            result,
        });
    }
    let holds = steps.iter().all(|s| s.holds);
    outln!(
        "every level at least {STEP_ELO} Elo above the one below, interval above 0: {}",
        if holds { "yes" } else { "no" }
    )?;
    if let Some(path) = &args.json {
        let report = LadderReport {
            game: args.game,
            players: args.players,
            pairs_per_step: args.pairs,
            seed: args.seed,
            step_elo: STEP_ELO,
            steps,
            holds,
        };
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_sided_step_is_infinite_and_a_tie_is_zero() {
        assert_eq!(elo_of(1.0, 800.0), f64::INFINITY);
        assert_eq!(elo_of(0.0, -800.0), f64::NEG_INFINITY);
        assert_eq!(elo_text(f64::INFINITY), "+inf");
        assert_eq!(elo_text(0.0), "+0");
        assert_eq!(elo_text(-150.4), "-150");
    }
}
