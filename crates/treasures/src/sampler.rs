//! The state behind a seat's view (`ViewSampler`, issue 50): what the page of a game the
//! server runs plays its previews and local analyses on.
//!
//! Everything hidden here is hidden from every seat alike (view.rs): the fronts of face-down
//! tops, the dominoes below the tops, the order of the bag and the RNG. Everything else is
//! read back from the view: the pyramids are replayed from their blocks (two by two, in the
//! order they were placed), the bag is what the box holds minus every gem in sight, and the
//! dominoes nobody has seen are shuffled into the hidden places (a face-down top gets one
//! with its back), as [`Game::resample_hidden`] does from a true state.
use crate::data::{self, BackBlock, DOMINO_COUNT, DominoId};
use crate::gems::{Colour, Gem, Gems};
use crate::moves::Payment;
use crate::options::{Options, SoloMode};
use crate::state::{
    Game, Legend, LegendTurn, Phase, Pile, Player, STAGES, ScorableArea, ScoredArea,
};
use pyramidion_core::{GameRng, SampleError, Seat, ViewJson, ViewSampler};
use pyramidion_pyramid::topview::parse_area_name;
use pyramidion_pyramid::{Block, PlacedBlock, Placement, Pyramid};
use serde::Deserialize;

#[derive(Deserialize)]
struct ViewIn {
    seats: Vec<SeatIn>,
    to_move: Option<Seat>,
    phase: Phase,
    stage: u8,
    first_player: Seat,
    options: Options,
    ply: u32,
    spaces: Vec<SpaceIn>,
    bag_size: u32,
    discard: Gems,
    hand: Option<DominoIn>,
    scoring: Option<ScoringIn>,
    legend: Option<LegendIn>,
    automa: Option<AutomaIn>,
}

#[derive(Deserialize)]
struct DominoIn {
    id: DominoId,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum TopIn {
    FaceUp { domino: DominoIn },
    FaceDown { back: [BackBlock; 2] },
    Empty,
}

#[derive(Deserialize)]
struct SpaceIn {
    pile_size: usize,
    top: TopIn,
    gems: Gems,
}

#[derive(Deserialize)]
struct BlockIn {
    stage: u8,
    x: u8,
    y: u8,
    block: ColouredBlockIn,
}

#[derive(Deserialize)]
struct ColouredBlockIn {
    colour: Colour,
    icons: u8,
}

#[derive(Deserialize)]
struct LastPlacementIn {
    stage: u8,
    placement: Placement,
}

#[derive(Deserialize)]
struct ScoredAreaIn {
    stage: u8,
    name: String,
    colour: Colour,
    icons: u8,
    payment: Payment,
}

#[derive(Deserialize)]
struct SeatIn {
    stage_points: Vec<Option<i32>>,
    gems: Gems,
    stage_complete: bool,
    pyramid_stage: u8,
    blocks: Vec<BlockIn>,
    dominoes: Vec<DominoId>,
    last_placement: Option<LastPlacementIn>,
    scored_areas: Vec<ScoredAreaIn>,
}

#[derive(Deserialize)]
struct AreaIn {
    name: String,
    activation: Option<Payment>,
}

#[derive(Deserialize)]
struct ScoringIn {
    areas: Vec<AreaIn>,
}

#[derive(Deserialize)]
struct LegendGemIn {
    gem: Gem,
    space: u8,
}

#[derive(Deserialize)]
struct LegendTurnIn {
    ply: u32,
    wishes: [Colour; 2],
    gems: Vec<LegendGemIn>,
    space: Option<u8>,
    domino: Option<DominoIn>,
    drew: Option<Gem>,
}

#[derive(Deserialize)]
struct LegendScoreIn {
    coloured: u8,
    mythical: u8,
}

#[derive(Deserialize)]
struct LegendIn {
    mode: SoloMode,
    pile: Vec<DominoIn>,
    gems: Gems,
    turns: Vec<LegendTurnIn>,
    stage_draw: Option<Gem>,
    scored: Vec<LegendScoreIn>,
}

#[derive(Deserialize)]
struct AutomaIn {
    stage_points: Vec<Option<i32>>,
}

fn bad(message: impl Into<String>) -> SampleError {
    SampleError::bad_view(message)
}

fn colour_index(c: Colour) -> u8 {
    Colour::ALL.iter().position(|&x| x == c).unwrap_or(0) as u8
}

/// Stage points as the game keeps them: a stage not scored yet holds 0.
fn stage_scores(points: &[Option<i32>]) -> Result<[u16; STAGES as usize], SampleError> {
    let mut scores = [0; STAGES as usize];
    for (s, p) in scores.iter_mut().zip(points) {
        *s = u16::try_from(p.unwrap_or(0)).map_err(|_| bad("stage points out of range"))?;
    }
    Ok(scores)
}

fn player(seat: &SeatIn) -> Result<Player, SampleError> {
    let mut dominoes = arrayvec::ArrayVec::new();
    for &id in &seat.dominoes {
        if id as usize >= DOMINO_COUNT {
            return Err(bad("no such domino"));
        }
        dominoes
            .try_push(id)
            .map_err(|_| bad("too many dominoes"))?;
    }
    let blocks: Vec<PlacedBlock> = seat
        .blocks
        .iter()
        .map(|b| PlacedBlock {
            stage: b.stage.saturating_sub(1),
            x: b.x,
            y: b.y,
            block: Block {
                colour: colour_index(b.block.colour),
                icons: b.block.icons,
            },
        })
        .collect();
    let faces: Vec<[Block; 2]> = dominoes.iter().map(|&id| data::get(id).blocks).collect();
    let pyramid =
        Pyramid::rebuilt(&blocks, &faces, seat.pyramid_stage.saturating_sub(1)).map_err(bad)?;
    let mut scored_areas = arrayvec::ArrayVec::new();
    for s in &seat.scored_areas {
        let area = ScoredArea {
            stage: s.stage.saturating_sub(1),
            area: ScorableArea {
                anchor: parse_area_name(&s.name).map_err(bad)?,
                colour: colour_index(s.colour),
                icons: s.icons,
            },
            payment: s.payment,
        };
        scored_areas
            .try_push(area)
            .map_err(|_| bad("too many areas scored"))?;
    }
    Ok(Player {
        pyramid,
        dominoes,
        gems: seat.gems,
        stage_scores: stage_scores(&seat.stage_points)?,
        stage_complete: seat.stage_complete,
        last_placement: seat
            .last_placement
            .as_ref()
            .map(|l| (l.stage.saturating_sub(1), l.placement)),
        scored_areas,
    })
}

fn legend(l: &LegendIn, automa: Option<&AutomaIn>) -> Result<Legend, SampleError> {
    let mut pile = arrayvec::ArrayVec::new();
    for d in &l.pile {
        pile.try_push(d.id)
            .map_err(|_| bad("THE Legend's pile is too high"))?;
    }
    if pile.is_empty() {
        return Err(bad("THE Legend's pile is never empty"));
    }
    let mut turns = arrayvec::ArrayVec::new();
    for t in &l.turns {
        let mut collected = [None; 2];
        let mut gems = Gems::default();
        for (slot, g) in collected.iter_mut().zip(&t.gems) {
            *slot = Some((g.gem, g.space));
            gems.add(g.gem, 1);
        }
        if let Some(g) = t.drew {
            gems.add(g, 1);
        }
        let turn = LegendTurn {
            ply: t.ply,
            wishes: t.wishes.map(colour_index),
            gems,
            collected,
            space: t.space,
            domino: t.domino.as_ref().map(|d| d.id),
            drew: t.drew,
        };
        turns
            .try_push(turn)
            .map_err(|_| bad("too many Legend turns"))?;
    }
    let mut scored_gems = [[0; 2]; STAGES as usize];
    for (slot, s) in scored_gems.iter_mut().zip(&l.scored) {
        *slot = [s.coloured, s.mythical];
    }
    Ok(Legend {
        mode: l.mode,
        pile,
        gems: l.gems,
        stage_scores: stage_scores(automa.map_or(&[][..], |a| &a.stage_points))?,
        turns,
        stage_draw: l.stage_draw,
        scored_gems,
    })
}

/// `total` minus `part`, or why not (more gems in sight than the box holds).
fn less(total: &mut Gems, part: &Gems) -> Result<(), SampleError> {
    for gem in Gem::ALL {
        let n = part.get(gem);
        if total.get(gem) < n {
            return Err(bad("more gems in sight than in the box"));
        }
        total.remove(gem, n);
    }
    Ok(())
}

impl ViewSampler for Game {
    fn sample_from_view(
        view: &ViewJson,
        _seat: Seat,
        rng: &mut GameRng,
    ) -> Result<Self, SampleError> {
        let v = ViewIn::deserialize(view)?;
        v.options.validate().map_err(|e| bad(e.message))?;
        if v.seats.len() != usize::from(v.options.players) || v.spaces.len() != 5 {
            return Err(bad("seats or spaces do not match the options"));
        }
        if v.stage == 0 || v.stage > STAGES {
            return Err(bad("no such stage"));
        }
        let players = v.seats.iter().map(player).collect::<Result<_, _>>()?;
        let legend = match (&v.legend, v.options.solo) {
            (Some(l), Some(_)) => Some(legend(l, v.automa.as_ref())?),
            (None, None) => None,
            _ => return Err(bad("THE Legend sits only at a solo table")),
        };
        let current = match v.to_move {
            Some(s) if s.index() < v.seats.len() => s.0,
            Some(_) => return Err(bad("no such seat to move")),
            // Once over, nothing reads the seat that moved last.
            None => v.first_player.0,
        };
        let mut game = Game {
            options: v.options,
            rng: rng.fork(),
            ply: v.ply,
            stage: v.stage - 1,
            phase: v.phase,
            current,
            stage_first: v.first_player.0,
            piles: Default::default(),
            gem_areas: std::array::from_fn(|s| v.spaces[s].gems),
            bag: Gems::default(),
            discard: v.discard,
            players,
            legend,
            scoring: None,
            hand: v.hand.as_ref().map(|d| d.id),
            take_options: [0; 5],
            flippable: 0,
        };
        if let Some(sc) = &v.scoring {
            game.scoring = Some(rebuild_scoring(&game, sc)?);
        }
        // The bag: the box less every gem in sight (it has no order to draw).
        let mut bag = Gems::full_supply();
        for gems in game.gem_areas.iter().chain([&game.discard]) {
            less(&mut bag, gems)?;
        }
        for p in &game.players {
            less(&mut bag, &p.gems)?;
        }
        if let Some(l) = &game.legend {
            less(&mut bag, &l.gems)?;
        }
        if let Some(sc) = &game.scoring {
            less(&mut bag, &sc.spent)?;
        }
        if bag.total() != v.bag_size {
            return Err(bad("the bag's size does not match the gems in sight"));
        }
        game.bag = bag;
        deal_piles(&mut game, &v.spaces, rng)?;
        for space in 0..5 {
            game.refresh_space_moves(space);
        }
        Ok(game)
    }

    fn samples_views() -> bool {
        true
    }
}

/// The stage scoring of the seat being scored: its pyramid's areas, those the view shows
/// activated marked so (the gems they cost are already off the seat's gems in the view).
fn rebuild_scoring(game: &Game, sc: &ScoringIn) -> Result<crate::state::StageScoring, SampleError> {
    let player = &game.players[game.current as usize];
    let mut scoring = crate::scoring::scorable_areas(&player.pyramid);
    for area in &sc.areas {
        let Some(payment) = area.activation else {
            continue;
        };
        let anchor = parse_area_name(&area.name).map_err(bad)?;
        let i = scoring
            .area_index(anchor)
            .ok_or_else(|| bad("an activated area the pyramid does not show"))?;
        let a = scoring.areas[i];
        let (c, m) = payment.cost();
        scoring.spent.add(Gem::colour(a.colour), c);
        scoring.spent.add(Gem::Mythical, m);
        scoring.activated |= 1 << i;
        scoring.open_by_colour[a.colour as usize] -= 1;
        scoring.activations.push((anchor, payment));
        scoring.points += crate::scoring::activation_points(a.icons, payment);
    }
    Ok(scoring)
}

/// Fills the piles: face-up tops as shown, every other place with a domino nobody has seen
/// (a face-down top with one whose back it shows), drawn with `rng`.
fn deal_piles(game: &mut Game, spaces: &[SpaceIn], rng: &mut GameRng) -> Result<(), SampleError> {
    let mut seen = [false; DOMINO_COUNT];
    let mut mark = |id: DominoId| -> Result<(), SampleError> {
        let slot = seen
            .get_mut(id as usize)
            .ok_or_else(|| bad("no such domino"))?;
        if std::mem::replace(slot, true) {
            return Err(bad("a domino seen twice"));
        }
        Ok(())
    };
    for p in &game.players {
        for &id in &p.dominoes {
            mark(id)?;
        }
    }
    if let Some(l) = &game.legend {
        for &id in &l.pile {
            mark(id)?;
        }
    }
    if let Some(id) = game.hand {
        mark(id)?;
    }
    for s in spaces {
        if let TopIn::FaceUp { domino } = &s.top {
            mark(domino.id)?;
        }
    }
    // Sorted (by id) before the shuffle, as `resample_hidden` does.
    let mut pool: Vec<DominoId> = (0..DOMINO_COUNT as DominoId)
        .filter(|&id| !seen[id as usize])
        .collect();
    let hidden: usize = spaces
        .iter()
        .map(|s| match s.top {
            TopIn::FaceUp { .. } => s.pile_size.saturating_sub(1),
            _ => s.pile_size,
        })
        .sum();
    if hidden != pool.len() {
        return Err(bad("the piles do not hold the dominoes nobody has seen"));
    }
    rng.shuffle(&mut pool);
    let mut tops: [Option<(DominoId, bool)>; 5] = [None; 5];
    for (s, space) in spaces.iter().enumerate() {
        tops[s] = match &space.top {
            TopIn::Empty if space.pile_size == 0 => None,
            TopIn::Empty => return Err(bad("an empty top on a pile")),
            _ if space.pile_size == 0 => return Err(bad("a top on an empty pile")),
            TopIn::FaceUp { domino } => Some((domino.id, true)),
            TopIn::FaceDown { back } => {
                let i = pool
                    .iter()
                    .position(|&id| data::get(id).back() == *back)
                    .ok_or_else(|| bad("no unseen domino has that back"))?;
                Some((pool.swap_remove(i), false))
            }
        };
    }
    let mut rest = pool.into_iter();
    for (s, space) in spaces.iter().enumerate() {
        let Some((top, face_up)) = tops[s] else {
            game.piles[s] = Pile::default();
            continue;
        };
        let mut pile = Pile {
            face_up,
            ..Pile::default()
        };
        for _ in 1..space.pile_size {
            let id = rest.next().ok_or_else(|| bad("too few hidden dominoes"))?;
            pile.dominoes
                .try_push(id)
                .map_err(|_| bad("a pile too high"))?;
        }
        pile.dominoes
            .try_push(top)
            .map_err(|_| bad("a pile too high"))?;
        game.piles[s] = pile;
    }
    Ok(())
}
