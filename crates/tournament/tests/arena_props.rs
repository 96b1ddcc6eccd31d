//! Arena pairing under arrivals and departures: random streams of joins, leaves, returns,
//! pairings and results, at 2 to 5 seats, with and without short tables.
use proptest::prelude::*;
use pyramidion_core::GameRng;
use pyramidion_tournament::points::{BYE, place_points};
use pyramidion_tournament::streak::on_fire;
use pyramidion_tournament::{
    Arena, ArenaConfig, ArenaState, PlayerId, TableFormat, TableResult, TournamentError,
};
use std::collections::{BTreeMap, BTreeSet};

const PATIENCE: u64 = 10_000;

fn random_result(rng: &mut GameRng, seats: usize) -> TableResult {
    let scores: Vec<i64> = (0..seats).map(|_| i64::from(rng.below(3))).collect();
    let places = scores
        .iter()
        .map(|s| scores.iter().filter(|t| *t > s).count() as u8)
        .collect();
    TableResult { places, scores }
}

fn waiting(arena: &Arena) -> BTreeMap<PlayerId, u64> {
    arena
        .players
        .iter()
        .filter_map(|p| match p.state {
            ArenaState::Waiting { since } => Some((p.id.clone(), since)),
            _ => None,
        })
        .collect()
}

/// Every player's state agrees with the open tables, and nobody sits at two.
fn consistent(arena: &Arena) -> Result<(), TestCaseError> {
    let mut seated = BTreeMap::new();
    for (index, table) in arena.tables.iter().enumerate() {
        if table.result.is_none() {
            for id in &table.players {
                prop_assert!(
                    seated.insert(id.clone(), index).is_none(),
                    "{id} at two tables"
                );
            }
        }
    }
    for p in &arena.players {
        match p.state {
            ArenaState::Playing { table } => prop_assert_eq!(seated.get(&p.id), Some(&table)),
            _ => prop_assert!(!seated.contains_key(&p.id)),
        }
    }
    Ok(())
}

fn check_pairing(
    arena: &Arena,
    before: &Arena,
    formed: &[usize],
    now: u64,
) -> Result<(), TestCaseError> {
    let format = arena.config.format;
    let pool = waiting(before);
    let due = |id: &PlayerId| now - pool[id] >= PATIENCE;
    let left = waiting(arena);
    let seated: Vec<&PlayerId> = formed
        .iter()
        .flat_map(|&t| &arena.tables[t].players)
        .collect();
    for &t in formed {
        let table = &arena.tables[t];
        let size = table.players.len();
        // Sizes: full tables, or short ones only when a due player would have waited on.
        prop_assert!(
            size == usize::from(format.seats)
                || (format.allows_short() && size + 1 == usize::from(format.seats)),
            "a table of {size}"
        );
        if size < usize::from(format.seats) {
            prop_assert!(pool.keys().any(due), "a short table with nobody due");
        }
        // The very same table again only once one of its players is due.
        let lasts: BTreeSet<Option<usize>> = table
            .players
            .iter()
            .map(|id| {
                before
                    .players
                    .iter()
                    .find(|p| &p.id == id)
                    .unwrap()
                    .last_table
            })
            .collect();
        if let [Some(last)] = lasts.iter().copied().collect::<Vec<_>>()[..]
            && before.tables[last].players.len() == size
        {
            prop_assert!(
                table.players.iter().any(due),
                "the same table again at once"
            );
        }
    }
    for id in &seated {
        prop_assert!(pool.contains_key(*id), "{id} seated without waiting");
    }
    // The first seat goes to whoever at the table had it least.
    let firsts = |id: &PlayerId| before.players.iter().find(|p| &p.id == id).unwrap().firsts;
    for &t in formed {
        let players = &arena.tables[t].players;
        prop_assert_eq!(Some(firsts(&players[0])), players.iter().map(firsts).min());
    }
    // Nobody due waits while someone not due sits down.
    if left.keys().any(due) {
        for id in &seated {
            prop_assert!(due(id), "{id} seated before a due player");
        }
    }
    // Whoever is left could not make a table: fewer than a full table, unless the only
    // tables left would be the same tables again before anyone is due.
    let left_due = left.keys().filter(|id| due(id)).count();
    prop_assert!(
        left_due < usize::from(format.seats),
        "{left_due} due players left waiting"
    );
    if left.len() >= usize::from(format.seats) {
        prop_assert!(left.keys().any(|id| !due(id)));
    }
    Ok(())
}

fn run_arena(
    seats: u8,
    short: bool,
    players: usize,
    seed: u64,
    events: u64,
) -> Result<(), TestCaseError> {
    let format = TableFormat::new(seats, short).unwrap();
    let config = ArenaConfig {
        format,
        starts_at: 1_000,
        duration: 600_000,
        patience: PATIENCE,
        seed,
    };
    let mut arena = Arena::new(config).unwrap();
    let mut rng = GameRng::from_seed(events);
    let mut now = 0;
    let mut next = 0;
    for _ in 0..players {
        arena.join(PlayerId::new(format!("p{next}")), now).unwrap();
        next += 1;
    }
    prop_assert_eq!(arena.pair(now), Err(TournamentError::ArenaClosed));
    now = config.starts_at;
    let mut awarded_total = 0u64;
    while arena.is_running(now) {
        match rng.below(10) {
            0 => {
                arena.join(PlayerId::new(format!("p{next}")), now).unwrap();
                next += 1;
            }
            1 if !arena.players.is_empty() => {
                let i = rng.below(arena.players.len() as u32) as usize;
                let id = arena.players[i].id.clone();
                if rng.below(2) == 0 {
                    arena.leave(&id).unwrap();
                } else {
                    match arena.join(id.clone(), now) {
                        Ok(()) | Err(TournamentError::DuplicatePlayer(_)) => {}
                        Err(e) => prop_assert!(false, "{e}"),
                    }
                }
            }
            2..=5 => {
                let open: Vec<usize> = (0..arena.tables.len())
                    .filter(|&t| arena.tables[t].result.is_none())
                    .collect();
                if !open.is_empty() {
                    let t = open[rng.below(open.len() as u32) as usize];
                    let size = arena.tables[t].players.len();
                    let streaks: Vec<u32> = arena.tables[t]
                        .players
                        .iter()
                        .map(|id| arena.players.iter().find(|p| &p.id == id).unwrap().streak)
                        .collect();
                    let result = random_result(&mut rng, size);
                    let base = result.points();
                    arena.record(t, result, now).unwrap();
                    // The streak bonus: double exactly for those who came on fire.
                    for seat in 0..size {
                        let double = if on_fire(streaks[seat]) { 2 } else { 1 };
                        prop_assert_eq!(arena.tables[t].awarded[seat], base[seat] * double);
                    }
                    prop_assert!(base.iter().sum::<u32>() == BYE * size as u32);
                    awarded_total += arena.tables[t]
                        .awarded
                        .iter()
                        .map(|&a| u64::from(a))
                        .sum::<u64>();
                }
            }
            _ => {
                let before = arena.clone();
                let formed = arena.pair(now).unwrap();
                check_pairing(&arena, &before, &formed, now)?;
            }
        }
        consistent(&arena)?;
        now += u64::from(rng.below(4_000));
    }
    // After the end: no new table, open tables still count, players leave as they finish.
    prop_assert_eq!(arena.pair(now), Err(TournamentError::ArenaClosed));
    prop_assert_eq!(
        arena.join(PlayerId::new("late"), now),
        Err(TournamentError::ArenaClosed)
    );
    for t in 0..arena.tables.len() {
        if arena.tables[t].result.is_none() {
            let result = random_result(&mut rng, arena.tables[t].players.len());
            arena.record(t, result, now).unwrap();
            awarded_total += arena.tables[t]
                .awarded
                .iter()
                .map(|&a| u64::from(a))
                .sum::<u64>();
        }
    }
    prop_assert!(
        arena
            .players
            .iter()
            .all(|p| !matches!(p.state, ArenaState::Playing { .. })),
        "a player still at a table"
    );
    let standings = arena.standings();
    let total: u64 = standings.iter().map(|s| u64::from(s.points)).sum();
    prop_assert_eq!(total, awarded_total);
    for pair in standings.windows(2) {
        prop_assert!(pair[0].points >= pair[1].points);
    }
    let json = serde_json::to_string(&arena).unwrap();
    prop_assert_eq!(serde_json::from_str::<Arena>(&json).unwrap(), arena);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arena_pairing_is_sound(
        seats in 2u8..=5,
        short in any::<bool>(),
        players in 0usize..=30,
        seed in any::<u64>(),
        events in any::<u64>(),
    ) {
        run_arena(seats, short, players, seed, events)?;
    }
}

fn ids(n: usize) -> Vec<PlayerId> {
    (0..n).map(|i| PlayerId::new(format!("p{i}"))).collect()
}

fn arena(seats: u8, short: bool) -> Arena {
    let format = TableFormat::new(seats, short).unwrap();
    Arena::new(ArenaConfig {
        format,
        starts_at: 0,
        duration: 3_600_000,
        patience: PATIENCE,
        seed: 3,
    })
    .unwrap()
}

#[test]
fn free_players_sit_with_others_close_in_the_standings() {
    let mut a = arena(2, false);
    for id in ids(4) {
        a.join(id, 0).unwrap();
    }
    assert_eq!(a.pair(0).unwrap().len(), 2);
    // p-winners: the two winners meet next, the two losers meet next.
    for t in 0..2 {
        let r = TableResult {
            places: vec![0, 1],
            scores: vec![1, 0],
        };
        a.record(t, r, 10).unwrap();
    }
    let winners: BTreeSet<PlayerId> = (0..2).map(|t| a.tables[t].players[0].clone()).collect();
    assert_eq!(a.pair(10).unwrap(), vec![2, 3]);
    let top: BTreeSet<PlayerId> = a.tables[2].players.iter().cloned().collect();
    assert_eq!(top, winners);
}

#[test]
fn the_same_table_waits_for_someone_else_then_plays_again() {
    let mut a = arena(2, false);
    for id in ids(2) {
        a.join(id, 0).unwrap();
    }
    assert_eq!(a.pair(0).unwrap(), vec![0]);
    a.record(
        0,
        TableResult {
            places: vec![0, 1],
            scores: vec![1, 0],
        },
        100,
    )
    .unwrap();
    assert!(a.pair(200).unwrap().is_empty(), "rematched at once");
    // Someone comes free: they play the newcomer, and the other waits.
    a.join(PlayerId::new("new"), 300).unwrap();
    let formed = a.pair(300).unwrap();
    assert_eq!(formed.len(), 1);
    assert!(a.tables[1].players.contains(&PlayerId::new("new")));
    // Alone for long enough, the last two play each other again.
    let mut b = arena(2, false);
    for id in ids(2) {
        b.join(id, 0).unwrap();
    }
    b.pair(0).unwrap();
    b.record(
        0,
        TableResult {
            places: vec![0, 1],
            scores: vec![1, 0],
        },
        100,
    )
    .unwrap();
    assert_eq!(b.pair(100 + PATIENCE).unwrap(), vec![1]);
}

#[test]
fn a_short_table_forms_only_after_patience() {
    let mut a = arena(4, true);
    for id in ids(3) {
        a.join(id, 0).unwrap();
    }
    assert!(a.pair(PATIENCE - 1).unwrap().is_empty());
    assert_eq!(a.pair(PATIENCE).unwrap(), vec![0]);
    assert_eq!(a.tables[0].players.len(), 3);
    let mut b = arena(4, false);
    for id in ids(3) {
        b.join(id, 0).unwrap();
    }
    assert!(b.pair(10 * PATIENCE).unwrap().is_empty());
}

#[test]
fn leaving_takes_effect_after_the_table() {
    let mut a = arena(2, false);
    for id in ids(2) {
        a.join(id, 0).unwrap();
    }
    a.pair(0).unwrap();
    let p0 = PlayerId::new("p0");
    a.leave(&p0).unwrap();
    a.record(
        0,
        TableResult {
            places: vec![0, 1],
            scores: vec![0, 0],
        },
        5,
    )
    .unwrap();
    let state = |a: &Arena, id: &PlayerId| a.players.iter().find(|p| &p.id == id).unwrap().state;
    assert_eq!(state(&a, &p0), ArenaState::Away);
    assert_eq!(
        state(&a, &PlayerId::new("p1")),
        ArenaState::Waiting { since: 5 }
    );
    assert_eq!(
        a.leave(&PlayerId::new("nobody")),
        Err(TournamentError::UnknownPlayer(PlayerId::new("nobody")))
    );
    a.join(p0.clone(), 6).unwrap();
    assert_eq!(
        a.join(p0.clone(), 6),
        Err(TournamentError::DuplicatePlayer(p0))
    );
}

#[test]
fn placement_points_are_the_documented_ones() {
    assert_eq!(place_points(4, 0), 24);
    assert_eq!(place_points(5, 3), 6);
}
