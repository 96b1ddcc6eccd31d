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
use pyramidion_core::{GameRng, PlayerCount, SampleError, Seat, ViewJson, ViewPart, ViewSampler};
use pyramidion_pyramid::placement::parse_cell;
use pyramidion_pyramid::{Block, Dir, Placement, Pyramid};

/// A pyramid's block as the view shows it.
struct BlockIn {
    stage: u8,
    x: u8,
    y: u8,
    block: Block,
    /// The card it is (its index among `CARD_SIDES`), if one.
    card: Option<usize>,
    marker: bool,
}

fn block(p: ViewPart) -> Result<BlockIn, SampleError> {
    let mut icons = 0u8;
    for j in p.get("jewels")?.items()? {
        // Bits as in `Quadrants`: 1 nw, 2 ne, 4 sw, 8 se.
        icons |= 1 << j.one_of(&["nw", "ne", "sw", "se"])?;
    }
    let card = match p.opt("card") {
        None => None,
        Some(c) => {
            let sides: Vec<&str> = c.items()?.map(|s| s.str()).collect::<Result<_, _>>()?;
            let k = CARD_SIDES
                .iter()
                .position(|s| s[..] == sides[..])
                .ok_or_else(|| bad("no such card"))?;
            Some(k)
        }
    };
    Ok(BlockIn {
        stage: p.get("stage")?.num()?,
        x: p.get("x")?.num()?,
        y: p.get("y")?.num()?,
        block: Block {
            colour: colour(p.get("colour")?.str()?)?,
            icons,
        },
        card,
        marker: p.flag("marker")?,
    })
}

const PHASES: [(&str, Phase); 7] = [
    ("take", Phase::Take),
    ("place", Phase::Place),
    ("mark", Phase::Mark),
    ("resurface", Phase::Resurface),
    ("refill", Phase::Refill),
    ("cover", Phase::Cover),
    ("over", Phase::Over),
];

const STATUSES: [(&str, Status); 3] = [
    ("building", Status::Building),
    ("done", Status::Done),
    ("eliminated", Status::Eliminated),
];

fn bad(message: impl Into<String>) -> SampleError {
    SampleError::bad_view(message)
}

fn colour(name: &str) -> Result<u8, SampleError> {
    parse_colour(name).ok_or_else(|| bad(format!("no colour '{name}'")))
}

/// A seat's pyramid, markers and cards, replayed from its blocks.
struct Built {
    pyramid: Pyramid,
    markers: [Option<u8>; COLOURS],
    cards: [Option<u8>; CARDS],
}

fn build(seat: &[BlockIn], dominoes_placed: &[u8], stage: u8) -> Result<Built, SampleError> {
    let mut pyramid = Pyramid::default();
    let mut markers = [None; COLOURS];
    let mut cards = [None; CARDS];
    let blocks: Vec<Block> = seat.iter().map(|b| b.block).collect();
    let mut next_domino = dominoes_placed.iter();
    let mut pending = next_domino.next();
    let mut i = 0;
    while i < blocks.len() {
        let a = &seat[i];
        let stage_index = a.stage.checked_sub(1).ok_or_else(|| bad("stage 0"))?;
        if stage_index < pyramid.stage() {
            return Err(bad("blocks out of placing order"));
        }
        while pyramid.stage() < stage_index {
            pyramid.next_stage();
        }
        let pair = pending.zip(seat.get(i + 1)).and_then(|(&id, b)| {
            let faces = dominoes().get(id as usize)?.blocks;
            let delta = (
                i32::from(b.x) - i32::from(a.x),
                i32::from(b.y) - i32::from(a.y),
            );
            let dir = Dir::ALL.into_iter().find(|d| d.delta() == delta)?;
            let p = Placement::new(a.x, a.y, dir);
            let turned = p.orient(faces);
            // Each block is the domino's, turned, unless a card now lies on it.
            let fits = (0..2).all(|k| seat[i + k].card.is_some() || turned[k] == blocks[i + k]);
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
            let b = &seat[k];
            if let Some(card) = b.card {
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

fn player(seat: ViewPart, game_stage: u8) -> Result<Player, SampleError> {
    // An eliminated pyramid stays at the stage it got stuck on.
    let stage = match seat.opt("elimination") {
        Some(e) => e
            .get("stage")?
            .num::<u8>()?
            .checked_sub(1)
            .ok_or_else(|| bad("stage 0"))?,
        None => game_stage,
    };
    let blocks: Vec<BlockIn> = seat
        .get("blocks")?
        .items()?
        .map(block)
        .collect::<Result<_, _>>()?;
    let mut dominoes = ArrayVec::new();
    for id in seat.get("dominoes")?.items()? {
        dominoes
            .try_push(id.num()?)
            .map_err(|_| bad("too many dominoes"))?;
    }
    let Built {
        pyramid,
        markers,
        cards,
    } = build(&blocks, &dominoes, stage)?;
    let stage_blocks = pyramid
        .blocks()
        .iter()
        .filter(|b| b.stage == pyramid.stage())
        .count() as u8;
    let mut scores = ArrayVec::new();
    for s in seat.get("stage_breakdowns")?.items()? {
        let mut areas = ArrayVec::new();
        for a in s.get("areas")?.items()? {
            let mut cells = 0u128;
            for q in a.get("cells")?.items()? {
                cells |= 1u128 << (q.num::<u8>()? & 127);
            }
            let area = MarkedArea {
                colour: colour(a.get("colour")?.str()?)?,
                jewels: a.get("jewels")?.num()?,
                anchor: a.get("anchor")?.num()?,
                cells,
            };
            areas.try_push(area).map_err(|_| bad("too many areas"))?;
        }
        let score = StageScore {
            areas,
            mino: s.get("mino")?.num()?,
            total: s.get("total")?.num()?,
        };
        scores.try_push(score).map_err(|_| bad("too many stages"))?;
    }
    let last_domino = match seat.opt("last_domino") {
        Some(pair) => Some(
            pair.items()?
                .next()
                .ok_or_else(|| bad("an empty pair"))?
                .num()?,
        ),
        None => None,
    };
    Ok(Player {
        pyramid,
        markers,
        cards,
        status: seat.get("status")?.pick(&STATUSES)?,
        stage_blocks,
        dominoes,
        last_domino,
        scores,
        total: seat.get("score")?.num()?,
    })
}

impl ViewSampler for Game {
    fn sample_from_view(
        view: &ViewJson,
        _seat: Seat,
        rng: &mut GameRng,
    ) -> Result<Self, SampleError> {
        let v = ViewPart(view);
        let seat_parts: Vec<ViewPart> = v.get("seats")?.items()?.collect();
        let seats = seat_parts.len();
        if !(2..=MAX_PLAYERS).contains(&seats) {
            return Err(bad("Pyramido is for 2 to 4 players"));
        }
        let stage: u8 = v.get("stage")?.num()?;
        if stage == 0 || stage > 4 {
            return Err(bad("no such stage"));
        }
        let stage = stage - 1;
        let players: ArrayVec<Player, MAX_PLAYERS> = seat_parts
            .iter()
            .map(|&s| player(s, stage))
            .collect::<Result<_, _>>()?;
        let first: u8 = v.get("first_player")?.num()?;
        let current = v.to_move(seats, first)?;
        let mut turn = Turn::default();
        if let Some(slot) = v.opt("empty_slot") {
            turn.slot = slot
                .num::<u8>()?
                .checked_sub(1)
                .ok_or_else(|| bad("slot 0"))?;
        }
        if let Some(d) = v.opt("held") {
            turn.domino = d.get("id")?.num()?;
        }
        if let Some(pair) = v.opt("new_blocks") {
            let a: usize = pair
                .items()?
                .next()
                .ok_or_else(|| bad("an empty pair"))?
                .num()?;
            turn.first_block = a as u8;
            let blocks: Vec<ViewPart> = seat_parts[usize::from(current)]
                .get("blocks")?
                .items()?
                .collect();
            for side in 0..2 {
                if blocks.get(a + side).map(|b| b.flag("marker")).transpose()? == Some(true) {
                    turn.marked |= 1 << side;
                }
            }
        }
        let holes: Vec<ViewPart> = v.get("holes")?.items()?.collect();
        if holes.len() > CARDS {
            return Err(bad("more holes than cards"));
        }
        for (k, h) in holes.iter().enumerate() {
            turn.holes[k] = parse_cell(h.str()?).map_err(bad)?;
        }
        turn.hole_count = holes.len() as u8;
        let mut quarry = [None; QUARRY_SLOTS];
        for (slot, d) in quarry.iter_mut().zip(v.get("quarry")?.items()?) {
            *slot = d.non_null().map(|d| d.get("id")?.num()).transpose()?;
        }
        let mut piles = Vec::new();
        for p in v.get("piles")?.items()? {
            let top = p.opt("top").map(|t| t.get("id")?.num::<u8>()).transpose()?;
            piles.push((p.get("size")?.num::<usize>()?, top));
        }
        if piles.len() != PILES {
            return Err(bad("four piles expected"));
        }
        let ply = seat_parts
            .iter()
            .map(|s| {
                let blocks = s.get("blocks")?.items()?;
                let cards = blocks.filter(|b| b.opt("card").is_some()).count() as u32;
                Ok(2 * s.get("dominoes")?.items()?.count() as u32 + cards)
            })
            .sum::<Result<u32, SampleError>>()?;
        let mut game = Game {
            options: PlayerCount {
                players: seats as u8,
            },
            seats: seats as u8,
            stage,
            phase: v.get("phase")?.pick(&PHASES)?,
            current,
            first,
            quarry,
            piles: Default::default(),
            turn,
            players,
            // The view does not say how many moves were played (marks, refills and passes
            // are not all asked for) and no rule reads the count: a lower bound, a take and a
            // place per domino and a move per card laid.
            ply,
        };
        let held = v
            .opt("held")
            .map(|d| d.get("id")?.num::<u8>())
            .transpose()?;
        deal_piles(&mut game, &piles, held, rng)?;
        Ok(game)
    }

    fn samples_views() -> bool {
        true
    }
}

/// The piles: each top as shown, the places below filled with the dominoes nobody has seen,
/// drawn with `rng`.
fn deal_piles(
    game: &mut Game,
    piles: &[(usize, Option<u8>)],
    held: Option<u8>,
    rng: &mut GameRng,
) -> Result<(), SampleError> {
    let mut seen = 0u128;
    let placed = game.players.iter().flat_map(|p| p.dominoes.iter().copied());
    let shown = game
        .quarry
        .iter()
        .flatten()
        .copied()
        .chain(piles.iter().filter_map(|p| p.1))
        .chain(held)
        .chain(placed);
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
    let below: usize = piles.iter().map(|p| p.0.saturating_sub(1)).sum();
    if below != pool.len() {
        return Err(bad("the piles do not hold the dominoes nobody has seen"));
    }
    rng.shuffle(&mut pool);
    let mut rest = pool.into_iter();
    for (pile, &(size, top)) in game.piles.iter_mut().zip(piles) {
        match top {
            None if size == 0 => {}
            None => return Err(bad("a pile without a top")),
            Some(top) => {
                for _ in 1..size {
                    pile.push(rest.next().ok_or_else(|| bad("too few hidden dominoes"))?);
                }
                pile.push(top);
            }
        }
    }
    Ok(())
}
