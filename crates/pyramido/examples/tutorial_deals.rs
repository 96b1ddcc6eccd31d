//! Finds the deals of Pyramido's tutorial steps (issue 48): for each kind of step, the first
//! greedy game (by seed) reaching a position where the pyramid's stage value separates the
//! moves. What it prints is frozen in `src/tutorial.rs`, whose tests replay it.
//! `cargo run -p pyramidion-pyramido --example tutorial_deals`
use pyramidion_core::tutorial::Gain;
use pyramidion_core::tutorial_search::{Wanted, find};
use pyramidion_core::{PlayerCount, Rules, Seat};
use pyramidion_pyramido::{Game, Phase};

/// Which positions are of a step's kind.
type Kind<'a> = &'a dyn Fn(&Game) -> bool;

fn main() {
    let options = PlayerCount { players: 2 };
    let gain = Gain {
        key: "stage_value",
        measure: |g: &Game, s: Seat| i32::from(g.stage_value(s)),
    };
    let kinds: [(&str, Kind, usize, i32); 4] = [
        (
            "mark",
            &|g| g.phase() == Phase::Mark && g.stage() == 1,
            1,
            2,
        ),
        (
            "grow",
            &|g| g.phase() == Phase::Place && g.stage() == 1 && g.ply() > 20,
            2,
            4,
        ),
        ("resurface", &|g| g.phase() == Phase::Resurface, 8, 2),
        (
            "upper",
            &|g| g.phase() == Phase::Place && g.stage() == 2,
            2,
            4,
        ),
    ];
    for (name, kind, max_accepted, min_missed) in kinds {
        let found = find(&Wanted {
            options: &options,
            seeds: 1..400,
            max_plies: 400,
            kind,
            gain,
            max_accepted,
            min_missed,
            teaches: &|accepted| !accepted.iter().any(|m| m == "pass"),
        });
        match found {
            None => println!("{name}: none found"),
            Some(f) => println!(
                "{name}: seed {} seat {} best {} worst {:?}\n  prefix: vec!{:?},\n  accepted: vec!{:?},",
                f.seed, f.seat, f.best, f.worst, f.prefix, f.accepted
            ),
        }
    }
}
