//! Bot levels on the command line: ladder names (`random`, `greedy`, `easy`, `medium`, `hard`,
//! `max`) or search budgets (`search:5000`), as in `pyramidion_ai::level`.
use anyhow::{Result, bail};
use pyramidion_ai::level::BotLevel;

/// `greedy,max` for `seats` seats; a single name applies to every seat.
pub fn parse_bots(list: &str, seats: usize) -> Result<Vec<BotLevel>> {
    let kinds = list
        .split(',')
        .map(|name| Ok(name.trim().parse::<BotLevel>()?))
        .collect::<Result<Vec<_>>>()?;
    match kinds.len() {
        1 => Ok(vec![kinds[0]; seats]),
        n if n == seats => Ok(kinds),
        n => bail!("{n} bots given for {seats} seats"),
    }
}
