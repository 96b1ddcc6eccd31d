//! Finds the deals of Pyramids' tutorial steps (issue 48): the first greedy game (by seed)
//! reaching a Pyramid or Obelisk card whose place separates the learner's visible points; and
//! the legal moves of the first decision. What it prints is frozen in `src/tutorial.rs`, whose
//! tests replay it. `cargo run -p pyramidion-pyramids --example tutorial_deals`
use pyramidion_core::Rules;
use pyramidion_core::tutorial_search::{Wanted, find};
use pyramidion_pyramids::tutorial::VISIBLE_POINTS;
use pyramidion_pyramids::{Game, Options, Phase};

/// Which positions are of a step's kind.
type Kind<'a> = &'a dyn Fn(&Game) -> bool;

fn main() {
    let options = Options::default();
    let kinds: [(&str, Kind, usize, i32, &str); 2] = [
        (
            "pyramid",
            &|g| g.phase() == Phase::BuildPyramid,
            2,
            2,
            "pyramid",
        ),
        (
            "obelisk",
            &|g| g.phase() == Phase::BuildMore,
            2,
            2,
            "obelisk",
        ),
    ];
    for (name, kind, max_accepted, min_missed, word) in kinds {
        let found = find(&Wanted {
            options: &options,
            seeds: 1..400,
            max_plies: 400,
            kind,
            gain: VISIBLE_POINTS,
            max_accepted,
            min_missed,
            teaches: &|accepted| accepted.iter().all(|m| m.starts_with(word)),
        });
        match found {
            None => println!("{name}: none found"),
            Some(f) => println!(
                "{name}: seed {} seat {} best {} worst {:?}\n  prefix: vec!{:?},\n  accepted: vec!{:?},",
                f.seed, f.seat, f.best, f.worst, f.prefix, f.accepted
            ),
        }
    }
    let mut g = Game::new(&options, 1).expect("a game");
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    let texts: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
    println!("{:?} seat {:?}: vec!{texts:?}", g.phase(), g.to_move());
    g.play_unchecked(&legal[0]);
}
