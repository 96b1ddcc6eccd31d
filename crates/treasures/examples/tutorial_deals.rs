//! Finds the deals of Forgotten Treasures' tutorial steps (issue 48): the first greedy game
//! (by seed) reaching a stage end where the activations the learner chooses separate the
//! points, in a duel and in a solo game against THE Legend; and the legal moves of the first
//! turn. What it prints is frozen in `src/tutorial.rs`, whose tests replay it.
//! `cargo run -p pyramidion-treasures --example tutorial_deals`
use pyramidion_core::Rules;
use pyramidion_core::tutorial_search::{Wanted, find};
use pyramidion_treasures::{Game, Options, Phase, SoloMode};

fn main() {
    let gain = pyramidion_treasures::tutorial::STAGE_POINTS;
    for (name, options) in [
        ("activate", Options::multiplayer(2)),
        ("legend", Options::solo(SoloMode::TheLegend)),
    ] {
        let found = find(&Wanted {
            options: &options,
            seeds: 1..400,
            max_plies: 400,
            kind: &|g: &Game| g.phase() == Phase::Activate,
            gain,
            max_accepted: 6,
            min_missed: 2,
            teaches: &|accepted| !accepted.iter().any(|m| m == "done"),
        });
        match found {
            None => println!("{name}: none found"),
            Some(f) => println!(
                "{name}: seed {} seat {} best {} worst {:?}\n  prefix: vec!{:?},\n  accepted: vec!{:?},",
                f.seed, f.seat, f.best, f.worst, f.prefix, f.accepted
            ),
        }
    }
    let mut g = Game::new(&Options::multiplayer(2), 1).expect("a duel");
    let mut legal = Vec::new();
    for _ in 0..2 {
        g.legal_moves(&mut legal);
        let texts: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
        println!("{:?}: vec!{texts:?}", g.phase());
        g.play_unchecked(&legal[0]);
    }
}
