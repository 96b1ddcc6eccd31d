//! The work the speed figures time (docs/performance.md, "The engines in WebAssembly"), the
//! same code natively (`examples/speed.rs`) and in the module (`node/speed.mjs`), so that
//! their ratio is the platform's and nothing else's. No clock here: the callers time it.
use crate::Engine;
use pyramidion_ai::{Bot, RandomBot};
use pyramidion_core::{Rules, ToMove};
use pyramidion_games::{GameError, GameKind, dispatch};
use serde_json::Value;

/// Plays `games` complete games (setup to final ranking, every decision by the uniform random
/// bot, every move checked by `play`), dealt from seeds `first_seed..`: `pyramidion bench`'s
/// random games. Returns the moves played.
pub fn random_games(
    game: &str,
    options: &str,
    first_seed: u64,
    games: u32,
) -> Result<u64, GameError> {
    let kind: GameKind = game.parse().map_err(|e: pyramidion_games::UnknownGame| {
        GameError::new("unknown_game", e.to_string())
    })?;
    let options: Value =
        serde_json::from_str(options).map_err(|e| GameError::new("bad_options", e.to_string()))?;
    dispatch!(kind, G => {
        let options: <G as Rules>::Options = serde_json::from_value(options)
            .map_err(|e| GameError::new("bad_options", e.to_string()))?;
        let mut bot = RandomBot::<<G as Rules>::Move>::new(7);
        let mut moves = 0;
        for seed in first_seed..first_seed + u64::from(games) {
            let mut g = G::new(&options, seed).map_err(|e| GameError::new(e.code, e.message))?;
            while let ToMove::Seat(_) = g.to_move() {
                let m = bot.choose(&g);
                g.play(&m).map_err(|e| GameError::new("illegal_move", e.to_string()))?;
                moves += 1;
            }
        }
        Ok(moves)
    })
}

/// The positions `max` is timed on: those after 0, 10, 20 … moves of a random game of `game`
/// (2 seats, or the fewest the game allows) dealt from `seed`, while the game goes on.
pub fn positions(game: &str, seed: u64, count: usize) -> Result<Vec<Engine>, GameError> {
    let kind: GameKind = game.parse().map_err(|e: pyramidion_games::UnknownGame| {
        GameError::new("unknown_game", e.to_string())
    })?;
    let seats = kind.descriptor().seats;
    let players = seats.min.max(2).min(seats.max);
    let mut e = Engine::new(game, &format!(r#"{{"players":{players}}}"#), seed)?;
    let mut out = Vec::new();
    while out.len() < count && e.to_move().is_some() {
        if e.ply() % 10 == 0 {
            out.push(e.clone());
        }
        let m = e.bot_move("random", seed + u64::from(e.ply()))?;
        e.play(&m)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_play_to_the_end_and_count_their_moves() {
        for &kind in GameKind::ALL {
            let d = kind.descriptor();
            let options = format!(r#"{{"players":{}}}"#, d.seats.min.max(2).min(d.seats.max));
            let one = random_games(kind.key(), &options, 1, 1).unwrap();
            let two = random_games(kind.key(), &options, 1, 2).unwrap();
            assert!(one > 0 && two > one, "{kind}: {one} then {two} moves");
        }
        assert_eq!(
            random_games("chess", "{}", 1, 1).unwrap_err().code,
            "unknown_game"
        );
        let bad = random_games(GameKind::ALL[0].key(), r#"{"players":"x"}"#, 1, 1);
        assert_eq!(bad.unwrap_err().code, "bad_options");
    }

    #[test]
    fn positions_are_ten_moves_apart_and_still_going() {
        let key = GameKind::ALL[0].key();
        let p = positions(key, 3, 3).unwrap();
        assert_eq!(p.iter().map(Engine::ply).collect::<Vec<_>>(), [0, 10, 20]);
        assert!(p.iter().all(|e| e.to_move().is_some()));
    }
}
