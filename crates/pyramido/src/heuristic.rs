//! Greedy Pyramido (2023): the move with the best immediate gain.
//!
//! A move is judged by the position it leads to for the mover, looking through the rest of
//! the same decision where it has no value of its own (a `take` by the best placement of that
//! domino, a placement by its best marker). The key, compared in order:
//! 1. not eliminated;
//! 2. not doomed: no more forced holes (cells no completion of the stage can fill with
//!    dominoes, see `min_holes`) than unused resurfacing cards;
//! 3. fewer forced holes (each costs a card, and cards are the only insurance);
//! 4. points: stage totals so far plus what the current stage would score now (marked areas
//!    and the Mino bonus);
//! 5. more unused resurfacing cards (so a card is only spent for points).
//!
//! Equal keys are broken with the caller's RNG; refilling the quarry is therefore a coin toss.
use crate::data::{COLOURS, dominoes};
use crate::scoring::{add_marked_area, total_of};
use crate::{
    Game, Move, Phase, PlacementScores, Player, Status, mark_options, min_holes, min_holes_after,
    stage_total,
};
use arrayvec::ArrayVec;
use pyramidion_core::{GameRng, Outcome, Rules, Seat, ToMove};
use pyramidion_pyramid::{Block, Placement, Pyramid, TopView};

type Key = (bool, bool, i8, u16, u8);

/// The key of a pyramid with these markers, holes and cards, for a player with `total` points
/// from completed stages.
fn key_with(
    pyramid: &Pyramid,
    markers: &[Option<u8>; COLOURS],
    total: u16,
    holes: u8,
    cards: u8,
) -> Key {
    key_of_points(total + stage_total(pyramid, markers), holes, cards)
}

fn key_of_points(points: u16, holes: u8, cards: u8) -> Key {
    (true, holes <= cards, -(holes as i8), points, cards)
}

fn key_of(pyramid: &Pyramid, markers: &[Option<u8>; COLOURS], total: u16, cards: u8) -> Key {
    // A full stage has no holes; holes only matter on the stage being built.
    key_with(pyramid, markers, total, min_holes(pyramid) as u8, cards)
}

fn key(game: &Game, seat: Seat) -> Key {
    let player = game.player(seat);
    if player.status() == Status::Eliminated {
        return (false, false, 0, 0, 0);
    }
    key_of(
        player.pyramid(),
        player.markers(),
        player.total(),
        player.unused_cards() as u8,
    )
}

/// The mover's legal placements with the forced holes each leaves (which depend on the cells
/// only, not on the domino: computed once per decision and per pair of cells).
struct Placements<'a> {
    list: Vec<Placement>,
    holes: Vec<u8>,
    /// Scores placements without copying the pyramid, once stage 1's frame is forced.
    scores: Option<PlacementScores<'a>>,
    /// Before that, each placement's placed copy, measured once for every domino (as
    /// `list`; empty once the frame is forced).
    copies: Vec<Copied>,
}

/// A placement weighed before stage 1's frame is forced, when the top view's origin may
/// move with the domino: the view of the pyramid with blank blocks on the domino's cells,
/// where the new blocks and the marked blocks lie on it. Placing a copy of the pyramid and
/// building its view for every domino of a `take` was most of Pyramido's greedy early in
/// stage 1; putting a domino's two blocks on this view gives that same view.
struct Copied {
    view: TopView,
    /// North-west quadrants of the new blocks A and B.
    new: [u32; 2],
    /// North-west quadrant of each marked block, in marker-colour order.
    marked: ArrayVec<u32, COLOURS>,
}

/// What [`min_holes_after`] places: only the cells count.
const BLANK: [Block; 2] = [Block {
    colour: 0,
    icons: 0,
}; 2];

impl Copied {
    /// Placement `p` on `pyramid`, whose view is `view` and whose marked blocks lie at
    /// quadrants `marked`: the view and the quadrants moved with the origin, without copying
    /// the pyramid ([`Pyramid::top_view_after_on`]) once it holds a domino.
    fn new(pyramid: &Pyramid, view: &TopView, marked: &[u32], p: &Placement) -> Copied {
        if let Some((new, (dx, dy))) = pyramid.placement_shift(p) {
            return Copied {
                view: pyramid.top_view_after_on(view, p, BLANK),
                new,
                marked: marked.iter().map(|q| q + dx + 10 * dy).collect(),
            };
        }
        // The first domino: nothing is marked yet.
        let mut placed = pyramid.clone();
        placed.place(p, BLANK);
        let n = placed.blocks().len();
        Copied {
            view: placed.top_view(),
            new: [placed.block_quadrant(n - 2), placed.block_quadrant(n - 1)],
            marked: marked.iter().copied().collect(),
        }
    }
}

impl<'a> Placements<'a> {
    fn new(player: &'a Player) -> Placements<'a> {
        let mut list = Vec::new();
        player.pyramid().legal(|p| list.push(p));
        let pyramid = player.pyramid();
        let scores = PlacementScores::new(pyramid, player.markers());
        // Before the frame, every placement's copy starts from this view and these marked
        // blocks' quadrants, moved with the origin.
        let view = scores.is_none().then(|| pyramid.top_view());
        let marked: ArrayVec<u32, COLOURS> = player
            .markers()
            .iter()
            .flatten()
            .map(|&b| pyramid.block_quadrant(b as usize))
            .collect();
        let mut holes: Vec<u8> = Vec::with_capacity(list.len());
        let mut copies = Vec::new();
        let mut last = None;
        for p in &list {
            let cells = {
                let (bx, by) = p.second().expect("a legal placement");
                let (a, b) = ((p.x, p.y), (bx, by));
                (a.min(b), a.max(b))
            };
            let h = match last {
                Some((c, h)) if c == cells => h,
                _ => min_holes_after(pyramid, p) as u8,
            };
            last = Some((cells, h));
            holes.push(h);
            if let Some(view) = &view {
                copies.push(Copied::new(pyramid, view, &marked, p));
            }
        }
        Placements {
            list,
            holes,
            scores,
            copies,
        }
    }

    fn index_of(&self, p: &Placement) -> usize {
        self.list
            .iter()
            .position(|q| q == p)
            .expect("a legal placement")
    }

    /// What [`placement_key`] needs of placement `i` of `list`, besides the domino.
    fn weighed(&self, i: usize) -> (Weighed<'_>, u8) {
        let how = match &self.scores {
            Some(scores) => Weighed::Incremental(scores),
            None => Weighed::Copy(&self.copies[i]),
        };
        (how, self.holes[i])
    }
}

/// How a placement is scored: incrementally once the frame is forced, on its copy before.
enum Weighed<'a> {
    Incremental(&'a PlacementScores<'a>),
    Copy(&'a Copied),
}

/// Placing `domino` at `p`, then the best marker choice (the engine's rule: one marker, on a
/// block whose jewel colour's marker is free). Scored without copying the pyramid once its
/// origin is fixed ([`PlacementScores`]); before that, on the view of a copy placed once per
/// decision ([`Copied`]): cloning the whole game for each of the ~100 placements of a `take`
/// would cost most of the time.
fn placement_key(player: &Player, how: Weighed, domino: u8, p: &Placement, holes: u8) -> Key {
    let blocks = dominoes()[domino as usize].blocks;
    let cards = player.unused_cards() as u8;
    let key = |points: u16| key_of_points(player.total() + points, holes, cards);
    let copied = match how {
        Weighed::Incremental(scores) => {
            let after = scores.after(p, blocks);
            let options = mark_options(p.orient(blocks), player.markers());
            return if options == 0 {
                key(after.total(None))
            } else {
                (0..2)
                    .filter(|side| options >> side & 1 == 1)
                    .map(|side| key(after.total(Some(side))))
                    .max()
                    .expect("one option at least")
            };
        }
        Weighed::Copy(copied) => copied,
    };
    let new = p.orient(blocks);
    let mut top = copied.view;
    top.cover(copied.new[0], new[0]);
    top.cover(copied.new[1], new[1]);
    // The areas already marked measured once for both marker choices: a new marker's colour
    // is free, so it only adds its own area.
    let mut marked = ArrayVec::new();
    for &q in &copied.marked {
        add_marked_area(&mut marked, &top, q);
    }
    let options = mark_options(new, player.markers());
    if options == 0 {
        return key(total_of(&marked));
    }
    (0..2)
        .filter(|side| options >> side & 1 == 1)
        .map(|side| {
            let mut areas = marked.clone();
            add_marked_area(&mut areas, &top, copied.new[side]);
            key(total_of(&areas))
        })
        .max()
        .expect("one option at least")
}

/// Covering block `index` with a card side (marked when that colour's marker is free).
fn resurface_key(player: &Player, index: usize, colour: u8, quadrant: u8) -> Key {
    let mut pyramid = player.pyramid().clone();
    pyramid.replace_block(
        index,
        Block {
            colour,
            icons: 1 << quadrant,
        },
    );
    let mut markers = *player.markers();
    if markers[colour as usize].is_none() {
        markers[colour as usize] = Some(index as u8);
    }
    key_of(
        &pyramid,
        &markers,
        player.total(),
        player.unused_cards() as u8 - 1,
    )
}

fn evaluate(game: &Game, seat: Seat, m: Move, placements: &Option<Placements>) -> Key {
    let player = game.player(seat);
    match m {
        Move::Take(slot) => {
            let domino = game.quarry()[slot as usize].expect("a legal take");
            let all = placements.as_ref().expect("placements computed");
            all.list
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let (how, holes) = all.weighed(i);
                    placement_key(player, how, domino, p, holes)
                })
                .max()
                .expect("a placement")
        }
        Move::Place(p) => {
            let all = placements.as_ref().expect("placements computed");
            let domino = game.held().expect("a domino to place");
            let (how, holes) = all.weighed(all.index_of(&p));
            placement_key(player, how, domino, &p, holes)
        }
        Move::Resurface {
            side,
            colour,
            quadrant,
        } => {
            let index = game.new_blocks().expect("resurfacing the new domino") + side.index();
            resurface_key(player, index, colour, quadrant)
        }
        _ => {
            let mut next = game.clone();
            next.play_unchecked(&m);
            key(&next, seat)
        }
    }
}

/// The greedy policy's move for the seat to move ([`pyramidion_core::BotHooks::greedy_move`]);
/// `None` when the game is over.
pub(crate) fn greedy_move(game: &Game, rng: &mut GameRng) -> Option<Move> {
    let ToMove::Seat(seat) = game.to_move() else {
        return None;
    };
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.len() == 1 || game.phase() == Phase::Refill {
        return Some(moves[rng.below(moves.len() as u32) as usize]);
    }
    Some(best_move(game, seat, &moves, rng))
}

/// The move of `moves` (legal, not empty) with the best key, ties uniformly.
fn best_move(game: &Game, seat: Seat, moves: &[Move], rng: &mut GameRng) -> Move {
    let placements = matches!(game.phase(), Phase::Take | Phase::Place)
        .then(|| Placements::new(game.player(seat)));
    let mut best: Vec<Move> = Vec::new();
    let mut best_key = None;
    for &m in moves {
        let k = evaluate(game, seat, m, &placements);
        if best_key.is_none_or(|b| k > b) {
            best_key = Some(k);
            best.clear();
        }
        if best_key == Some(k) {
            best.push(m);
        }
    }
    best[rng.below(best.len() as u32) as usize]
}

/// The move of `candidates` with the best key ([`pyramidion_core::BotHooks::favourite_move`]).
pub(crate) fn favourite(game: &Game, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
    let ToMove::Seat(seat) = game.to_move() else {
        return None;
    };
    // Refills have no key worth ranking (greedy draws them at random too).
    (game.phase() != Phase::Refill).then(|| best_move(game, seat, candidates, rng))
}

/// Every stage end scores every player, and what a stage scores is mostly decided by the
/// stage itself: once `stages` stage ends have passed, the points banked rank the seats
/// ([`pyramidion_core::BotHooks::playout_horizon`]).
pub(crate) fn horizon(root: &Game, state: &Game, stages: u8) -> Option<Outcome> {
    (stages > 0 && state.stage() >= root.stage().saturating_add(stages)).then(|| state.standings())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use pyramidion_testkit::players::{GreedyPlayer as Greedy, RandomPlayer};

    fn play(options: &Options, seed: u64, greedy_seats: &[u8]) -> Game {
        let mut game = Game::new(options, seed).unwrap();
        let mut greedy = Greedy::new(seed);
        let mut random = RandomPlayer::<Move>::new(seed);
        while let ToMove::Seat(s) = game.to_move() {
            let m = if greedy_seats.contains(&s.0) {
                greedy.choose(&game)
            } else {
                random.choose(&game)
            };
            game.play(&m)
                .unwrap_or_else(|e| panic!("seed {seed}: {m}: {e}"));
        }
        game
    }

    #[test]
    fn greedy_plays_legal_moves_and_beats_random() {
        let options = Options::players(2);
        let mut wins = 0;
        for seed in 0..40 {
            let game = play(&options, seed, &[seed as u8 % 2]);
            let outcome = game.outcome().unwrap();
            if outcome.ranks[(seed % 2) as usize] == 0 {
                wins += 1;
            }
        }
        assert!(wins >= 36, "greedy won {wins} of 40");
    }

    #[test]
    fn greedy_games_reach_the_end_and_score() {
        let options = Options::players(4);
        let mut complete = 0;
        let mut scores = 0;
        for seed in 0..12 {
            let game = play(&options, seed, &[0, 1, 2, 3]);
            if game.players().iter().all(|p| p.scores().len() == 4) {
                complete += 1;
            }
            scores += game.outcome().unwrap().scores.iter().sum::<i32>();
        }
        assert!(
            complete >= 6,
            "{complete} of 12 greedy games went the distance"
        );
        assert!(scores / 48 > 40, "mean score {}", scores / 48);
    }

    /// A playout stops once the given number of stage ends have passed since its root, and
    /// counts the points banked then, ranked as the game's end ranks them; never before.
    #[test]
    fn the_horizon_is_the_stage_ends_banked_ranked_like_the_end() {
        let options = Options::players(3);
        let mut stopped = 0;
        for seed in 0..20 {
            let root = Game::new(&options, seed).unwrap();
            let mut greedy = Greedy::new(seed);
            let mut game = root.clone();
            while let ToMove::Seat(_) = game.to_move() {
                for stages in 0..=3u8 {
                    let cut = horizon(&root, &game, stages);
                    if stages == 0 || game.stage() < stages {
                        assert_eq!(cut, None, "seed {seed}, stage {}", game.stage());
                        continue;
                    }
                    let cut = cut.expect("past the horizon");
                    let banked: Vec<i32> =
                        game.players().iter().map(|p| p.total() as i32).collect();
                    assert_eq!(cut.scores, banked);
                    assert_eq!(cut, game.standings());
                    stopped += 1;
                }
                let m = greedy.choose(&game);
                game.play(&m).unwrap();
            }
            // At the end, the standings are the outcome.
            assert_eq!(game.outcome(), Some(game.standings()));
        }
        assert!(stopped > 1000, "{stopped}");
    }

    /// Greedy's key of a placement as it was computed before the shared view: every marker
    /// choice scored on the placed copy from scratch (`stage_total`).
    fn placement_key_reference(player: &Player, domino: u8, p: &Placement, holes: u8) -> Key {
        let blocks = dominoes()[domino as usize].blocks;
        let cards = player.unused_cards() as u8;
        let mut pyramid = player.pyramid().clone();
        pyramid.place(p, blocks);
        let a = pyramid.blocks().len() - 2;
        let new = [pyramid.blocks()[a].block, pyramid.blocks()[a + 1].block];
        let options = mark_options(new, player.markers());
        (0..2)
            .filter(|side| options == 0 || options >> side & 1 == 1)
            .map(|side| {
                let mut markers = *player.markers();
                if options != 0 {
                    markers[new[side].colour as usize] = Some((a + side) as u8);
                }
                key_with(&pyramid, &markers, player.total(), holes, cards)
            })
            .max()
            .expect("one option at least")
    }

    /// At every decision of seeded games (2 to 4 players, greedy and random moves), every
    /// placement of every domino in the quarry gets the reference's key, before stage 1's
    /// frame is forced (a placed copy) and after it (incremental scores).
    #[test]
    fn placement_keys_are_the_reference_keys() {
        let (mut copies, mut incremental) = (0usize, 0usize);
        for seed in 0..60u64 {
            let options = Options::players(2 + (seed % 3) as u8);
            let mut game = Game::new(&options, seed).unwrap();
            let mut rng = GameRng::from_seed(seed + 77);
            let mut scratch = Vec::new();
            while let ToMove::Seat(seat) = game.to_move() {
                let player = game.player(seat);
                if player.status() != Status::Eliminated {
                    let all = Placements::new(player);
                    for domino in game.quarry().into_iter().flatten() {
                        for (i, p) in all.list.iter().enumerate() {
                            let (how, h) = all.weighed(i);
                            assert_eq!(h as u32, min_holes_after(player.pyramid(), p));
                            assert_eq!(
                                placement_key(player, how, domino, p, h),
                                placement_key_reference(player, domino, p, h),
                                "seed {seed}, {p:?}"
                            );
                            if all.scores.is_some() {
                                incremental += 1;
                            } else {
                                copies += 1;
                            }
                        }
                    }
                }
                let m = if rng.below(2) == 0 {
                    greedy_move(&game, &mut rng).unwrap()
                } else {
                    game.pick_legal_move(&mut scratch, |n| rng.below(n as u32) as usize)
                        .unwrap()
                };
                game.play(&m).unwrap();
            }
        }
        assert!(copies > 20_000, "only {copies} placements before the frame");
        assert!(
            incremental > 20_000,
            "only {incremental} placements after it"
        );
    }

    #[test]
    fn greedy_is_reproducible() {
        let options = Options::players(3);
        let a = play(&options, 5, &[0, 1, 2]);
        let b = play(&options, 5, &[0, 1, 2]);
        assert_eq!(a, b);
    }
}
