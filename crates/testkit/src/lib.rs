//! One random-simulation harness for every game (after OpenSpiel's random-sim tests).
//!
//! Plays seeded random games and checks, at every step, what must hold for any game:
//! legal moves are accepted and play like `play_unchecked`; probed illegal moves are refused
//! with the state unchanged; the game's own invariants (component conservation, score bounds)
//! hold; views hide what they must; determinising for a seat keeps that seat's view; and the
//! record of the game replays to the identical final state.
//!
//! A dev-dependency only: each game implements [`Simulate`] behind its `testkit` feature,
//! which only its own tests enable.
#![forbid(unsafe_code)]
pub mod golden;
pub mod hooks;
pub mod players;
pub mod undo;
use pyramidion_core::record::Record;
use pyramidion_core::rules::{ErrorCode, Outcome, Rules, ToMove};
use pyramidion_core::{GameRng, Seat, Seed};

/// What a game adds to the harness.
pub trait Simulate: Rules {
    /// Longest possible game, in moves (a longer one is a bug).
    const MAX_PLIES: u32;
    /// Component totals, score bounds and any other state invariant.
    fn check_invariants(&self) -> Result<(), String>;
    /// `view(seat)` must not contain what `seat` may not see.
    fn check_view(&self, seat: Option<Seat>) -> Result<(), String>;
    /// Candidate moves, mostly illegal ones, to check that refusal leaves the state unchanged.
    fn probe_moves(&self, rng: &mut GameRng, out: &mut Vec<Self::Move>);
}

#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    /// Check views and determinisation every this many plies (1 = every ply).
    pub view_every: u32,
    /// Probe illegal moves every this many plies.
    pub probe_every: u32,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            view_every: 7,
            probe_every: 5,
        }
    }
}

#[derive(Debug)]
pub struct SimReport<R> {
    pub plies: u32,
    pub outcome: Outcome,
    /// The finished game, for a game's own statistics (stages reached, eliminations).
    pub game: R,
}

/// Picks the move to play among the legal ones (never empty); it must return one of them.
/// A game's tests pass their own policy where uniform players never reach the rules that
/// matter (Pyramido's get stuck on stage 1); the harness checks every state all the same.
pub type Policy<'a, R> =
    &'a mut dyn FnMut(&R, &[<R as Rules>::Move], &mut GameRng) -> <R as Rules>::Move;

/// Uniform random moves.
pub fn uniform<R: Rules>(_: &R, legal: &[R::Move], rng: &mut GameRng) -> R::Move {
    legal[rng.below(legal.len() as u32) as usize]
}

/// Plays one uniform random game and checks everything; the error says what failed and where.
pub fn simulate<R: Simulate>(
    options: &R::Options,
    seed: Seed,
    config: SimConfig,
) -> Result<SimReport<R>, String> {
    simulate_with(options, seed, config, &mut uniform::<R>)
}

/// [`simulate`], with the moves chosen by `policy`.
pub fn simulate_with<R: Simulate>(
    options: &R::Options,
    seed: Seed,
    config: SimConfig,
    policy: Policy<'_, R>,
) -> Result<SimReport<R>, String> {
    let fail = |ply: u32, what: String| format!("seed {seed}, ply {ply}: {what}");
    let mut game = R::new(options, seed).map_err(|e| fail(0, e.to_string()))?;
    let mut record = Record::new(R::DESCRIPTOR.key, options, seed);
    let mut rng = GameRng::from_seed(seed ^ 0x005e_ed0f_7e57);
    let mut legal = Vec::new();
    let mut probes = Vec::new();
    // The analysis totals by stage: numbers from 1 to the descriptor's count, never going back.
    let mut stage = 1;
    loop {
        let ply = game.ply();
        game.check_invariants().map_err(|e| fail(ply, e))?;
        let now = game.stage_number();
        if now < stage || now > R::DESCRIPTOR.stages || (ply == 0 && now != 1) {
            return Err(fail(
                ply,
                format!(
                    "{} {now} after {stage} (of {})",
                    R::DESCRIPTOR.stage_name,
                    R::DESCRIPTOR.stages
                ),
            ));
        }
        stage = now;
        if ply > R::MAX_PLIES {
            return Err(fail(
                ply,
                format!("game longer than {} plies", R::MAX_PLIES),
            ));
        }
        let seat = match game.to_move() {
            ToMove::Over => break,
            ToMove::Seat(s) => s,
        };
        if seat.0 >= game.seats() {
            return Err(fail(
                ply,
                format!("{seat} to move at a table of {}", game.seats()),
            ));
        }
        game.legal_moves(&mut legal);
        if legal.is_empty() {
            return Err(fail(ply, format!("{seat} to move but no legal move")));
        }
        if ply % config.view_every == 0 {
            check_views(&game, &mut rng).map_err(|e| fail(ply, e))?;
            let mut unique = legal.clone();
            unique.sort_by_key(|m| m.to_string());
            unique.dedup();
            if unique.len() != legal.len() {
                return Err(fail(ply, "legal moves contain duplicates".into()));
            }
            for m in &legal {
                let text = m.to_string();
                let parsed: R::Move = text
                    .parse()
                    .map_err(|e| fail(ply, format!("legal move '{text}' does not parse: {e}")))?;
                if parsed != *m {
                    return Err(fail(ply, format!("move '{text}' does not round-trip")));
                }
            }
        }
        if ply % config.probe_every == 0 {
            game.probe_moves(&mut rng, &mut probes);
            for m in &probes {
                if legal.contains(m) {
                    continue;
                }
                let mut copy = game.clone();
                match copy.play(m) {
                    Ok(()) => return Err(fail(ply, format!("illegal move '{m}' was accepted"))),
                    // The UI translates codes the descriptor lists: none may be missing.
                    Err(e) if !R::DESCRIPTOR.move_errors.contains(&e.code()) => {
                        return Err(fail(
                            ply,
                            format!("error code '{}' is not in the descriptor", e.code()),
                        ));
                    }
                    Err(_) => {}
                }
                if copy != game {
                    return Err(fail(ply, format!("refused move '{m}' changed the state")));
                }
            }
        }
        let m = policy(&game, &legal, &mut rng);
        if !legal.contains(&m) {
            return Err(fail(
                ply,
                format!("the policy chose '{m}', not a legal move"),
            ));
        }
        let mut unchecked = game.clone();
        unchecked.play_unchecked(&m);
        game.play(&m)
            .map_err(|e| fail(ply, format!("legal move '{m}' refused: {e}")))?;
        if unchecked != game {
            return Err(fail(
                ply,
                format!("play and play_unchecked differ on '{m}'"),
            ));
        }
        if game.ply() != ply + 1 {
            return Err(fail(ply, "ply did not advance by one".into()));
        }
        record.push(&m);
    }
    let ply = game.ply();
    game.legal_moves(&mut legal);
    if !legal.is_empty() {
        return Err(fail(ply, "game over but legal moves remain".into()));
    }
    check_views(&game, &mut rng).map_err(|e| fail(ply, e))?;
    let outcome = game
        .outcome()
        .ok_or_else(|| fail(ply, "game over without an outcome".into()))?;
    if outcome.scores.len() != game.seats() as usize || outcome.ranks.len() != game.seats() as usize
    {
        return Err(fail(ply, "outcome does not cover every seat".into()));
    }
    let key_names: Vec<&str> = outcome.keys.iter().map(|k| k.name).collect();
    // Solo games rank on the score alone: the keys are the descriptor's or a prefix of them.
    if !R::DESCRIPTOR.ranking.starts_with(&key_names)
        || key_names.is_empty()
        || outcome.decided_by.len() != outcome.ranks.len()
    {
        return Err(fail(
            ply,
            format!("ranking keys {key_names:?} differ from the descriptor's"),
        ));
    }
    record.result = Some(outcome.scores.clone());
    let text = record.to_text();
    let replayed: R = Record::parse(&text)
        .and_then(|r| r.replay())
        .map_err(|e| fail(ply, format!("record does not replay: {e}")))?;
    if replayed != game {
        return Err(fail(
            ply,
            "replayed state differs from the played one".into(),
        ));
    }
    Ok(SimReport {
        plies: ply,
        outcome,
        game,
    })
}

fn check_views<R: Simulate>(game: &R, rng: &mut GameRng) -> Result<(), String> {
    let seats = (0..game.seats()).map(|s| Some(Seat(s)));
    // Each game's `check_view` walks the view's structs for hidden data (no serialisation:
    // that was most of the harness's time); every seat's and the spectator's.
    for seat in seats.chain(std::iter::once(None)) {
        game.check_view(seat)?;
    }
    for s in 0..game.seats() {
        let seat = Seat(s);
        let det = game.determinize(seat, rng);
        if game.view(Some(seat)) != det.view(Some(seat)) {
            return Err(format!("determinize({seat}) changed what {seat} sees"));
        }
        det.check_invariants()
            .map_err(|e| format!("determinize({seat}) broke an invariant: {e}"))?;
    }
    Ok(())
}

/// Runs `games` seeded uniform simulations (seeds `first_seed..`); the total plies, or the
/// first failure.
pub fn simulate_many<R: Simulate>(
    options: &R::Options,
    first_seed: Seed,
    games: u64,
    config: SimConfig,
) -> Result<u64, String> {
    simulate_many_with(options, first_seed, games, config, &mut uniform::<R>)
}

/// [`simulate_many`], with the moves chosen by `policy`.
pub fn simulate_many_with<R: Simulate>(
    options: &R::Options,
    first_seed: Seed,
    games: u64,
    config: SimConfig,
    policy: Policy<'_, R>,
) -> Result<u64, String> {
    let mut plies = 0;
    for seed in first_seed..first_seed + games {
        plies += simulate_with::<R>(options, seed, config, &mut *policy)?.plies as u64;
    }
    Ok(plies)
}

/// How many of a bulk run's `full` games this test run plays. Plain `cargo test` (the first
/// tier, which must stay a few minutes on a fresh clone) plays a tenth of them, never fewer
/// than 50; the second tier plays all: its feature `full-simulation`, which `scripts/test`
/// turns on with every other second-tier feature (`--all-features`), so that the tiers differ
/// by one mechanism, cargo features, and a run says by its command line what it runs. Either
/// way the count is printed, so no run is smaller than it says.
pub fn tier_games(full: u64) -> u64 {
    let games = if cfg!(feature = "full-simulation") {
        full
    } else {
        (full / 10).max(50).min(full)
    };
    eprintln!(
        "simulating {games} of {full} games (the feature pyramidion-testkit/full-simulation plays all)"
    );
    games
}

/// Calls `check(seed)` for every seed of `0..seeds`, spread over the machine's cores: a bulk
/// run's seeds are independent, and one thread left the second core idle for minutes while
/// the other test binaries waited behind it. Each thread takes the next seed not yet taken,
/// so that dear seeds do not pile up on one core: with seeds dealt by parity, the search test's
/// guided games (every twentieth seed, most of its time) all went to one thread. A panic in
/// any seed fails the caller.
pub fn each_seed_on_every_core(seeds: u64, check: impl Fn(u64) + Sync) {
    use std::sync::atomic::{AtomicU64, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let next = AtomicU64::new(0);
    let (check, next) = (&check, &next);
    std::thread::scope(|scope| {
        let running: Vec<_> = (0..threads.min(seeds.max(1)))
            .map(|_| {
                scope.spawn(move || {
                    loop {
                        let seed = next.fetch_add(1, Ordering::Relaxed);
                        if seed >= seeds {
                            break;
                        }
                        let checked =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(seed)));
                        if let Err(failure) = checked {
                            // The other threads stop at their current seed.
                            next.store(seeds, Ordering::Relaxed);
                            std::panic::resume_unwind(failure);
                        }
                    }
                })
            })
            .collect();
        // The first failure's own message, not "a scoped thread panicked".
        for thread in running {
            if let Err(failure) = thread.join() {
                std::panic::resume_unwind(failure);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::each_seed_on_every_core;
    use std::sync::Mutex;

    #[test]
    fn every_seed_is_checked_once() {
        for seeds in [0, 1, 2, 7, 100] {
            let seen = Mutex::new(Vec::new());
            each_seed_on_every_core(seeds, |seed| seen.lock().unwrap().push(seed));
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (0..seeds).collect::<Vec<_>>());
        }
    }

    #[test]
    #[should_panic(expected = "seed 5 fails")]
    fn a_failing_seed_fails_the_caller() {
        each_seed_on_every_core(10, |seed| assert_ne!(seed, 5, "seed 5 fails"));
    }
}
