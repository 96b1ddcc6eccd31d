//! What the table shows at and after a stage end: the engine's best allocation offered to the
//! seat being scored, and the per-area breakdown of every stage already scored.
use pyramidion_core::{GameRng, Rules, Seat, ToMove};
use pyramidion_treasures::state::Phase;
use pyramidion_treasures::{Game, Move, Options, SoloMode, View};

fn random_until_scoring(g: &mut Game, rng: &mut GameRng) {
    let mut moves = Vec::new();
    while g.phase() != Phase::Activate && g.phase() != Phase::Over {
        g.legal_moves(&mut moves);
        let m = moves[rng.below(moves.len() as u32) as usize];
        g.play(&m).unwrap();
    }
}

/// A table of `players` (alone: against THE Legend).
fn table(players: u8) -> Options {
    Options {
        players,
        solo: (players == 1).then_some(SoloMode::TheLegend),
    }
}

/// Plays `best` as offered and checks the stage total and breakdown it promised.
#[test]
fn best_allocation_reaches_its_announced_total_and_the_breakdown_adds_up() {
    let mut checked = 0;
    for seed in 0..40u64 {
        let players = 1 + (seed % 4) as u8;
        let mut g = Game::new(&table(players), seed).unwrap();
        let mut rng = GameRng::from_seed(seed ^ 0x5eed);
        loop {
            random_until_scoring(&mut g, &mut rng);
            if g.phase() == Phase::Over {
                break;
            }
            let ToMove::Seat(seat) = g.to_move() else {
                unreachable!("a scorer")
            };
            let stage = View::of(&g, Some(seat)).envelope.stage;
            // Until the scorer says `done`, its points for this stage are not shown.
            assert_eq!(
                View::of(&g, None).envelope.seats[seat.0 as usize]
                    .summary
                    .points_of_stage(stage),
                None,
                "seed {seed}: scored before done"
            );
            let scoring = View::of(&g, Some(seat)).scoring.expect("scoring view");
            assert_eq!(scoring.seat, seat);
            // Nobody else is told how this seat could score (only the scored seat asks).
            let other = Seat((seat.0 + 1) % players);
            if other != seat {
                assert!(View::of(&g, Some(other)).scoring.unwrap().best.is_empty());
            }
            assert!(View::of(&g, None).scoring.unwrap().best.is_empty());
            // Sometimes activate a legal area first: the offer must complete what is done.
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            if seed % 2 == 0 && matches!(moves[0], Move::Activate { .. }) {
                g.play(&moves[0]).unwrap();
            }
            let offer = View::of(&g, Some(seat)).scoring.unwrap();
            for best in &offer.best {
                let text = &best.text;
                let m: Move = text.parse().unwrap();
                g.play(&m)
                    .unwrap_or_else(|e| panic!("seed {seed}: {text}: {e}"));
            }
            let activated = View::of(&g, Some(seat))
                .scoring
                .unwrap()
                .areas
                .iter()
                .filter(|a| a.activation.is_some())
                .count();
            g.play(&Move::Done).unwrap();
            let view = View::of(&g, Some(seat));
            let me = &view.envelope.seats[seat.0 as usize];
            let score = me.summary.points_of_stage(stage).expect("scored");
            assert_eq!(score as u32, offer.best_total, "seed {seed} stage {stage}");
            // Once it has, its stage points show at once (its total already counts them), to
            // every seat, while the seats after it are still to score.
            for viewer in [Some(seat), None] {
                assert_eq!(
                    View::of(&g, viewer).envelope.seats[seat.0 as usize]
                        .summary
                        .points_of_stage(stage),
                    Some(score),
                    "seed {seed} stage {stage}: points of a seat that has scored"
                );
            }
            let from_areas: Vec<_> = me
                .scored_areas
                .iter()
                .filter(|a| a.stage == stage)
                .collect();
            assert_eq!(from_areas.len(), activated, "seed {seed}");
            let area_points: u16 = from_areas.iter().map(|a| a.points).sum();
            assert_eq!(
                i32::from(area_points + me.gems.mythical() as u16),
                score,
                "seed {seed}: areas plus Mythicals kept make the stage score"
            );
            checked += 1;
            // Finish the remaining stage-end moves (other scorers, discards) at random.
            while matches!(g.phase(), Phase::Discard) {
                g.legal_moves(&mut moves);
                g.play(&moves[rng.below(moves.len() as u32) as usize])
                    .unwrap();
            }
        }
        if let Some(legend) = View::of(&g, None).legend {
            assert_eq!(legend.scored.len(), 4);
            for (s, scored) in legend.scored.iter().enumerate() {
                let expected = pyramidion_treasures::legend_stage_points(
                    s as u8,
                    scored.coloured as u32,
                    scored.mythical as u32,
                );
                let automa = View::of(&g, None).automa.expect("THE Legend's line");
                assert_eq!(automa.stage_points[s], Some(expected as i32), "seed {seed}");
                assert_eq!(scored.points, expected, "seed {seed}");
            }
        }
    }
    assert!(checked > 100, "{checked} stage ends checked");
}

/// The scored seat's view lists, per open area, exactly the payments its legal moves offer
/// (with their points and costs), tells what finishing now would score, and after scoring
/// says how much of the stage score came from the Mythicals kept.
#[test]
fn the_scoring_view_offers_the_legal_payments_and_the_mythical_points() {
    let mut checked = 0;
    for seed in 0..24u64 {
        let players = 1 + (seed % 3) as u8;
        let mut g = Game::new(&table(players), seed).unwrap();
        let mut rng = GameRng::from_seed(seed ^ 0xbeef);
        let mut moves = Vec::new();
        loop {
            random_until_scoring(&mut g, &mut rng);
            if g.phase() == Phase::Over {
                break;
            }
            let ToMove::Seat(seat) = g.to_move() else {
                unreachable!("a scorer")
            };
            let view = View::of(&g, Some(seat));
            let scoring = view.scoring.clone().expect("scoring view");
            g.legal_moves(&mut moves);
            let mut legal: Vec<String> = moves
                .iter()
                .filter(|m| matches!(m, Move::Activate { .. }))
                .map(|m| m.to_string())
                .collect();
            let mut offered: Vec<String> = scoring
                .areas
                .iter()
                .flat_map(|a| a.payments.iter().map(|p| p.text.clone()))
                .collect();
            legal.sort();
            offered.sort();
            assert_eq!(offered, legal, "seed {seed}");
            for a in &scoring.areas {
                for p in &a.payments {
                    let doubled = if p.payment.doubled() { 2 } else { 1 };
                    assert_eq!((p.coloured, p.mythical), p.payment.cost());
                    assert_eq!(p.points, a.icons as u16 * doubled, "seed {seed}");
                }
            }
            // Nobody else is offered this seat's payments.
            assert!(
                View::of(&g, None)
                    .scoring
                    .unwrap()
                    .areas
                    .iter()
                    .all(|a| a.payments.is_empty())
            );
            let me = &view.envelope.seats[seat.0 as usize];
            assert_eq!(
                scoring.mythical_kept,
                me.gems.mythical() as u16 * scoring.points_per_mythical
            );
            let stage = view.envelope.stage as usize;
            let promised = scoring.points + scoring.mythical_kept;
            g.play(&Move::Done).unwrap();
            let after = View::of(&g, Some(seat));
            let me = &after.envelope.seats[seat.0 as usize];
            assert_eq!(
                me.summary.points_of_stage(stage as u8),
                Some(i32::from(promised)),
                "seed {seed}"
            );
            assert_eq!(
                me.mythical_points[stage - 1],
                scoring.mythical_kept,
                "seed {seed}"
            );
            checked += 1;
            while matches!(g.phase(), Phase::Discard) {
                g.legal_moves(&mut moves);
                g.play(&moves[rng.below(moves.len() as u32) as usize])
                    .unwrap();
            }
        }
    }
    assert!(checked > 40, "{checked} stage ends checked");
}
