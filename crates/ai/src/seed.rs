//! Where bots get their seeds from.
//!
//! A bot's RNG draws the hidden cards of its samples. Seeded with the game's own seed, whose
//! stream dealt the real cards, its samples could repeat the real deal: the bot would see
//! what its seat may not. So a bot (or an analysis) never gets the game's seed: every seed it
//! gets is derived from it here, and the derivations never give the game's seed back.
use pyramidion_core::Seed;

/// Odd multipliers (Fibonacci hashing and a splitmix constant): `(n + 1) × K` is never 0 for
/// the salts used here, so the derived seed always differs from the game's.
const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xD1B5_4A32_D192_ED03;

/// The seed of the bot at `seat` for a whole game (`pyramidion sim` and `arena`: one bot per
/// seat plays every move of the game).
pub fn seat_seed(game_seed: Seed, seat: usize) -> Seed {
    game_seed.wrapping_mul(K1) ^ (seat as u64 + 1).wrapping_mul(K2)
}

/// The seed of one decision of a game (the server asks a bot afresh at each state, and an
/// analysis searches each ply afresh): `salt` is the state or the ply.
pub fn decision_seed(game_seed: Seed, salt: u64) -> Seed {
    game_seed ^ salt.wrapping_add(1).wrapping_mul(K1)
}

/// The seed of future `index` of a decision whose futures are drawn from `futures_seed` (the
/// analysis plays each candidate on the same futures): one seed a future, so that more
/// futures can be added to some candidates later and still be the same futures for each.
pub fn future_seed(futures_seed: Seed, index: u32) -> Seed {
    futures_seed.wrapping_mul(K2) ^ (u64::from(index) + 1).wrapping_mul(K1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_never_gets_the_games_own_seed() {
        for game_seed in [0, 1, 2, 42, u64::MAX, K1, K2] {
            for salt in 0..10_000 {
                assert_ne!(
                    decision_seed(game_seed, salt),
                    game_seed,
                    "{game_seed} {salt}"
                );
            }
            for seat in 0..5 {
                assert_ne!(seat_seed(game_seed, seat), game_seed, "{game_seed} {seat}");
            }
        }
        // Distinct decisions and seats get distinct seeds.
        let decisions: std::collections::HashSet<u64> =
            (0..10_000).map(|salt| decision_seed(7, salt)).collect();
        assert_eq!(decisions.len(), 10_000);
        let seats: std::collections::HashSet<u64> = (0..5).map(|s| seat_seed(7, s)).collect();
        assert_eq!(seats.len(), 5);
        let futures: std::collections::HashSet<u64> =
            (0..10_000).map(|i| future_seed(7, i)).collect();
        assert_eq!(futures.len(), 10_000);
        assert!(!futures.contains(&7));
    }
}
