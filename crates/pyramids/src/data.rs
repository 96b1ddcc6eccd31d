//! The 105 construction cards: colours, glyphs, stone geometry, and the data file.
//!
//! No public card list exists, so `data/cards.csv` is the project's reconstruction (see
//! [`generate_csv`] for how it is built and RULES.md ("Pyramids") for the stated distribution).
//! The file is read once, on first use, and everything else is derived from it: replace the
//! file (same format) and the engine follows.
//!
//! Geometry: a card is [`CARD_WIDTH`] = 6 units wide; its stones lie in one row across its lower
//! half, each stone an interval `x0..x1` of that strip (2 stones of width 3 or 3 of width 2 in
//! the shipped file).
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

/// Index of a card in the data file, `0..CARD_COUNT`.
pub type CardId = u8;

/// Number of construction cards.
pub const CARD_COUNT: usize = 105;
/// Width of a card's stone strip, in geometry units.
pub const CARD_WIDTH: u8 = 6;
/// Most stones a card may carry.
pub const MAX_STONES: usize = 3;

/// The five stone colours, in rulebook order.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Blue,
    White,
    Red,
    Green,
    Yellow,
}

impl Colour {
    pub const ALL: [Colour; 5] = [
        Colour::Blue,
        Colour::White,
        Colour::Red,
        Colour::Green,
        Colour::Yellow,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::White => "white",
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown colour '{s}'"))
    }
}

/// Serde for a count per colour held in [`Colour::ALL`] order (`[u8; 5]`): an object keyed by
/// colour name (`{"blue": 2, "white": 0, …}`), so that a client reads a colour's count by its
/// name and never by its place in the array. On a field:
/// `#[serde(with = "crate::data::per_colour")]`.
pub mod per_colour {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// The fields follow [`super::Colour::ALL`] (a test checks it).
    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct PerColour {
        blue: u8,
        white: u8,
        red: u8,
        green: u8,
        yellow: u8,
    }

    pub fn serialize<S: Serializer>(counts: &[u8; 5], s: S) -> Result<S::Ok, S::Error> {
        let [blue, white, red, green, yellow] = *counts;
        PerColour {
            blue,
            white,
            red,
            green,
            yellow,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 5], D::Error> {
        let c = PerColour::deserialize(d)?;
        Ok([c.blue, c.white, c.red, c.green, c.yellow])
    }

    #[cfg(test)]
    mod tests {
        use super::super::Colour;

        #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
        struct Counts(#[serde(with = "super")] [u8; 5]);

        /// Each count travels under the name of the colour at its index, and reads back.
        #[test]
        fn counts_travel_by_colour_name() {
            let counts = Counts([1, 2, 3, 4, 5]);
            let json = serde_json::to_value(&counts).unwrap();
            assert_eq!(json.as_object().unwrap().len(), 5);
            for c in Colour::ALL {
                assert_eq!(json[c.name()], counts.0[c.index()], "{c}");
            }
            assert_eq!(serde_json::from_value::<Counts>(json).unwrap(), counts);
        }
    }
}

/// A glyph printed on some cards: worth 2 points in the edifice it names.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[serde(rename_all = "snake_case")]
pub enum Glyph {
    Pyramid,
    Obelisk,
    Tomb,
}

impl Glyph {
    pub const ALL: [Glyph; 3] = [Glyph::Pyramid, Glyph::Obelisk, Glyph::Tomb];

    pub fn name(self) -> &'static str {
        match self {
            Glyph::Pyramid => "pyramid",
            Glyph::Obelisk => "obelisk",
            Glyph::Tomb => "tomb",
        }
    }
}

impl FromStr for Glyph {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Glyph::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("unknown glyph '{s}'"))
    }
}

/// One stone: a colour over the interval `x0..x1` of its card's strip.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
pub struct Stone {
    pub colour: Colour,
    pub x0: u8,
    pub x1: u8,
}

/// A construction card with the bit masks the engine derives from its stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub id: CardId,
    pub glyph: Option<Glyph>,
    /// Left to right, non-overlapping.
    pub stones: ArrayVec<Stone, MAX_STONES>,
    /// Per colour, the unit cells (bits `0..6`) its stones of that colour cover.
    pub(crate) cells: [u8; 5],
    /// Bit `x0` of every stone: one marker per stone, to count stones in a connected area.
    pub(crate) anchors: u8,
    /// Stones per colour.
    pub(crate) stone_counts: [u8; 5],
    /// The stones in the data file's syntax.
    stones_text: String,
    /// Bit `c` set when colour `c` appears on the card.
    pub(crate) presence: u8,
}

impl Card {
    pub fn stone_count(&self, colour: Colour) -> u8 {
        self.stone_counts[colour.index()]
    }

    pub fn has_colour(&self, colour: Colour) -> bool {
        self.presence & (1 << colour.index()) != 0
    }

    /// The stones as in the data file: `colour:x0-x1`, space-separated.
    pub fn stones_text(&self) -> &str {
        &self.stones_text
    }

    /// The stone colours left to right.
    pub fn colours(&self) -> impl Iterator<Item = Colour> + '_ {
        self.stones.iter().map(|s| s.colour)
    }
}

/// A data file that does not describe a valid card set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cards data, line {line}: {message}")]
pub struct CardDataError {
    pub line: usize,
    pub message: String,
}

/// Reads the card data format (see `data/cards.csv`): `#` comments, a header line
/// `id,glyph,stones`, then one card per line: its id (`0..105`, in order), its glyph (`-`,
/// `pyramid`, `obelisk` or `tomb`) and its stones, space-separated `colour:x0-x1`, left to right.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardDataError> {
    let mut cards = Vec::with_capacity(CARD_COUNT);
    let mut seen_header = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| CardDataError { line, message };
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if !seen_header {
            if content != "id,glyph,stones" {
                return Err(err(format!(
                    "expected the header 'id,glyph,stones', found '{content}'"
                )));
            }
            seen_header = true;
            continue;
        }
        let fields: Vec<&str> = content.split(',').map(str::trim).collect();
        let [id, glyph, stones] = fields[..] else {
            return Err(err(format!("expected 3 fields, found {}", fields.len())));
        };
        let id: usize = id.parse().map_err(|_| err(format!("bad id '{id}'")))?;
        if id != cards.len() || id >= CARD_COUNT {
            return Err(err(format!("expected card id {}, found {id}", cards.len())));
        }
        let glyph = match glyph {
            "-" => None,
            g => Some(g.parse::<Glyph>().map_err(err)?),
        };
        let mut card = Card {
            id: id as CardId,
            glyph,
            stones: ArrayVec::new(),
            cells: [0; 5],
            anchors: 0,
            stone_counts: [0; 5],
            presence: 0,
            stones_text: String::new(),
        };
        let mut right_edge = 0;
        for stone in stones.split_whitespace() {
            let parsed = (|| {
                let (colour, span) = stone.split_once(':')?;
                let (x0, x1) = span.split_once('-')?;
                Some((
                    colour.parse::<Colour>().ok()?,
                    x0.parse::<u8>().ok()?,
                    x1.parse::<u8>().ok()?,
                ))
            })();
            let Some((colour, x0, x1)) = parsed else {
                return Err(err(format!("bad stone '{stone}' (expected colour:x0-x1)")));
            };
            if x0 >= x1 || x1 > CARD_WIDTH || x0 < right_edge {
                return Err(err(format!(
                    "stone '{stone}' must lie within 0-{CARD_WIDTH}, left to right, without overlap"
                )));
            }
            if card.stones.is_full() {
                return Err(err(format!("more than {MAX_STONES} stones")));
            }
            right_edge = x1;
            card.stones.push(Stone { colour, x0, x1 });
            let c = colour.index();
            card.cells[c] |= ((1u16 << x1) - (1u16 << x0)) as u8;
            card.anchors |= 1 << x0;
            card.stone_counts[c] += 1;
            card.presence |= 1 << c;
        }
        if card.stones.is_empty() {
            return Err(err("a card needs at least one stone".into()));
        }
        card.stones_text = card
            .stones
            .iter()
            .map(|s| format!("{}:{}-{}", s.colour, s.x0, s.x1))
            .collect::<Vec<_>>()
            .join(" ");
        cards.push(card);
    }
    if cards.len() != CARD_COUNT {
        return Err(CardDataError {
            line: text.lines().count(),
            message: format!("expected {CARD_COUNT} cards, found {}", cards.len()),
        });
    }
    Ok(cards)
}

/// The shipped card data file.
pub const CARDS_CSV: &str = include_str!("../data/cards.csv");

static CARDS: LazyLock<Vec<Card>> =
    LazyLock::new(|| parse_cards(CARDS_CSV).unwrap_or_else(|e| panic!("data/cards.csv: {e}")));

/// All construction cards, indexed by id.
pub fn cards() -> &'static [Card] {
    &CARDS
}

/// The card with this id.
pub fn card(id: CardId) -> &'static Card {
    &CARDS[id as usize]
}

/// The generator of `data/cards.csv` (run `cargo run -p pyramidion-pyramids --example
/// generate_cards` to rewrite the file; a test checks that the file is its output).
///
/// It is constructive, so it needs no seed:
/// - **60 two-stone cards** (stones `0-3`, `3-6`): every ordered pair of two different colours,
///   three copies each (20 × 3).
/// - **45 three-stone cards** (stones `0-2`, `2-4`, `4-6`): the 60 ordered triples of three
///   different colours, minus the 15 "arithmetic" ones `(a, a+d, a+2d)` (colour indices mod 5)
///   with `d` = 1, 2 or 3. Each colour is then in every position of a three-stone card 9 times.
/// - **30 glyph cards**, all two-stone: for each of the 10 unordered colour pairs `{a, b}`
///   (a < b, numbered k = 0..9 in lexicographic order), copy 0 of `(a, b)` carries a Pyramid
///   glyph, copy 0 of `(b, a)` an Obelisk glyph, and copy 1 of `(a, b)` (k even) or `(b, a)`
///   (k odd) a Tomb glyph. So each glyph type is on 10 cards, and every colour is on 4 of them.
///
/// Totals: 255 stones, 51 per colour; each colour appears on 51 cards; no card repeats a
/// colour.
pub fn generate_csv() -> String {
    use std::fmt::Write as _;
    let colour = |i: usize| Colour::ALL[i].name();
    let mut out = String::new();
    out.push_str(HEADER);
    out.push_str("id,glyph,stones\n");
    let mut id = 0;
    let pair_index = |a: usize, b: usize| {
        let (lo, hi) = (a.min(b), a.max(b));
        (0..lo).map(|i| 4 - i).sum::<usize>() + (hi - lo - 1)
    };
    for a in 0..5 {
        for b in 0..5 {
            if a == b {
                continue;
            }
            for copy in 0..3 {
                let forward = a < b;
                let k = pair_index(a, b);
                let glyph = match copy {
                    0 if forward => "pyramid",
                    0 => "obelisk",
                    1 if forward == (k % 2 == 0) => "tomb",
                    _ => "-",
                };
                let _ = writeln!(out, "{id},{glyph},{}:0-3 {}:3-6", colour(a), colour(b));
                id += 1;
            }
        }
    }
    for a in 0..5 {
        for b in 0..5 {
            for c in 0..5 {
                if a == b || b == c || a == c {
                    continue;
                }
                let d = (b + 5 - a) % 5;
                if (1..=3).contains(&d) && (c + 5 - b) % 5 == d {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "{id},-,{}:0-2 {}:2-4 {}:4-6",
                    colour(a),
                    colour(b),
                    colour(c)
                );
                id += 1;
            }
        }
    }
    out
}

const HEADER: &str = "\
# Pyramids (IELLO): the 105 construction cards, as reconstructed by the Pyramidion project.
#
# No public card list exists. This file is generated by
# `cargo run -p pyramidion-pyramids --example generate_cards` (see `generate_csv` in
# src/cards.rs) and may be replaced by any file in the same format; the engine derives all
# geometry from it.
#
# Format: one card per line, `id,glyph,stones`.
# - id: 0..104, in order.
# - glyph: `-` (none), `pyramid`, `obelisk` or `tomb`.
# - stones: 1 to 3 stones, space-separated, left to right, each `colour:x0-x1`: a colour
#   (blue, white, red, green, yellow) over the interval x0..x1 of the card's 6-unit-wide
#   strip (the row of stones across the card's lower half).
#
# Distribution: 60 two-stone cards (stones 0-3 and 3-6: every ordered pair of different
# colours, 3 copies each) and 45 three-stone cards (stones 0-2, 2-4, 4-6: the ordered triples
# of different colours except the 15 (a, a+d, a+2d) mod 5 with d = 1, 2, 3). 255 stones, 51 per
# colour. 30 glyph cards, all two-stone, 10 per glyph type, each colour on 4 cards of each type.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_the_generator_output() {
        assert_eq!(CARDS_CSV, generate_csv(), "run the generate_cards example");
    }

    #[test]
    fn distribution_is_as_stated() {
        let cards = cards();
        assert_eq!(cards.len(), CARD_COUNT);
        let mut stones = [0u32; 5];
        let mut presence = [0u32; 5];
        let mut by_size = [0u32; 4];
        let mut glyphs = [[0u32; 5]; 3];
        let mut glyph_cards = [0u32; 3];
        for (i, c) in cards.iter().enumerate() {
            assert_eq!(c.id as usize, i);
            by_size[c.stones.len()] += 1;
            for col in Colour::ALL {
                stones[col.index()] += c.stone_count(col) as u32;
                presence[col.index()] += c.has_colour(col) as u32;
                assert!(c.stone_count(col) <= 1, "card {i} repeats {col}");
            }
            // Stones tile the strip: 2 of width 3 or 3 of width 2.
            let w = CARD_WIDTH / c.stones.len() as u8;
            for (k, s) in c.stones.iter().enumerate() {
                assert_eq!((s.x0, s.x1), (k as u8 * w, (k as u8 + 1) * w), "card {i}");
            }
            if let Some(g) = c.glyph {
                glyph_cards[g as usize] += 1;
                assert_eq!(c.stones.len(), 2, "glyph card {i} has two stones");
                for col in c.colours() {
                    glyphs[g as usize][col.index()] += 1;
                }
            }
        }
        assert_eq!(by_size, [0, 0, 60, 45]);
        assert_eq!(stones, [51; 5]);
        assert_eq!(presence, [51; 5]);
        assert_eq!(glyph_cards, [10; 3]);
        assert_eq!(glyphs, [[4; 5]; 3]);
        // No two cards are the same (stones and glyph) more than 3 times.
        let mut keys: Vec<_> = cards.iter().map(|c| (c.stones.clone(), c.glyph)).collect();
        keys.sort_by_key(|(s, g)| (s.iter().map(|s| (s.colour, s.x0)).collect::<Vec<_>>(), *g));
        for w in keys.windows(4) {
            assert!(!(w[0] == w[1] && w[1] == w[2] && w[2] == w[3]));
        }
    }

    #[test]
    fn derived_masks() {
        let c = cards()
            .iter()
            .find(|c| c.stones.len() == 3)
            .expect("a three-stone card");
        let first = c.stones[0].colour.index();
        assert_eq!(c.cells[first], 0b11);
        assert_eq!(c.anchors, 0b01_0101);
        let c = &cards()[0];
        assert_eq!(c.cells[c.stones[1].colour.index()], 0b111_000);
        assert_eq!(c.anchors, 0b1001);
    }

    #[test]
    fn bad_files_are_refused() {
        let good = "id,glyph,stones\n0,-,red:0-3 blue:3-6\n";
        let e = parse_cards(good).unwrap_err();
        assert!(e.message.contains("expected 105 cards"), "{e}");
        for (bad, what) in [
            ("id,glyph,stones\n1,-,red:0-3\n", "expected card id 0"),
            ("id,glyph,stones\n0,x,red:0-3\n", "unknown glyph"),
            ("id,glyph,stones\n0,-,pink:0-3\n", "bad stone"),
            ("id,glyph,stones\n0,-,red:0-4 blue:3-6\n", "without overlap"),
            ("id,glyph,stones\n0,-,red:0-7\n", "within 0-6"),
            ("id,glyph,stones\n0,-,\n", "at least one stone"),
            ("nope\n", "header"),
            ("id,glyph,stones\n0,-\n", "3 fields"),
        ] {
            let e = parse_cards(bad).unwrap_err();
            assert!(e.message.contains(what), "{bad:?}: {e}");
            assert_eq!(e.line, if bad == "nope\n" { 1 } else { 2 });
        }
    }
}
