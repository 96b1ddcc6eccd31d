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
use crate::options::Options;
use crate::state::{
    Game, Legend, LegendTurn, Phase, Pile, Player, STAGES, ScorableArea, ScoredArea,
};
use pyramidion_core::{GameRng, SampleError, Seat, ViewJson, ViewPart, ViewSampler};
use pyramidion_pyramid::topview::parse_area_name;
use pyramidion_pyramid::{Block, Dir, PlacedBlock, Placement, Pyramid};

fn bad(message: impl Into<String>) -> SampleError {
    SampleError::bad_view(message)
}

/// A colour (0–4) by name: the colours are the first five gems, in their order.
fn colour(p: ViewPart) -> Result<u8, SampleError> {
    Ok(p.one_of(&Gem::NAMES[..5])? as u8)
}

fn gem(p: ViewPart) -> Result<Gem, SampleError> {
    Ok(Gem::from_index(p.one_of(&Gem::NAMES)?))
}

/// Gems as views carry them: a count per gem by name.
fn gems(p: ViewPart) -> Result<Gems, SampleError> {
    let mut out = Gems::default();
    for g in Gem::ALL {
        out.add(g, p.get(g.name())?.num()?);
    }
    Ok(out)
}

fn payment(p: ViewPart) -> Result<Payment, SampleError> {
    p.str()?.parse().map_err(|_| bad("no such payment"))
}

fn domino_id(p: ViewPart) -> Result<DominoId, SampleError> {
    let id: DominoId = p.get("id")?.num()?;
    if id as usize >= DOMINO_COUNT {
        return Err(bad("no such domino"));
    }
    Ok(id)
}

const PHASES: [(&str, Phase); 6] = [
    ("take", Phase::Take),
    ("flip", Phase::Flip),
    ("place", Phase::Place),
    ("activate", Phase::Activate),
    ("discard", Phase::Discard),
    ("over", Phase::Over),
];

/// Stage points as the game keeps them: a stage not scored yet holds 0.
fn stage_scores(points: ViewPart) -> Result<[u16; STAGES as usize], SampleError> {
    let mut scores = [0; STAGES as usize];
    for (s, p) in scores.iter_mut().zip(points.items()?) {
        *s = match p.non_null() {
            Some(p) => p.num()?,
            None => 0,
        };
    }
    Ok(scores)
}

/// What a face-up or face-down pile top shows.
enum Top {
    FaceUp(DominoId),
    /// The back: each block's colour and number of icons.
    FaceDown([BackBlock; 2]),
    Empty,
}

struct Space {
    size: usize,
    top: Top,
}

fn space(p: ViewPart) -> Result<Space, SampleError> {
    let top = p.get("top")?;
    let top = match top
        .get("kind")?
        .one_of(&["face_up", "face_down", "empty"])?
    {
        0 => Top::FaceUp(domino_id(top.get("domino")?)?),
        1 => {
            let mut back = [BackBlock {
                colour: Colour::Orange,
                icons: 0,
            }; 2];
            for (b, p) in back.iter_mut().zip(top.get("back")?.items()?) {
                b.colour = Colour::of_index(colour(p.get("colour")?)?);
                b.icons = p.get("icons")?.num()?;
            }
            Top::FaceDown(back)
        }
        _ => Top::Empty,
    };
    Ok(Space {
        size: p.get("pile_size")?.num()?,
        top,
    })
}

fn player(seat: ViewPart) -> Result<Player, SampleError> {
    let mut dominoes = arrayvec::ArrayVec::new();
    for id in seat.get("dominoes")?.items()? {
        let id: DominoId = id.num()?;
        if id as usize >= DOMINO_COUNT {
            return Err(bad("no such domino"));
        }
        dominoes
            .try_push(id)
            .map_err(|_| bad("too many dominoes"))?;
    }
    let mut blocks = Vec::new();
    for b in seat.get("blocks")?.items()? {
        let block = b.get("block")?;
        blocks.push(PlacedBlock {
            stage: b.get("stage")?.num::<u8>()?.saturating_sub(1),
            x: b.get("x")?.num()?,
            y: b.get("y")?.num()?,
            block: Block {
                colour: colour(block.get("colour")?)?,
                icons: block.get("icons")?.num()?,
            },
        });
    }
    let faces: Vec<[Block; 2]> = dominoes.iter().map(|&id| data::get(id).blocks).collect();
    let stage: u8 = seat.get("pyramid_stage")?.num()?;
    let pyramid = Pyramid::rebuilt(&blocks, &faces, stage.saturating_sub(1)).map_err(bad)?;
    let mut scored_areas = arrayvec::ArrayVec::new();
    for s in seat.get("scored_areas")?.items()? {
        let area = ScoredArea {
            stage: s.get("stage")?.num::<u8>()?.saturating_sub(1),
            area: ScorableArea {
                anchor: parse_area_name(s.get("name")?.str()?).map_err(bad)?,
                colour: colour(s.get("colour")?)?,
                icons: s.get("icons")?.num()?,
            },
            payment: payment(s.get("payment")?)?,
        };
        scored_areas
            .try_push(area)
            .map_err(|_| bad("too many areas scored"))?;
    }
    let last_placement = match seat.opt("last_placement") {
        None => None,
        Some(l) => {
            let p = l.get("placement")?;
            let dir = Dir::ALL[p.get("dir")?.one_of(&["E", "S", "W", "N"])?];
            let placement = Placement::new(p.get("x")?.num()?, p.get("y")?.num()?, dir);
            Some((l.get("stage")?.num::<u8>()?.saturating_sub(1), placement))
        }
    };
    Ok(Player {
        pyramid,
        dominoes,
        gems: gems(seat.get("gems")?)?,
        stage_scores: stage_scores(seat.get("stage_points")?)?,
        stage_complete: seat.get("stage_complete")?.bool()?,
        last_placement,
        scored_areas,
    })
}

fn legend(l: ViewPart, automa: Option<ViewPart>, options: &Options) -> Result<Legend, SampleError> {
    let mode = options
        .solo
        .ok_or_else(|| bad("THE Legend sits only at a solo table"))?;
    let mut pile = arrayvec::ArrayVec::new();
    for d in l.get("pile")?.items()? {
        pile.try_push(domino_id(d)?)
            .map_err(|_| bad("THE Legend's pile is too high"))?;
    }
    if pile.is_empty() {
        return Err(bad("THE Legend's pile is never empty"));
    }
    let mut turns = arrayvec::ArrayVec::new();
    for t in l.get("turns")?.items()? {
        let mut collected = [None; 2];
        let mut gained = Gems::default();
        let mut taken = t.get("gems")?.items()?;
        for slot in collected.iter_mut() {
            let Some(g) = taken.next() else { break };
            let kind = gem(g.get("gem")?)?;
            *slot = Some((kind, g.get("space")?.num()?));
            gained.add(kind, 1);
        }
        let drew = t.opt("drew").map(gem).transpose()?;
        if let Some(g) = drew {
            gained.add(g, 1);
        }
        let mut wishes = [0; 2];
        for (w, p) in wishes.iter_mut().zip(t.get("wishes")?.items()?) {
            *w = colour(p)?;
        }
        let turn = LegendTurn {
            ply: t.get("ply")?.num()?,
            wishes,
            gems: gained,
            collected,
            space: t.opt("space").map(|p| p.num()).transpose()?,
            domino: t.opt("domino").map(domino_id).transpose()?,
            drew,
        };
        turns
            .try_push(turn)
            .map_err(|_| bad("too many Legend turns"))?;
    }
    let mut scored_gems = [[0; 2]; STAGES as usize];
    for (slot, s) in scored_gems.iter_mut().zip(l.get("scored")?.items()?) {
        *slot = [s.get("coloured")?.num()?, s.get("mythical")?.num()?];
    }
    Ok(Legend {
        mode,
        pile,
        gems: gems(l.get("gems")?)?,
        stage_scores: match automa {
            Some(a) => stage_scores(a.get("stage_points")?)?,
            None => [0; STAGES as usize],
        },
        turns,
        stage_draw: l.opt("stage_draw").map(gem).transpose()?,
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
        let v = ViewPart(view);
        // The options' own serde form (as the server reads a table's options).
        let options: Options =
            serde_json::from_value(v.get("options")?.0.clone()).map_err(|e| bad(e.to_string()))?;
        options.validate().map_err(|e| bad(e.message))?;
        let seat_parts: Vec<ViewPart> = v.get("seats")?.items()?.collect();
        let spaces: Vec<Space> = v
            .get("spaces")?
            .items()?
            .map(space)
            .collect::<Result<_, _>>()?;
        if seat_parts.len() != usize::from(options.players) || spaces.len() != 5 {
            return Err(bad("seats or spaces do not match the options"));
        }
        let stage: u8 = v.get("stage")?.num()?;
        if stage == 0 || stage > STAGES {
            return Err(bad("no such stage"));
        }
        let players = seat_parts
            .iter()
            .map(|&p| player(p))
            .collect::<Result<_, _>>()?;
        let legend = match (v.opt("legend"), options.solo) {
            (Some(l), Some(_)) => Some(legend(l, v.opt("automa"), &options)?),
            (None, None) => None,
            _ => return Err(bad("THE Legend sits only at a solo table")),
        };
        let first: u8 = v.get("first_player")?.num()?;
        let current = v.to_move(seat_parts.len(), first)?;
        let mut gem_areas = [Gems::default(); 5];
        for (area, s) in gem_areas.iter_mut().zip(v.get("spaces")?.items()?) {
            *area = gems(s.get("gems")?)?;
        }
        let mut game = Game {
            options,
            rng: rng.fork(),
            ply: v.get("ply")?.num()?,
            stage: stage - 1,
            phase: v.get("phase")?.pick(&PHASES)?,
            current,
            stage_first: first,
            piles: Default::default(),
            gem_areas,
            bag: Gems::default(),
            discard: gems(v.get("discard")?)?,
            players,
            legend,
            scoring: None,
            hand: v.opt("hand").map(domino_id).transpose()?,
            take_options: [0; 5],
            flippable: 0,
        };
        if let Some(sc) = v.opt("scoring") {
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
        if bag.total() != v.get("bag_size")?.num::<u32>()? {
            return Err(bad("the bag's size does not match the gems in sight"));
        }
        game.bag = bag;
        deal_piles(&mut game, &spaces, rng)?;
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
fn rebuild_scoring(game: &Game, sc: ViewPart) -> Result<crate::state::StageScoring, SampleError> {
    let player = &game.players[game.current as usize];
    let mut scoring = crate::scoring::scorable_areas(&player.pyramid);
    for area in sc.get("areas")?.items()? {
        let Some(payment) = area.opt("activation").map(payment).transpose()? else {
            continue;
        };
        let anchor = parse_area_name(area.get("name")?.str()?).map_err(bad)?;
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
fn deal_piles(game: &mut Game, spaces: &[Space], rng: &mut GameRng) -> Result<(), SampleError> {
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
        if let Top::FaceUp(id) = s.top {
            mark(id)?;
        }
    }
    // Sorted (by id) before the shuffle, as `resample_hidden` does.
    let mut pool: Vec<DominoId> = (0..DOMINO_COUNT as DominoId)
        .filter(|&id| !seen[id as usize])
        .collect();
    let hidden: usize = spaces
        .iter()
        .map(|s| match s.top {
            Top::FaceUp(_) => s.size.saturating_sub(1),
            _ => s.size,
        })
        .sum();
    if hidden != pool.len() {
        return Err(bad("the piles do not hold the dominoes nobody has seen"));
    }
    rng.shuffle(&mut pool);
    let mut tops: [Option<(DominoId, bool)>; 5] = [None; 5];
    for (s, space) in spaces.iter().enumerate() {
        tops[s] = match &space.top {
            Top::Empty if space.size == 0 => None,
            Top::Empty => return Err(bad("an empty top on a pile")),
            _ if space.size == 0 => return Err(bad("a top on an empty pile")),
            Top::FaceUp(id) => Some((*id, true)),
            Top::FaceDown(back) => {
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
        for _ in 1..space.size {
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
