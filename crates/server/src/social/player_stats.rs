//! A player's statistics per game (issue 49 item 4), computed from their finished games'
//! stored results: games, wins by player count, mean and best score, the best value of each
//! of the game's ranking keys (a game that ranks on `best_stage` shows the best stage
//! reached), and the fair-play record (games left: resigned seats; games timed out: seats a
//! stand-in bot played to the end). Both read the ranking the server stored
//! (`crate::live::endings::final_ranks` wrote it; `crate::db::stored_result` reads it).
use crate::db::stored_result::{stored_ranks, stored_seats};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One finished game of the player: its game's key, its options, its stored result, and the
/// player's seat.
pub struct Played {
    pub game: String,
    pub options: Value,
    pub result: Value,
    pub seat: usize,
}

/// Games and wins at tables of one size.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BySize {
    pub players: u64,
    pub games: u64,
    pub wins: u64,
}

/// Statistics of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameStats {
    pub game: String,
    pub games: u64,
    pub wins: u64,
    /// By players at the table (1: solo, won when the automa is beaten), smallest first.
    pub by_players: Vec<BySize>,
    /// Over the games with a score for the player.
    pub mean_score: Option<f64>,
    pub best_score: Option<i64>,
    /// The best value of each ranking key but the score (`best_stage`…), by key name.
    pub best: BTreeMap<String, i64>,
}

/// Games left or timed out, over games with two seats or more.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FairPlay {
    pub games: u64,
    /// Resigned (left the game).
    pub resigned: u64,
    /// Timed out too often: a bot played the seat to the end.
    pub timed_out: u64,
}

/// Every statistic of a player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub games: Vec<GameStats>,
    pub fair_play: FairPlay,
}

/// One game's statistics while they are counted: the sizes of table met, and the sum and
/// count of the scores the mean is made of.
struct Tally {
    stats: GameStats,
    sizes: BTreeMap<u64, BySize>,
    sum: i64,
    scored: u64,
}

/// Statistics of `played`, one entry per game key (in key order).
pub fn compute(played: &[Played]) -> Stats {
    let mut per: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut fair = FairPlay::default();
    for p in played {
        let Some(ranks) = stored_ranks(&p.result) else {
            continue;
        };
        let players = p.options["players"].as_u64().unwrap_or(ranks.len() as u64);
        let won = ranks.get(p.seat) == Some(&0);
        let Tally {
            stats,
            sizes,
            sum,
            scored,
        } = per.entry(p.game.as_str()).or_insert_with(|| Tally {
            stats: GameStats {
                game: p.game.clone(),
                games: 0,
                wins: 0,
                by_players: Vec::new(),
                mean_score: None,
                best_score: None,
                best: BTreeMap::new(),
            },
            sizes: BTreeMap::new(),
            sum: 0,
            scored: 0,
        });
        stats.games += 1;
        stats.wins += u64::from(won);
        let size = sizes.entry(players).or_insert_with(|| BySize {
            players,
            ..BySize::default()
        });
        size.games += 1;
        size.wins += u64::from(won);
        if let Some(score) = p.result["scores"].get(p.seat).and_then(Value::as_i64) {
            *sum += score;
            *scored += 1;
            stats.best_score = Some(stats.best_score.map_or(score, |b| b.max(score)));
        }
        for key in p.result["keys"].as_array().into_iter().flatten() {
            let (Some(name), Some(v)) = (
                key["name"].as_str(),
                key["values"].get(p.seat).and_then(Value::as_i64),
            ) else {
                continue;
            };
            if name != "score" {
                let best = stats.best.entry(name.to_string()).or_insert(v);
                *best = (*best).max(v);
            }
        }
        if ranks.len() >= 2 {
            let seat = p.seat as u8;
            fair.games += 1;
            fair.resigned += u64::from(stored_seats(&p.result, "resigned").contains(&seat));
            fair.timed_out += u64::from(stored_seats(&p.result, "absent").contains(&seat));
        }
    }
    let games = per
        .into_values()
        .map(
            |Tally {
                 mut stats,
                 sizes,
                 sum,
                 scored,
             }| {
                stats.by_players = sizes.into_values().collect();
                stats.mean_score =
                    (scored > 0).then(|| (sum as f64 / scored as f64 * 10.0).round() / 10.0);
                stats
            },
        )
        .collect();
    Stats {
        games,
        fair_play: fair,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn played(game: &str, players: u64, seat: usize, result: Value) -> Played {
        Played {
            game: game.into(),
            options: json!({"players": players}),
            result,
            seat,
        }
    }

    #[test]
    fn wins_scores_keys_and_fair_play_per_game() {
        let keys = |stage: [i64; 2]| json!([{"name": "score", "values": [0, 0]}, {"name": "best_stage", "values": stage}]);
        let stats = compute(&[
            played(
                "g",
                2,
                0,
                json!({"ranks": [0, 1], "scores": [30, 20], "keys": keys([7, 3])}),
            ),
            played(
                "g",
                2,
                1,
                json!({"ranks": [0, 1], "scores": [25, 10], "keys": keys([2, 9])}),
            ),
            // Left the game: ranked last, counted as resigned.
            played(
                "g",
                3,
                2,
                json!({"ranks": [0, 0, 2], "ending": "resigned", "resigned": [2]}),
            ),
            // A bot played the seat to the end after time-outs.
            played(
                "g",
                2,
                0,
                json!({"ranks": [1, 0], "scores": [5, 6], "absent": [0]}),
            ),
            played("h", 1, 0, json!({"ranks": [0], "scores": [44]})),
        ]);
        let g = &stats.games[0];
        assert_eq!((g.game.as_str(), g.games, g.wins), ("g", 4, 1));
        assert_eq!(
            g.by_players,
            vec![
                BySize {
                    players: 2,
                    games: 3,
                    wins: 1
                },
                BySize {
                    players: 3,
                    games: 1,
                    wins: 0
                },
            ]
        );
        assert_eq!(g.best_score, Some(30));
        assert_eq!(g.mean_score, Some(15.0)); // (30 + 10 + 5) / 3
        assert_eq!(g.best.get("best_stage"), Some(&9));
        assert!(!g.best.contains_key("score"));
        assert_eq!(
            stats.games[1].by_players,
            vec![BySize {
                players: 1,
                games: 1,
                wins: 1
            }]
        );
        // The solo game is not a game one can leave others in.
        assert_eq!(
            stats.fair_play,
            FairPlay {
                games: 4,
                resigned: 1,
                timed_out: 1
            }
        );
    }
}
