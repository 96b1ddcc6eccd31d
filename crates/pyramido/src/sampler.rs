//! The state behind a seat's view (`ViewSampler`, issue 50): what the page of a game the
//! server runs plays its previews and local analyses on.
//!
//! Only the order of the dominoes below the pile tops is hidden (from every seat alike,
//! view.rs); everything else is read back from the view. A pyramid is replayed from its
//! blocks in placing order: two blocks that a domino of the seat's list lies on, in turn, are
//! that domino's placement (a block turned into a resurfacing card is then replaced); a
//! single block is a card covering a hole. The dominoes nobody has seen are shuffled into the
//! places below the pile tops, as [`Game::determinized`] does from a true state.
use crate::data::{CARD_SIDES, CARDS, COLOURS, DOMINO_COUNT, dominoes, parse_colour};
use crate::scoring::{MarkedArea, StageScore};
use crate::state::{
    Game, MAX_PLAYERS, PILE_CAPACITY, PILES, Phase, Player, QUARRY_SLOTS, Status, Turn,
};
use arrayvec::ArrayVec;
use pyramidion_core::{GameRng, PlayerCount, SampleError, Seat, ViewJson, ViewSampler};
use pyramidion_pyramid::placement::parse_cell;
use pyramidion_pyramid::{Block, Dir, Placement, Pyramid};
use serde::Deserialize;

#[derive(Deserialize)]
struct ViewIn {
    seats: Vec<SeatIn>,
    to_move: Option<Seat>,
    phase: Phase,
    stage: u8,
    first_player: Seat,
    quarry: [Option<DominoIn>; QUARRY_SLOTS],
    piles: [PileIn; PILES],
    held: Option<DominoIn>,
    empty_slot: Option<u8>,
    new_blocks: Option<[usize; 2]>,
    holes: Vec<String>,
}

#[derive(Deserialize)]
struct DominoIn {
    id: u8,
}

#[derive(Deserialize)]
struct PileIn {
    size: usize,
    top: Option<DominoIn>,
}

#[derive(Deserialize)]
struct EliminationIn {
    stage: u8,
}

#[derive(Deserialize)]
struct BlockIn {
    stage: u8,
    x: u8,
    y: u8,
    colour: String,
    jewels: Vec<String>,
    #[serde(default)]
    card: Option<[String; 2]>,
    #[serde(default)]
    marker: bool,
}

#[derive(Deserialize)]
struct MarkedAreaIn {
    colour: String,
    jewels: u8,
    anchor: u8,
    cells: Vec<u8>,
}

#[derive(Deserialize)]
struct StageScoreIn {
    areas: Vec<MarkedAreaIn>,
    mino: u8,
    total: u16,
}

#[derive(Deserialize)]
struct SeatIn {
    score: i32,
    status: Status,
    #[serde(default)]
    elimination: Option<EliminationIn>,
    blocks: Vec<BlockIn>,
    dominoes: Vec<u8>,
    last_domino: Option<[usize; 2]>,
    stage_breakdowns: Vec<StageScoreIn>,
}

fn bad(message: impl Into<String>) -> SampleError {
    SampleError::bad_view(message)
}

fn colour(name: &str) -> Result<u8, SampleError> {
    parse_colour(name).ok_or_else(|| bad(format!("no colour '{name}'")))
}

/// Jewel quadrants by name (bits as in `Quadrants`: 1 nw, 2 ne, 4 sw, 8 se).
fn jewels(names: &[String]) -> Result<u8, SampleError> {
    names.iter().try_fold(0u8, |mask, n| {
        let bit = match n.as_str() {
            "nw" => 1,
            "ne" => 2,
            "sw" => 4,
            "se" => 8,
            _ => return Err(bad(format!("no quadrant '{n}'"))),
        };
        Ok(mask | bit)
    })
}

/// A seat's pyramid, markers and cards, replayed from its blocks.
struct Built {
    pyramid: Pyramid,
    markers: [Option<u8>; COLOURS],
    cards: [Option<u8>; CARDS],
}

fn build(seat: &SeatIn, stage: u8) -> Result<Built, SampleError> {
    let mut pyramid = Pyramid::default();
    let mut markers = [None; COLOURS];
    let mut cards = [None; CARDS];
    let blocks: Vec<Block> = seat
        .blocks
        .iter()
        .map(|b| {
            Ok(Block {
                colour: colour(&b.colour)?,
                icons: jewels(&b.jewels)?,
            })
        })
        .collect::<Result<_, SampleError>>()?;
    let mut next_domino = seat.dominoes.iter();
    let mut pending = next_domino.next();
    let mut i = 0;
    while i < blocks.len() {
        let a = &seat.blocks[i];
        let stage_index = a.stage.checked_sub(1).ok_or_else(|| bad("stage 0"))?;
        if stage_index < pyramid.stage() {
            return Err(bad("blocks out of placing order"));
        }
        while pyramid.stage() < stage_index {
            pyramid.next_stage();
        }
        let pair = pending.zip(seat.blocks.get(i + 1)).and_then(|(&id, b)| {
            let faces = dominoes().get(id as usize)?.blocks;
            let delta = (
                i32::from(b.x) - i32::from(a.x),
                i32::from(b.y) - i32::from(a.y),
            );
            let dir = Dir::ALL.into_iter().find(|d| d.delta() == delta)?;
            let p = Placement::new(a.x, a.y, dir);
            let turned = p.orient(faces);
            // Each block is the domino's, turned, unless a card now lies on it.
            let fits =
                (0..2).all(|k| seat.blocks[i + k].card.is_some() || turned[k] == blocks[i + k]);
            (b.stage == a.stage && fits && pyramid.check(&p).is_ok()).then_some((p, faces))
        });
        let placed = match pair {
            Some((p, faces)) => {
                pyramid.place(&p, faces);
                pending = next_domino.next();
                2
            }
            None => {
                if a.card.is_none() {
                    return Err(bad("a single block that is no card"));
                }
                pyramid.place_block(a.x, a.y, blocks[i]);
                1
            }
        };
        for k in i..i + placed {
            let b = &seat.blocks[k];
            if let Some(sides) = &b.card {
                let card = CARD_SIDES
                    .iter()
                    .position(|s| s[0] == sides[0] && s[1] == sides[1])
                    .ok_or_else(|| bad("no such card"))?;
                cards[card] = Some(k as u8);
                if pyramid.blocks()[k].block != blocks[k] {
                    pyramid.replace_block(k, blocks[k]);
                }
            }
            if b.marker {
                markers[blocks[k].colour as usize] = Some(k as u8);
            }
        }
        i += placed;
    }
    if pending.is_some() {
        return Err(bad("a domino the blocks do not show"));
    }
    if stage < pyramid.stage() {
        return Err(bad("a pyramid above the stage"));
    }
    while pyramid.stage() < stage {
        pyramid.next_stage();
    }
    Ok(Built {
        pyramid,
        markers,
        cards,
    })
}

fn player(seat: &SeatIn, game_stage: u8) -> Result<Player, SampleError> {
    // An eliminated pyramid stays at the stage it got stuck on.
    let stage = match &seat.elimination {
        Some(e) => e.stage.checked_sub(1).ok_or_else(|| bad("stage 0"))?,
        None => game_stage,
    };
    let Built {
        pyramid,
        markers,
        cards,
    } = build(seat, stage)?;
    let stage_blocks = pyramid
        .blocks()
        .iter()
        .filter(|b| b.stage == pyramid.stage())
        .count() as u8;
    let mut scores = ArrayVec::new();
    for s in &seat.stage_breakdowns {
        let mut areas = ArrayVec::new();
        for a in &s.areas {
            let cells = a.cells.iter().fold(0u128, |m, &q| m | 1u128 << (q & 127));
            let area = MarkedArea {
                colour: colour(&a.colour)?,
                jewels: a.jewels,
                anchor: a.anchor,
                cells,
            };
            areas.try_push(area).map_err(|_| bad("too many areas"))?;
        }
        let score = StageScore {
            areas,
            mino: s.mino,
            total: s.total,
        };
        scores.try_push(score).map_err(|_| bad("too many stages"))?;
    }
    let mut dominoes = ArrayVec::new();
    for &id in &seat.dominoes {
        dominoes
            .try_push(id)
            .map_err(|_| bad("too many dominoes"))?;
    }
    Ok(Player {
        pyramid,
        markers,
        cards,
        status: seat.status,
        stage_blocks,
        dominoes,
        last_domino: seat.last_domino.map(|[a, _]| a as u8),
        scores,
        total: u16::try_from(seat.score).map_err(|_| bad("a score out of range"))?,
    })
}

impl ViewSampler for Game {
    fn sample_from_view(
        view: &ViewJson,
        _seat: Seat,
        rng: &mut GameRng,
    ) -> Result<Self, SampleError> {
        let v = ViewIn::deserialize(view)?;
        let seats = v.seats.len();
        if !(2..=MAX_PLAYERS).contains(&seats) {
            return Err(bad("Pyramido is for 2 to 4 players"));
        }
        if v.stage == 0 || v.stage > 4 {
            return Err(bad("no such stage"));
        }
        let stage = v.stage - 1;
        let players: ArrayVec<Player, MAX_PLAYERS> = v
            .seats
            .iter()
            .map(|s| player(s, stage))
            .collect::<Result<_, _>>()?;
        let current = match v.to_move {
            Some(s) if s.index() < seats => s.0,
            Some(_) => return Err(bad("no such seat to move")),
            None => v.first_player.0,
        };
        let mut turn = Turn::default();
        if let Some(slot) = v.empty_slot {
            turn.slot = slot.checked_sub(1).ok_or_else(|| bad("slot 0"))?;
        }
        if let Some(d) = &v.held {
            turn.domino = d.id;
        }
        if let Some([a, _]) = v.new_blocks {
            turn.first_block = a as u8;
            let blocks = &v.seats[usize::from(current)].blocks;
            for side in 0..2 {
                if blocks.get(a + side).is_some_and(|b| b.marker) {
                    turn.marked |= 1 << side;
                }
            }
        }
        if v.holes.len() > CARDS {
            return Err(bad("more holes than cards"));
        }
        for (k, h) in v.holes.iter().enumerate() {
            turn.holes[k] = parse_cell(h).map_err(bad)?;
        }
        turn.hole_count = v.holes.len() as u8;
        let mut game = Game {
            options: PlayerCount {
                players: seats as u8,
            },
            seats: seats as u8,
            stage,
            phase: v.phase,
            current,
            first: v.first_player.0,
            quarry: std::array::from_fn(|s| v.quarry[s].as_ref().map(|d| d.id)),
            piles: Default::default(),
            turn,
            players,
            // The view does not say how many moves were played (marks, refills and passes
            // are not all asked for) and no rule reads the count: a lower bound, a take and a
            // place per domino and a move per card laid.
            ply: v
                .seats
                .iter()
                .map(|s| {
                    2 * s.dominoes.len() as u32
                        + s.blocks.iter().filter(|b| b.card.is_some()).count() as u32
                })
                .sum(),
        };
        deal_piles(&mut game, &v, rng)?;
        Ok(game)
    }

    fn samples_views() -> bool {
        true
    }
}

/// The piles: each top as shown, the places below filled with the dominoes nobody has seen,
/// drawn with `rng`.
fn deal_piles(game: &mut Game, v: &ViewIn, rng: &mut GameRng) -> Result<(), SampleError> {
    let mut seen = 0u128;
    let shown = v
        .quarry
        .iter()
        .flatten()
        .chain(v.piles.iter().filter_map(|p| p.top.as_ref()))
        .chain(&v.held)
        .map(|d| d.id)
        .chain(v.seats.iter().flat_map(|s| s.dominoes.iter().copied()));
    for id in shown {
        if id as usize >= DOMINO_COUNT || seen >> id & 1 == 1 {
            return Err(bad("a domino seen twice, or none such"));
        }
        seen |= 1 << id;
    }
    // Ascending ids before the shuffle, as `determinized` sorts them.
    let mut pool: ArrayVec<u8, PILE_CAPACITY> = ArrayVec::new();
    for id in (0..DOMINO_COUNT as u8).filter(|id| seen >> id & 1 == 0) {
        pool.try_push(id)
            .map_err(|_| bad("too many hidden dominoes"))?;
    }
    let below: usize = v.piles.iter().map(|p| p.size.saturating_sub(1)).sum();
    if below != pool.len() {
        return Err(bad("the piles do not hold the dominoes nobody has seen"));
    }
    rng.shuffle(&mut pool);
    let mut rest = pool.into_iter();
    for (pile, p) in game.piles.iter_mut().zip(&v.piles) {
        match &p.top {
            None if p.size == 0 => {}
            None => return Err(bad("a pile without a top")),
            Some(top) => {
                for _ in 1..p.size {
                    pile.push(rest.next().ok_or_else(|| bad("too few hidden dominoes"))?);
                }
                pile.push(top.id);
            }
        }
    }
    Ok(())
}
