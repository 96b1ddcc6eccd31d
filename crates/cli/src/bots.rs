//! Bot names on the command line.
use anyhow::{Result, bail};
use pyramidion_ai::{Bot, Greedy, RandomBot};
use pyramidion_core::{Rules, Seed};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Greedy,
}

impl BotKind {
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
        }
    }

    pub fn make<G: Rules>(self, seed: Seed) -> Box<dyn Bot<G>>
    where
        Greedy: Bot<G>,
    {
        match self {
            BotKind::Random => Box::new(RandomBot::<G::Move>::new(seed)),
            BotKind::Greedy => Box::new(Greedy::new(seed)),
        }
    }
}

/// `greedy,random` for `seats` seats; a single name applies to every seat.
pub fn parse_bots(list: &str, seats: usize) -> Result<Vec<BotKind>> {
    let kinds = list
        .split(',')
        .map(|name| match name.trim() {
            "random" => Ok(BotKind::Random),
            "greedy" => Ok(BotKind::Greedy),
            other => bail!("unknown bot '{other}' (random, greedy)"),
        })
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
