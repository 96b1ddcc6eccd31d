//! Gems: five colours (also the block colours) and Mythical.
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[serde(rename_all = "lowercase")]
pub enum Gem {
    Orange,
    Blue,
    Purple,
    Green,
    Red,
    Mythical,
}

pub const COLOURS: usize = 5;
pub const GEM_KINDS: usize = 6;

/// A block's colour by name, as views send it. The rules count colours as indices 0–4 (a
/// block's `colour`, THE Legend's wishes), in this order, which is also [`Gem::ALL`]'s; a
/// view names them so that no client depends on the order.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Orange,
    Blue,
    Purple,
    Green,
    Red,
}

impl Colour {
    pub const ALL: [Colour; COLOURS] = [
        Colour::Orange,
        Colour::Blue,
        Colour::Purple,
        Colour::Green,
        Colour::Red,
    ];

    /// The colour of index `c` (0–4: every block of the domino set, as `data.rs` reads it).
    pub fn of_index(c: u8) -> Colour {
        Colour::ALL[c as usize]
    }
}
/// Gems in the box: 9 per colour and 18 Mythical.
pub const GEMS_PER_COLOUR: u8 = 9;
pub const MYTHICAL_GEMS: u8 = 18;

impl Gem {
    pub const ALL: [Gem; GEM_KINDS] = [
        Gem::Orange,
        Gem::Blue,
        Gem::Purple,
        Gem::Green,
        Gem::Red,
        Gem::Mythical,
    ];
    pub const NAMES: [&'static str; GEM_KINDS] =
        ["orange", "blue", "purple", "green", "red", "mythical"];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Gem {
        Gem::ALL[i]
    }

    /// The gem matching a block colour index (0–4).
    pub fn colour(c: u8) -> Gem {
        Gem::ALL[c as usize]
    }

    pub fn name(self) -> &'static str {
        Gem::NAMES[self as usize]
    }
}

impl fmt::Display for Gem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Gem {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Gem::NAMES
            .iter()
            .position(|n| *n == s)
            .map(Gem::from_index)
            .ok_or_else(|| {
                format!("unknown gem '{s}' (orange, blue, purple, green, red, mythical)")
            })
    }
}

/// A multiset of gems (the bag has no order: a draw picks uniformly among its gems). It
/// travels as [`GemCounts`], an object keyed by gem name.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[ts(as = "GemCounts")]
#[serde(from = "GemCounts", into = "GemCounts")]
pub struct Gems(pub [u8; GEM_KINDS]);

/// Gems as JSON carries them: a count per gem kind under its name
/// (`{"orange": 1, "blue": 0, …, "mythical": 2}`), so that a client reads a count by name and
/// never by its place in [`Gem::ALL`].
#[derive(Copy, Clone, Debug, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct GemCounts {
    pub orange: u8,
    pub blue: u8,
    pub purple: u8,
    pub green: u8,
    pub red: u8,
    pub mythical: u8,
}

impl From<Gems> for GemCounts {
    fn from(Gems([orange, blue, purple, green, red, mythical]): Gems) -> GemCounts {
        GemCounts {
            orange,
            blue,
            purple,
            green,
            red,
            mythical,
        }
    }
}

impl From<GemCounts> for Gems {
    fn from(g: GemCounts) -> Gems {
        Gems([g.orange, g.blue, g.purple, g.green, g.red, g.mythical])
    }
}

impl Gems {
    pub fn full_supply() -> Gems {
        let mut g = [GEMS_PER_COLOUR; GEM_KINDS];
        g[Gem::Mythical.index()] = MYTHICAL_GEMS;
        Gems(g)
    }

    #[inline]
    pub fn get(&self, gem: Gem) -> u8 {
        self.0[gem.index()]
    }

    #[inline]
    pub fn add(&mut self, gem: Gem, n: u8) {
        self.0[gem.index()] += n;
    }

    #[inline]
    pub fn remove(&mut self, gem: Gem, n: u8) {
        self.0[gem.index()] -= n;
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; GEM_KINDS]
    }

    pub fn mythical(&self) -> u8 {
        self.get(Gem::Mythical)
    }

    pub fn coloured(&self) -> u32 {
        self.total() - self.mythical() as u32
    }

    pub fn add_all(&mut self, other: &Gems) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }

    pub fn take_all(&mut self) -> Gems {
        std::mem::take(self)
    }

    /// The kinds present as a mask: bit `i` for `Gem::ALL[i]` (same order as [`Gems::kinds`]).
    /// Move picking asks this of every gem area on every turn, so all six counts are tested at
    /// once: adding 127 to a count sets its byte's high bit exactly when it is not zero (no
    /// count comes near 128), and one multiply gathers those bits (bit 8i goes to bit 40 + i;
    /// its terms never collide, so nothing carries).
    #[inline]
    pub fn kinds_mask(&self) -> u8 {
        const GATHER: u64 = 1 << 40 | 1 << 33 | 1 << 26 | 1 << 19 | 1 << 12 | 1 << 5;
        let [a, b, c, d, e, f] = self.0;
        let counts = u64::from_le_bytes([a, b, c, d, e, f, 0, 0]);
        let present = ((counts + 0x7f7f_7f7f_7f7f) & 0x8080_8080_8080) >> 7;
        (present.wrapping_mul(GATHER) >> 40) as u8 & 0x3f
    }

    pub fn kinds(&self) -> impl Iterator<Item = Gem> + '_ {
        Gem::ALL.into_iter().filter(|g| self.get(*g) > 0)
    }
}

impl std::ops::Add for Gems {
    type Output = Gems;
    fn add(mut self, rhs: Gems) -> Gems {
        self.add_all(&rhs);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_masks_match_the_kinds() {
        let mut rng = pyramidion_core::GameRng::from_seed(6);
        for _ in 0..2000 {
            let mut g = Gems::default();
            for gem in Gem::ALL {
                if rng.below(2) == 1 {
                    g.add(gem, rng.below(20) as u8);
                }
            }
            let kinds: Vec<Gem> = g.kinds().collect();
            let from_mask: Vec<Gem> = (0..GEM_KINDS)
                .filter(|i| g.kinds_mask() >> i & 1 == 1)
                .map(Gem::from_index)
                .collect();
            assert_eq!(from_mask, kinds, "{g:?}");
        }
        let full = Gems([GEMS_PER_COLOUR * 7, 63, 63, 63, 63, MYTHICAL_GEMS * 3]);
        assert_eq!(full.kinds_mask(), 0x3f);
    }

    /// Each count travels under its gem's name (the names of `Gem`'s serde form, in
    /// `Gem::ALL` order), and reads back as it was.
    #[test]
    fn gems_travel_as_counts_by_name() {
        let gems = Gems([1, 2, 3, 4, 5, 6]);
        let json = serde_json::to_value(gems).unwrap();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        let names: Vec<String> = Gem::ALL
            .iter()
            .map(|g| {
                serde_json::to_value(g)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(keys.len(), GEM_KINDS);
        for (i, name) in names.iter().enumerate() {
            assert_eq!(json[name], gems.0[i], "{name}");
        }
        assert_eq!(serde_json::from_value::<Gems>(json).unwrap(), gems);
    }

    /// Colours are named as the gems of their index are, since a block's colour index is
    /// also its gem's (`Gem::colour`).
    #[test]
    fn colours_are_named_as_their_gems() {
        for (c, colour) in Colour::ALL.into_iter().enumerate() {
            assert_eq!(Colour::of_index(c as u8), colour);
            assert_eq!(
                serde_json::to_value(colour).unwrap(),
                serde_json::to_value(Gem::colour(c as u8)).unwrap()
            );
        }
    }
}
