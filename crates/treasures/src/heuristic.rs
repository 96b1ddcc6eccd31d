//! Greedy for Forgotten Treasures: every decision maximises the stage score the player would
//! get if the stage ended right now (exact best gem allocation over the current top view).
use crate::allocation::{best_plan, best_points};
use crate::state::{Phase, SPACES, STAGES, ScorableArea};
use crate::{Game, Gem, Gems, Move, data, legend_pick};
use arrayvec::ArrayVec;
use pyramidion_core::{GameRng, Rules};
use pyramidion_pyramid::topview::{MAX_AREAS, TopView};
use pyramidion_pyramid::{Block, Pyramid};

/// The areas a top view would score, on the stack and in the order the flood fill finds them
/// (the best allocation does not depend on it): the search bot's playouts call it for every
/// placement they weigh.
fn scoring_areas(view: &TopView) -> ArrayVec<ScorableArea, MAX_AREAS> {
    let mut areas: ArrayVec<ScorableArea, MAX_AREAS> = ArrayVec::new();
    view.for_each_scoring_area_unordered(|colour, icons, anchor| {
        areas.push(ScorableArea {
            anchor,
            colour,
            icons,
        })
    });
    areas
}

/// Stage points of a top view with `gems`.
fn view_value(view: &TopView, gems: Gems) -> u32 {
    best_points(&scoring_areas(view), gems)
}

/// Best value over every legal placement of `domino`, for each inventory in `inventories`.
/// A placement's areas are found once for all the inventories: the flood fill was half of
/// a Forgotten Treasures analysis when it ran once per inventory (`perf record` on
/// `pyramidion analyse-check --game forgotten-treasures`).
fn best_placements(pyramid: &Pyramid, domino: [Block; 2], inventories: &[Gems]) -> Vec<u32> {
    let mut best = vec![0; inventories.len()];
    pyramid.legal(|p| {
        let areas = scoring_areas(&pyramid.top_view_after(&p, domino));
        for (b, gems) in best.iter_mut().zip(inventories) {
            *b = (*b).max(best_points(&areas, *gems));
        }
    });
    best
}

/// Uniform among the moves of highest score.
fn pick_best<M: Copy>(scored: &[(M, i64)], rng: &mut GameRng) -> M {
    let top = scored.iter().map(|(_, s)| *s).max().expect("a move");
    let best: Vec<M> = scored
        .iter()
        .filter(|(_, s)| *s == top)
        .map(|(m, _)| *m)
        .collect();
    best[rng.below(best.len() as u32) as usize]
}

/// The move of `candidates` with the best immediate gain
/// ([`pyramidion_core::BotHooks::favourite_move`]).
pub(crate) fn favourite(game: &Game, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
    let player = game.player(game.current());
    let gems = player.gems();
    let scored: Vec<(Move, i64)> = match game.phase() {
        Phase::Take => {
            // Each space's placements are weighed once, for every candidate gem there.
            let mut scored = Vec::with_capacity(candidates.len());
            for space in 0..5u8 {
                let takes: Vec<Move> = candidates
                    .iter()
                    .copied()
                    .filter(|m| matches!(m, Move::Take { space: s, .. } if *s == space))
                    .collect();
                let Some(id) = game.piles()[space as usize].face_up_top() else {
                    continue;
                };
                if takes.is_empty() {
                    continue;
                }
                let inventories: Vec<Gems> = takes.iter().map(|m| after_take(gems, m)).collect();
                let values = best_placements(player.pyramid(), data::get(id).blocks, &inventories);
                scored.extend(takes.into_iter().zip(values).map(|(take, value)| {
                    (take, i64::from(value) - legend_gain_after_take(game, &take))
                }));
            }
            scored
        }
        Phase::Place => {
            let domino = game.hand_domino()?.blocks;
            candidates
                .iter()
                .map(|m| match m {
                    Move::Place(p) => {
                        let view = player.pyramid().top_view_after(p, domino);
                        (*m, view_value(&view, gems) as i64)
                    }
                    _ => (*m, i64::MIN),
                })
                .collect()
        }
        Phase::Activate => {
            let plan = greedy_move(game, rng);
            return candidates.contains(&plan).then_some(plan);
        }
        Phase::Discard => candidates
            .iter()
            .map(|m| (*m, discard_value(player.pyramid(), m)))
            .collect(),
        // Alone against THE Legend, the pile flipped decides which gem area he sees next.
        Phase::Flip if game.legend().is_some() => {
            let face_up = game.face_up_spaces();
            candidates
                .iter()
                .map(|m| match m {
                    Move::Flip { pile } => (
                        *m,
                        -legend_gain(game, face_up | 1 << pile, game.gem_areas()),
                    ),
                    _ => (*m, i64::MIN),
                })
                .collect()
        }
        Phase::Flip | Phase::Over => return None,
    };
    (!scored.is_empty()).then(|| pick_best(&scored, rng))
}

/// What THE Legend's next turn would be worth to him, in final points, if he saw the spaces
/// of `face_up` with these gem areas; 0 outside solo games. His picks are public and
/// deterministic ([`legend_pick`]): a coloured gem scores the current stage's number at its
/// end, a Mythical 2 at the end of this stage and of every later one. (His domino, and so
/// his later wishes, and the "THE Legend" blind draws are left out: a cheap estimate for a
/// playout policy, not a forecast.)
fn legend_gain(game: &Game, face_up: u8, areas: &[Gems; SPACES]) -> i64 {
    let Some(top) = game.legend().and_then(|l| l.pile().last()) else {
        return 0;
    };
    let pick = legend_pick(data::get(*top).icon_colours(), areas, face_up);
    let (coloured, mythical) = pick.taken.iter().fold((0, 0), |(c, m), g| {
        (c + g.coloured() as i64, m + g.mythical() as i64)
    });
    let stage = i64::from(game.stage());
    coloured * (stage + 1) + mythical * 2 * (i64::from(STAGES) - stage)
}

/// THE Legend's gain after the player takes `take` and then flips the pile that gives him
/// the least (what this greedy flips): taking a face-up domino hides that space until a
/// pile is flipped, and taking a gem denies it to him. A gem area emptied by the take is
/// refilled from the bag, unseen: counted as empty.
fn legend_gain_after_take(game: &Game, take: &Move) -> i64 {
    let Move::Take { space, gem } = *take else {
        return 0;
    };
    if game.legend().is_none() {
        return 0;
    }
    let s = space as usize;
    let mut areas = *game.gem_areas();
    if let Some(g) = gem {
        areas[s].remove(g, 1);
    }
    let face_up = game.face_up_spaces() & !(1 << s);
    let piles = game.piles();
    (0..SPACES)
        .filter(|&p| {
            if p == s {
                piles[p].len() > 1
            } else {
                piles[p].flippable()
            }
        })
        .map(|p| legend_gain(game, face_up | 1 << p, &areas))
        .min()
        .unwrap_or_else(|| legend_gain(game, face_up, &areas))
}

/// The inventory after taking `take`'s gem (if any).
fn after_take(gems: Gems, take: &Move) -> Gems {
    match take {
        Move::Take { gem: Some(g), .. } => {
            let mut after = gems;
            after.add(*g, 1);
            after
        }
        _ => gems,
    }
}

/// How good discarding is: keep Mythicals (1 point each, pay for any colour); drop the colour
/// with the fewest visible icons on the pyramid.
fn discard_value(pyramid: &Pyramid, m: &Move) -> i64 {
    let top = pyramid.top_view();
    match m {
        Move::Discard(Gem::Mythical) => -1000,
        Move::Discard(g) => {
            -((top.colour_board(g.index() as u8) & top.icons()).count_ones() as i64)
        }
        _ => i64::MIN,
    }
}

/// The greedy policy's move for the seat to move ([`pyramidion_core::BotHooks::greedy_move`]).
pub(crate) fn greedy_move(game: &Game, rng: &mut GameRng) -> Move {
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    match game.phase() {
        // Takes, placements and discards are scored by `favourite`, over every legal move.
        Phase::Take | Phase::Place | Phase::Discard => {
            favourite(game, &legal, rng).expect("greedy scores every take, placement and discard")
        }
        Phase::Activate => {
            let gems = game.player(game.current()).gems();
            let scoring = game.scoring().expect("scoring");
            let activated: u128 = scoring
                .areas()
                .iter()
                .enumerate()
                .filter(|(_, a)| scoring.activations().iter().any(|(x, _)| *x == a.anchor))
                .fold(0, |m, (i, _)| m | 1 << i);
            let plan = best_plan(scoring.areas(), !activated, gems);
            match plan.activations.first() {
                Some(&(area, payment)) => Move::Activate { area, payment },
                None => Move::Done,
            }
        }
        Phase::Flip if game.legend().is_some() => {
            favourite(game, &legal, rng).expect("greedy scores every flip in solo")
        }
        // No immediate gain to compare: any face-down pile.
        Phase::Flip | Phase::Over => legal[rng.below(legal.len() as u32) as usize],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, SoloMode};
    use pyramidion_core::ToMove;
    use pyramidion_testkit::players::{GreedyPlayer as Greedy, RandomPlayer};

    fn play_out(seed: u64) -> Vec<i32> {
        let mut game = Game::new(&Options::multiplayer(2), seed).unwrap();
        let mut greedy = Greedy::new(seed);
        let mut random = RandomPlayer::new(seed);
        while let ToMove::Seat(s) = game.to_move() {
            let m = if s.0 == 0 {
                greedy.choose(&game)
            } else {
                random.choose(&game)
            };
            game.play(&m).unwrap();
        }
        game.outcome().unwrap().scores
    }

    #[test]
    fn greedy_beats_random() {
        let games = 30;
        let wins = (0..games).filter(|&s| {
            let scores = play_out(s);
            scores[0] > scores[1]
        });
        assert!(
            wins.count() >= 25,
            "greedy should win nearly every game against random"
        );
    }

    /// The value greedy gives a placement: the stage points right after it.
    fn placement_value(game: &Game, m: &Move) -> u32 {
        let Move::Place(p) = m else { unreachable!() };
        let player = game.player(game.current());
        let mut after = player.pyramid().clone();
        after.place(p, game.hand_domino().unwrap().blocks);
        view_value(&after.top_view(), player.gems())
    }

    #[test]
    fn favourite_is_the_best_of_the_candidates_it_is_given() {
        let mut checked = 0;
        for seed in 0..10 {
            let mut game = Game::new(&Options::multiplayer(2), seed).unwrap();
            let mut greedy = Greedy::new(seed);
            let mut legal = Vec::new();
            while let ToMove::Seat(_) = game.to_move() {
                game.legal_moves(&mut legal);
                if game.phase() == Phase::Place && legal.len() > 2 {
                    let best = legal
                        .iter()
                        .map(|m| placement_value(&game, m))
                        .max()
                        .unwrap();
                    let fav = favourite(&game, &legal, &mut greedy.rng).unwrap();
                    assert_eq!(placement_value(&game, &fav), best, "seed {seed}");
                    // Without the best moves, the favourite is the best of the rest.
                    let rest: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| placement_value(&game, m) < best)
                        .collect();
                    if let Some(next) = rest.iter().map(|m| placement_value(&game, m)).max() {
                        let fav = favourite(&game, &rest, &mut greedy.rng).unwrap();
                        assert!(rest.contains(&fav));
                        assert_eq!(placement_value(&game, &fav), next, "seed {seed}");
                        checked += 1;
                    }
                }
                if game.phase() == Phase::Take {
                    let fav = favourite(&game, &legal, &mut greedy.rng).unwrap();
                    assert!(legal.contains(&fav));
                }
                let m = greedy.choose(&game);
                game.play(&m).unwrap();
            }
        }
        assert!(
            checked > 20,
            "only {checked} placements with a second-best move"
        );
    }

    /// What THE Legend's last turn brought him, valued as the greedy values it (coloured gems
    /// score the stage's number, Mythicals 2 at this and every later stage end); his blind
    /// draw, which no flip changes, left out.
    fn legend_turn_value(game: &Game) -> i64 {
        let turn = game.legend().unwrap().last_turn().unwrap();
        let mut gems = turn.gems;
        if let Some(g) = turn.drew {
            gems.remove(g, 1);
        }
        let stage = i64::from(game.stage());
        gems.coloured() as i64 * (stage + 1) + i64::from(gems.mythical()) * 2 * (4 - stage)
    }

    #[test]
    fn alone_against_the_legend_greedy_flips_the_pile_that_gives_him_least() {
        let mut checked = 0;
        for seed in 0..30 {
            let mut game = Game::new(&Options::solo(SoloMode::TheLegend), seed).unwrap();
            let mut greedy = Greedy::new(seed);
            let mut legal = Vec::new();
            while let ToMove::Seat(_) = game.to_move() {
                game.legal_moves(&mut legal);
                if game.phase() == Phase::Flip && legal.len() > 1 {
                    let flip = greedy.choose(&game);
                    // Each flip, then the same placement, then his turn, played by the rules.
                    let after = |m: &Move| {
                        let mut g = game.clone();
                        g.play(m).unwrap();
                        let place = Greedy::new(seed).choose(&g);
                        let stage = g.stage();
                        g.play(&place).unwrap();
                        (g.stage() == stage && g.phase() == Phase::Take)
                            .then(|| legend_turn_value(&g))
                    };
                    if let Some(chosen) = after(&flip) {
                        for m in &legal {
                            assert!(chosen <= after(m).unwrap(), "seed {seed}: {m:?}");
                        }
                        checked += 1;
                    }
                }
                let m = greedy.choose(&game);
                game.play(&m).unwrap();
            }
        }
        assert!(checked > 300, "only {checked} flips checked");
    }

    #[test]
    fn foreseeing_the_legend_makes_greedy_a_match_for_him() {
        // Without foresight greedy won 17 of 1,000 games against THE Legend; with it, 426
        // (`pyramidion sim --solo the-legend --bots greedy --games 1000 --seed 1`).
        let games = 200;
        let wins = (0..games)
            .filter(|&seed| {
                let mut game = Game::new(&Options::solo(SoloMode::TheLegend), seed).unwrap();
                let mut greedy = Greedy::new(seed);
                while let ToMove::Seat(_) = game.to_move() {
                    let m = greedy.choose(&game);
                    game.play(&m).unwrap();
                }
                game.outcome().unwrap().ranks[0] == 0
            })
            .count();
        assert!(
            wins >= 50,
            "greedy won only {wins} of {games} against THE Legend"
        );
    }

    #[test]
    fn stage_end_scores_exactly_the_best_plan() {
        let mut checked = 0;
        for seed in 0..20 {
            let mut game = Game::new(&Options::multiplayer(2), seed).unwrap();
            let mut bots = [Greedy::new(seed), Greedy::new(seed + 1)];
            while let ToMove::Seat(s) = game.to_move() {
                if game.phase() == Phase::Activate
                    && game.scoring().unwrap().activations().is_empty()
                {
                    let player = game.player(s);
                    let expected =
                        best_plan(game.scoring().unwrap().areas(), u128::MAX, player.gems()).points;
                    let stage = game.stage() as usize;
                    while game.phase() == Phase::Activate && game.current() == s {
                        let m = bots[s.index()].choose(&game);
                        game.play(&m).unwrap();
                    }
                    assert_eq!(game.player(s).stage_scores()[stage] as u32, expected);
                    checked += 1;
                    continue;
                }
                let m = bots[s.index()].choose(&game);
                game.play(&m).unwrap();
            }
        }
        assert_eq!(checked, 20 * 2 * 4);
    }
}
