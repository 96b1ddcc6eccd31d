//! The bot hooks ([`pyramidion_core::BotHooks`]) checked on many positions: the search plays what
//! they return unchecked, so a hook that returns an illegal move corrupts a game silently. Run for
//! every registered game by `pyramidion-games`' test `hooks`.
use pyramidion_core::{GameRng, Rules, Seed, ToMove};

/// Plays `games` seeded games of `R` from `options` (each move the game's greedy one or a
/// uniform one, by turns of a coin, so that the positions reach every stage: uniform players
/// alone end Pyramido in its first stage) and checks at every position that
/// - `greedy_move` returns a legal move (or none),
/// - `favourite_move` returns one of its candidates (all the legal moves, and a random part of
///   them),
/// - `playout_horizon` from the game's start and from ten plies back, for one to three
///   stages, counts every seat.
///
/// Returns the number of positions checked, or what failed and where.
pub fn check_hooks<R: Rules>(
    options: &R::Options,
    first_seed: Seed,
    games: u64,
) -> Result<u64, String> {
    let mut positions = 0;
    for seed in first_seed..first_seed + games {
        let fail = |ply: u32, what: String| {
            format!("{} seed {seed}, ply {ply}: {what}", R::DESCRIPTOR.key)
        };
        let mut game = R::new(options, seed).map_err(|e| fail(0, e.to_string()))?;
        let start = game.clone();
        let mut back = Vec::new();
        let mut rng = GameRng::from_seed(seed ^ 0x0b07_400c);
        let mut legal = Vec::new();
        while let ToMove::Seat(_) = game.to_move() {
            let ply = game.ply();
            game.legal_moves(&mut legal);
            if let Some(m) = game.greedy_move(&mut rng)
                && !legal.contains(&m)
            {
                return Err(fail(
                    ply,
                    format!("greedy_move returned '{m}', not a legal move"),
                ));
            }
            let mut some = legal.clone();
            rng.shuffle(&mut some);
            some.truncate(1 + rng.below(legal.len() as u32) as usize);
            for candidates in [&legal, &some] {
                if let Some(m) = game.favourite_move(candidates, &mut rng)
                    && !candidates.contains(&m)
                {
                    return Err(fail(
                        ply,
                        format!(
                            "favourite_move returned '{m}', not one of its {} candidates",
                            candidates.len()
                        ),
                    ));
                }
            }
            back.push(game.clone());
            let ten_back = &back[back.len().saturating_sub(10)];
            for root in [&start, ten_back] {
                for stages in 1..=3 {
                    if let Some(o) = game.playout_horizon(root, stages)
                        && (o.scores.len() != usize::from(game.seats())
                            || o.ranks.len() != usize::from(game.seats()))
                    {
                        return Err(fail(
                            ply,
                            format!("playout_horizon's outcome misses seats: {o:?}"),
                        ));
                    }
                }
            }
            if back.len() > 10 {
                back.remove(0);
            }
            positions += 1;
            let greedy = match rng.below(2) {
                0 => game.greedy_move(&mut rng),
                _ => None,
            };
            let m = greedy.unwrap_or_else(|| legal[rng.below(legal.len() as u32) as usize]);
            game.play(&m)
                .map_err(|e| fail(ply, format!("'{m}' refused: {e}")))?;
        }
    }
    Ok(positions)
}
