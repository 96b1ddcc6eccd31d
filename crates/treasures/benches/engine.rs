//! `cargo bench -p pyramidion-treasures`: the engine figures of `pyramidion bench`, with
//! divan's statistics. Each bench asserts what it times (after shakmaty's benches).
use divan::{Bencher, black_box};
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_pyramid::{Dir, Placement, Pyramid};
use pyramidion_treasures::allocation::best_plan;
use pyramidion_treasures::scoring::scorable_areas;
use pyramidion_treasures::{Game, Options, SoloMode};

fn main() {
    divan::main();
}

fn random_game(
    options: &Options,
    seed: u64,
    rng: &mut GameRng,
    moves: &mut Vec<pyramidion_treasures::Move>,
) -> Game {
    let mut game = Game::new(options, seed).unwrap();
    while let ToMove::Seat(_) = game.to_move() {
        game.legal_moves(moves);
        let m = moves[rng.below(moves.len() as u32) as usize];
        game.play(&m).unwrap();
    }
    game
}

/// One complete game, setup to final ranking, every decision uniform among the legal moves.
#[divan::bench(args = [1, 2, 3, 4])]
fn random_game_players(bencher: Bencher, players: u8) {
    let options = if players == 1 {
        Options::solo(SoloMode::TheLegend)
    } else {
        Options::multiplayer(players)
    };
    let mut rng = GameRng::from_seed(1);
    let mut moves = Vec::new();
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        let game = random_game(&options, seed, &mut rng, &mut moves);
        assert!(game.outcome().is_some());
        black_box(game)
    });
}

fn stage_one_positions() -> Vec<Pyramid> {
    let mut rng = GameRng::from_seed(2);
    let mut out = Vec::new();
    for _ in 0..100 {
        let mut p = Pyramid::default();
        loop {
            out.push(p.clone());
            let mut moves = Vec::new();
            p.legal(|m| moves.push(m));
            let Some(&m) = moves.get(rng.below(moves.len().max(1) as u32) as usize) else {
                break;
            };
            p.place(&m, Default::default());
        }
    }
    out
}

/// Legal placements of stage 1, averaged over positions at every fill level.
#[divan::bench]
fn stage_one_placements(bencher: Bencher) {
    let positions = stage_one_positions();
    let mut empty = Pyramid::default();
    let count = |p: &Pyramid| {
        let mut n = 0;
        p.legal(|_| n += 1);
        n
    };
    assert_eq!(count(&empty), 4);
    empty.place(&Placement::new(4, 4, Dir::E), Default::default());
    assert_eq!(count(&empty), 32);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % positions.len();
        count(black_box(&positions[i]))
    });
}

/// A stage end: areas of the top view and the exact best gem allocation.
#[divan::bench]
fn stage_scoring(bencher: Bencher) {
    let mut rng = GameRng::from_seed(3);
    let mut moves = Vec::new();
    let finals: Vec<(Pyramid, pyramidion_treasures::Gems)> = (0..50)
        .flat_map(|seed| {
            let g = random_game(&Options::multiplayer(4), seed, &mut rng, &mut moves);
            g.players()
                .iter()
                .map(|p| (p.pyramid().clone(), p.gems()))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % finals.len();
        let (p, gems) = &finals[i];
        let areas = scorable_areas(black_box(p));
        best_plan(areas.areas(), u128::MAX, *gems)
    });
}
