//! Components: colours, the 90 real dominoes (from `data/dominoes.csv`), resurfacing cards.
use pyramidion_pyramid::placement::{format_quadrants, parse_quadrants};
use pyramidion_pyramid::{Block, Quadrants};
use std::sync::OnceLock;

/// Colour indices, in the order of the rulebook's distribution table.
pub const BROWN: u8 = 0;
pub const BLUE: u8 = 1;
pub const YELLOW: u8 = 2;
pub const TURQUOISE: u8 = 3;
pub const RED: u8 = 4;
pub const GREEN: u8 = 5;
pub const COLOURS: usize = 6;
pub const COLOUR_NAMES: [&str; COLOURS] = ["brown", "blue", "yellow", "turquoise", "red", "green"];

pub const DOMINO_COUNT: usize = 90;

/// Resurfacing cards: card `k` is double-sided with colours `2k` and `2k + 1`
/// (brown/blue, yellow/turquoise, red/green). Each side is one block with one jewel.
pub const CARDS: usize = 3;
/// Each card by its two sides' colours (views and move forms name a card so, never as text to
/// split).
pub const CARD_SIDES: [[&str; 2]; CARDS] = [
    [COLOUR_NAMES[0], COLOUR_NAMES[1]],
    [COLOUR_NAMES[2], COLOUR_NAMES[3]],
    [COLOUR_NAMES[4], COLOUR_NAMES[5]],
];

/// The card that has a side of `colour`.
#[inline]
pub fn card_of(colour: u8) -> usize {
    colour as usize / 2
}

pub fn colour_name(colour: u8) -> &'static str {
    COLOUR_NAMES.get(colour as usize).copied().unwrap_or("?")
}

pub fn parse_colour(text: &str) -> Option<u8> {
    COLOUR_NAMES
        .iter()
        .position(|c| *c == text)
        .map(|c| c as u8)
}

/// One tile: block A (west) and block B (east) in canonical orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Domino {
    pub id: u8,
    pub blocks: [Block; 2],
}

pub const DOMINO_CSV: &str = include_str!("../data/dominoes.csv");

/// The 90 dominoes, parsed once from the shipped data file.
pub fn dominoes() -> &'static [Domino; DOMINO_COUNT] {
    static TABLE: OnceLock<[Domino; DOMINO_COUNT]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let list = parse_dominoes(DOMINO_CSV).expect("data/dominoes.csv is valid");
        list.try_into().expect("data/dominoes.csv has 90 dominoes")
    })
}

/// Reads the domino format: `id,colour_a,jewels_a,colour_b,jewels_b`, `#` comment lines, one
/// header line. Ids must be 0, 1, 2… in order.
pub fn parse_dominoes(text: &str) -> Result<Vec<Domino>, String> {
    let mut out = Vec::new();
    let mut header = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |msg: String| format!("line {}: {msg}", i + 1);
        if !header {
            if line != "id,colour_a,jewels_a,colour_b,jewels_b" {
                return Err(at(format!("unexpected header '{line}'")));
            }
            header = true;
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [id, ca, ja, cb, jb] = fields[..] else {
            return Err(at(format!("expected 5 fields, found {}", fields.len())));
        };
        let id: u8 = id.parse().map_err(|_| at(format!("bad id '{id}'")))?;
        if id as usize != out.len() {
            return Err(at(format!("id {id} out of order")));
        }
        let block = |c: &str, j: &str| -> Result<Block, String> {
            let colour = parse_colour(c).ok_or_else(|| at(format!("unknown colour '{c}'")))?;
            let icons: Quadrants = parse_quadrants(j).map_err(at)?;
            Ok(Block { colour, icons })
        };
        let blocks = [block(ca, ja)?, block(cb, jb)?];
        if blocks[0].icon_count() + blocks[1].icon_count() != 2 {
            return Err(at("a domino has exactly 2 jewels".into()));
        }
        out.push(Domino { id, blocks });
    }
    Ok(out)
}

/// `brown sw` style text of a block (colour, then its jewel quadrants).
pub fn block_text(b: Block) -> String {
    let q = format_quadrants(b.icons);
    if q.is_empty() {
        colour_name(b.colour).to_string()
    } else {
        format!("{} {q}", colour_name(b.colour))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn totals_match_the_rulebook_distribution_table() {
        let mut blocks = [0u32; COLOURS];
        let mut jewels = [0u32; COLOURS];
        for d in dominoes() {
            for b in d.blocks {
                blocks[b.colour as usize] += 1;
                jewels[b.colour as usize] += b.icon_count();
            }
        }
        assert_eq!(blocks, [37, 34, 31, 29, 26, 23]);
        assert_eq!(jewels, [24, 28, 29, 31, 32, 36]);
        assert_eq!(blocks.iter().sum::<u32>(), 180);
        assert_eq!(jewels.iter().sum::<u32>(), 180);
    }

    #[test]
    fn dominoes_are_unique_up_to_rotation() {
        let mut seen = HashSet::new();
        for d in dominoes() {
            let [a, b] = d.blocks;
            let turned = (b.rotated(2), a.rotated(2));
            assert!(seen.insert((a, b)), "duplicate {}", d.id);
            assert!(
                !seen.contains(&turned) || turned == (a, b),
                "rotated duplicate {}",
                d.id
            );
        }
    }

    #[test]
    fn data_file_matches_the_shared_list_format() {
        assert_eq!(
            dominoes()[0].blocks,
            [
                Block {
                    colour: BROWN,
                    icons: 4
                },
                Block {
                    colour: BROWN,
                    icons: 2
                }
            ]
        );
        assert_eq!(block_text(dominoes()[89].blocks[1]), "turquoise sw");
        assert_eq!(block_text(dominoes()[2].blocks[1]), "brown");
        assert!(
            parse_dominoes("id,colour_a,jewels_a,colour_b,jewels_b\n0,pink,nw,red,ne\n").is_err()
        );
        assert!(
            parse_dominoes("id,colour_a,jewels_a,colour_b,jewels_b\n0,red,nw ne,red,ne\n").is_err()
        );
        assert!(
            parse_dominoes("id,colour_a,jewels_a,colour_b,jewels_b\n1,red,nw,red,ne\n").is_err()
        );
    }

    #[test]
    fn cards_pair_adjacent_colours() {
        assert_eq!((card_of(BROWN), card_of(BLUE)), (0, 0));
        assert_eq!((card_of(YELLOW), card_of(TURQUOISE)), (1, 1));
        assert_eq!((card_of(RED), card_of(GREEN)), (2, 2));
    }
}
