//! Bot levels on the command line: ladder names (`random`, `greedy`, `easy`, `medium`, `hard`,
//! `max`) or search budgets (`search:5000`), as in `pyramidion_ai::any`.
use anyhow::{Result, bail};
use pyramidion_ai::any::BotLevel;
use pyramidion_core::Seed;

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

/// A seed per (game, seat) that does not collide across games.
pub fn bot_seed(game_seed: Seed, seat: usize) -> Seed {
    game_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (seat as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}
