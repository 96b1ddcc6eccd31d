//! Swiss pairings over thousands of random fields: 2 to 5 seats, byes or short tables, any
//! count of players, random results, withdrawals and late entries between rounds.
use proptest::prelude::*;
use pyramidion_core::GameRng;
use pyramidion_tournament::oracle::fewest_repeats;
use pyramidion_tournament::{
    Meetings, Pairing, PlayerId, Swiss, SwissConfig, TableFormat, TableResult, TournamentError,
};
use std::collections::{BTreeMap, BTreeSet};

/// A random competition ranking of `seats` players and scores to go with it.
fn random_result(rng: &mut GameRng, seats: usize) -> TableResult {
    let scores: Vec<i64> = (0..seats).map(|_| i64::from(rng.below(4))).collect();
    let places = scores
        .iter()
        .map(|s| scores.iter().filter(|t| *t > s).count() as u8)
        .collect();
    TableResult { places, scores }
}

struct Checked {
    rounds: usize,
    repeats: u32,
    exhaustive_checked: usize,
}

fn check_round(
    swiss: &Swiss,
    pairing: &Pairing,
    byes_before: &BTreeMap<PlayerId, u32>,
    firsts_before: &BTreeMap<PlayerId, u32>,
    meetings: &Meetings,
    checked: &mut Checked,
) -> Result<(), TestCaseError> {
    let active: BTreeSet<&PlayerId> = swiss
        .players
        .iter()
        .filter(|p| !p.withdrawn)
        .map(|p| &p.id)
        .collect();
    // Nobody twice, nobody left out, nobody withdrawn.
    let mut seen = BTreeSet::new();
    for id in pairing.tables.iter().flatten().chain(&pairing.byes) {
        prop_assert!(seen.insert(id), "{id} seated twice");
    }
    prop_assert_eq!(&seen, &active);
    // The layout: as few byes as the format allows, tables of the right sizes.
    let format = swiss.config.format;
    let layout = format.layout(active.len()).unwrap();
    prop_assert_eq!(pairing.byes.len(), layout.byes);
    let mut sizes: Vec<usize> = pairing.tables.iter().map(Vec::len).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let expected: Vec<usize> = layout
        .sizes(format.seats)
        .iter()
        .map(|&s| usize::from(s))
        .collect();
    prop_assert_eq!(&sizes, &expected);
    // Byes spread: nobody with a bye had more byes before than anyone seated.
    let seated: Vec<&PlayerId> = pairing.tables.iter().flatten().collect();
    for bye in &pairing.byes {
        for other in &seated {
            prop_assert!(
                byes_before[bye] <= byes_before[*other],
                "{bye} got a bye with {} before, {other} plays with {}",
                byes_before[bye],
                byes_before[*other]
            );
        }
    }
    // The first seat goes to whoever at the table had it least.
    let firsts = |id: &PlayerId| firsts_before.get(id).copied().unwrap_or(0);
    for table in &pairing.tables {
        let fewest = table.iter().map(firsts).min();
        prop_assert_eq!(Some(firsts(&table[0])), fewest);
    }
    // Repeats only when unavoidable: as few as an exhaustive search finds, on small fields.
    let repeats: u32 = pairing.tables.iter().map(|t| meetings.repeats(t)).sum();
    checked.repeats += repeats;
    if repeats > 0 && seated.len() <= 12 {
        let players: Vec<PlayerId> = seated.iter().map(|&p| p.clone()).collect();
        let best = fewest_repeats(&players, &sizes, meetings);
        prop_assert_eq!(repeats, best, "{:?}", pairing);
        checked.exhaustive_checked += 1;
    }
    checked.rounds += 1;
    Ok(())
}

fn run_tournament(
    seats: u8,
    short: bool,
    players: usize,
    rounds: u32,
    seed: u64,
    events: u64,
) -> Result<Checked, TestCaseError> {
    let format = TableFormat::new(seats, short).unwrap();
    let ids = (0..players).map(|i| PlayerId::new(format!("p{i}")));
    let config = SwissConfig {
        format,
        rounds,
        seed,
    };
    let mut swiss = Swiss::new(config, ids).unwrap();
    let mut rng = GameRng::from_seed(events);
    let mut next_id = players;
    let mut checked = Checked {
        rounds: 0,
        repeats: 0,
        exhaustive_checked: 0,
    };
    for _ in 0..rounds {
        // Withdrawals (one in ten) and late entries (sometimes) between rounds.
        let active: Vec<PlayerId> = swiss
            .players
            .iter()
            .filter(|p| !p.withdrawn)
            .map(|p| p.id.clone())
            .collect();
        for id in active {
            if rng.below(10) == 0 {
                swiss.withdraw(&id).unwrap();
            }
        }
        if rng.below(4) == 0 {
            swiss.join(PlayerId::new(format!("p{next_id}"))).unwrap();
            next_id += 1;
        }
        let byes_before: BTreeMap<PlayerId, u32> = swiss
            .standings()
            .into_iter()
            .map(|s| (s.id, s.byes))
            .collect();
        let meetings = swiss.meetings();
        let mut firsts_before: BTreeMap<PlayerId, u32> = BTreeMap::new();
        for table in swiss.rounds.iter().flat_map(|r| &r.pairing.tables) {
            *firsts_before.entry(table[0].clone()).or_default() += 1;
        }
        let active = swiss.players.iter().filter(|p| !p.withdrawn).count();
        let pairing = match swiss.pair_next_round() {
            Ok(pairing) => pairing.clone(),
            Err(err) => {
                prop_assert!(active < usize::from(format.smallest()), "{err}");
                prop_assert_eq!(err, TournamentError::TooFewPlayers { players: active });
                return Ok(checked);
            }
        };
        check_round(
            &swiss,
            &pairing,
            &byes_before,
            &firsts_before,
            &meetings,
            &mut checked,
        )?;
        for (table, players) in pairing.tables.iter().enumerate() {
            let result = random_result(&mut rng, players.len());
            swiss.record(pairing.round, table, result).unwrap();
        }
    }
    prop_assert!(swiss.is_finished());
    prop_assert_eq!(
        swiss.pair_next_round().unwrap_err(),
        TournamentError::TournamentOver
    );
    // Replays bit for bit: the same calls on a copy read back from JSON give the same state.
    let json = serde_json::to_string(&swiss).unwrap();
    let back: Swiss = serde_json::from_str(&json).unwrap();
    prop_assert_eq!(&back, &swiss);
    Ok(checked)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn swiss_rounds_are_sound(
        seats in 2u8..=5,
        short in any::<bool>(),
        players in 0usize..=24,
        rounds in 1u32..=7,
        seed in any::<u64>(),
        events in any::<u64>(),
    ) {
        run_tournament(seats, short, players, rounds, seed, events)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Larger fields: the same soundness (repeats are only measured, by the example).
    #[test]
    fn large_swiss_rounds_are_sound(
        seats in 2u8..=5,
        short in any::<bool>(),
        players in 25usize..=120,
        seed in any::<u64>(),
        events in any::<u64>(),
    ) {
        run_tournament(seats, short, players, 5, seed, events)?;
    }
}

#[test]
fn the_same_calls_give_the_same_pairings() {
    let a = run_tournament(4, true, 23, 6, 99, 5).unwrap();
    let b = run_tournament(4, true, 23, 6, 99, 5).unwrap();
    assert_eq!((a.rounds, a.repeats), (b.rounds, b.repeats));
    let format = TableFormat::new(3, false).unwrap();
    let config = SwissConfig {
        format,
        rounds: 3,
        seed: 11,
    };
    let ids = || (0..9).map(|i| PlayerId::new(format!("p{i}")));
    let mut x = Swiss::new(config, ids()).unwrap();
    let mut y = Swiss::new(config, ids().rev()).unwrap();
    assert_eq!(
        x.pair_next_round().unwrap().tables,
        y.pair_next_round().unwrap().tables
    );
}
