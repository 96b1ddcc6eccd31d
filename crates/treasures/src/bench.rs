//! The engine figures issue #2 asks `pyramidion bench` for: legal placement generation,
//! stage scoring and top-view areas, on positions sampled from seeded random games.
use crate::gems::Gems;
use crate::options::Options;
use crate::state::{Game, Phase};
use pyramidion_core::bench::BenchCase;
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_pyramid::{Dir, Placement, Pyramid};
use std::hint::black_box;

/// Stage-1 pyramids at every fill level, and stage-end (pyramid, gems) pairs, from random games.
fn sample_positions() -> (Vec<Pyramid>, Vec<(Pyramid, Gems)>) {
    let mut stage_one = Vec::new();
    let mut scoring = Vec::new();
    let mut rng = GameRng::from_seed(3);
    let mut scratch = Vec::new();
    for seed in 0..200 {
        let mut game = Game::new(&Options::multiplayer(4), seed).expect("valid");
        while let ToMove::Seat(s) = game.to_move() {
            let p = game.player(s);
            match game.phase() {
                Phase::Place if p.pyramid().stage() == 0 => stage_one.push(p.pyramid().clone()),
                Phase::Activate if game.scoring().is_some_and(|s| s.activations().is_empty()) => {
                    scoring.push((p.pyramid().clone(), p.gems()))
                }
                _ => {}
            }
            let m = game
                .pick_legal_move(&mut scratch, |n| rng.below(n as u32) as usize)
                .expect("a seat to move has a move");
            game.play(&m).expect("legal");
        }
    }
    (stage_one, scoring)
}

fn placements(p: &Pyramid) -> u64 {
    let mut n = 0;
    p.legal(|_| n += 1);
    n
}

/// The counts the figures time, checked first (as shakmaty's benches do).
fn check_counts() {
    let mut p = Pyramid::default();
    assert_eq!(placements(&p), 4, "empty stage 1 must have 4 moves");
    p.place(&Placement::new(4, 4, Dir::E), [Default::default(); 2]);
    assert_eq!(
        placements(&p),
        32,
        "one horizontal domino must leave 32 moves"
    );
}

pub fn cases() -> Vec<BenchCase> {
    check_counts();
    let (stage_one, scoring) = sample_positions();
    let expected: u64 = stage_one.iter().map(placements).sum();
    let scoring_areas = scoring.clone();
    vec![
        BenchCase::new("stage-1 legal placement generation", move || {
            let total: u64 = stage_one.iter().map(|p| placements(black_box(p))).sum();
            assert_eq!(total, expected);
            stage_one.len() as u64
        }),
        BenchCase::new(
            "stage scoring (top view, areas, exact gem allocation)",
            move || {
                for (p, gems) in &scoring {
                    let areas = crate::scoring::scorable_areas(black_box(p));
                    black_box(crate::allocation::best_plan(
                        areas.areas(),
                        u128::MAX,
                        *gems,
                    ));
                }
                scoring.len() as u64
            },
        ),
        BenchCase::new("top-view areas", move || {
            for (p, _) in &scoring_areas {
                black_box(black_box(p).top_view().areas());
            }
            scoring_areas.len() as u64
        }),
    ]
}
