use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_treasures::{Game, Options};
fn main() {
    let mut calls = std::collections::BTreeMap::new();
    let mut rng = GameRng::from_seed(1);
    let mut v = Vec::new();
    for seed in 0..2000 {
        let mut g = Game::new(&Options::multiplayer(4), seed).unwrap();
        while let ToMove::Seat(_) = g.to_move() {
            g.legal_moves(&mut v);
            let e = calls
                .entry(format!("{:?}", g.phase()))
                .or_insert((0u64, 0u64));
            e.0 += 1;
            e.1 += v.len() as u64;
            let m = v[rng.below(v.len() as u32) as usize];
            g.play(&m).unwrap();
        }
    }
    for (k, (c, n)) in calls {
        println!(
            "{k}: {:.1} calls/game, {:.1} moves/call",
            c as f64 / 2000.0,
            n as f64 / c as f64
        );
    }
}
