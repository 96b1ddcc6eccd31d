//! The end of a chaos run: every acknowledged move against the stored record (read back
//! through the proxy), every finished record replayed by the rules, and the figures.
use super::client::Ack;
use anyhow::{Context, Result, bail};
use pyramidion_core::record::Record;
use pyramidion_games::AnyGame;
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

/// One game played during the run.
pub struct Played {
    pub id: String,
    pub cookie: String,
    pub acks: Vec<Ack>,
    pub finished: bool,
    /// Why the players stopped before the end, if they did.
    pub error: Option<String>,
    pub resumed: u32,
}

#[derive(Default)]
pub struct Checked {
    pub acknowledged: usize,
    /// Acknowledged, but not stored at their place.
    pub lost: Vec<String>,
    pub replayed: usize,
    /// Finished records the rules refuse.
    pub bad: Vec<String>,
}

async fn fetch_record(http: &reqwest::Client, base: &str, game: &Played) -> Result<Value> {
    let url = format!("{base}/api/games/{}/record", game.id);
    let mut last = None;
    // The proxy may meet an instance still coming back: try a few times.
    for _ in 0..10 {
        match http.get(&url).header("cookie", &game.cookie).send().await {
            Ok(r) if r.status().is_success() => return Ok(r.json().await?),
            Ok(r) => {
                last = Some(format!(
                    "{}: {}",
                    r.status(),
                    r.text().await.unwrap_or_default()
                ))
            }
            Err(e) => last = Some(e.to_string()),
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    bail!("GET {url}: {}", last.unwrap_or_default())
}

/// The acknowledged moves of game `id` that `record` does not hold at their place.
fn missing(id: &str, acks: &[Ack], record: &Value) -> Vec<String> {
    let moves = record["moves"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    acks.iter()
        .filter_map(|a| {
            let stored = moves.get(a.ply as usize).and_then(Value::as_str);
            (stored != Some(a.text.as_str())).then(|| {
                format!(
                    "{id} ply {}: acknowledged {:?}, stored {stored:?}",
                    a.ply, a.text
                )
            })
        })
        .collect()
}

/// Whether the rules replay `record` (a finished game's, with its seed) move by move.
fn replays(record: &Value) -> Result<()> {
    let record: Record = serde_json::from_value(record.clone()).context("a record")?;
    AnyGame::from_record(&record).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

pub async fn check(http: &reqwest::Client, base: &str, games: &[Played]) -> Checked {
    let mut out = Checked::default();
    for game in games {
        out.acknowledged += game.acks.len();
        let record = match fetch_record(http, base, game).await {
            Ok(r) => r,
            Err(e) => {
                // No record at all: each of its acknowledged moves is lost.
                for a in &game.acks {
                    out.lost
                        .push(format!("{} ply {} {:?}: {e}", game.id, a.ply, a.text));
                }
                if game.finished {
                    out.bad.push(format!("{}: {e}", game.id));
                }
                continue;
            }
        };
        out.lost.extend(missing(&game.id, &game.acks, &record));
        // An unfinished game's public record has no seed (it would tell the deal): only a
        // finished one can be replayed.
        if game.finished || !record["seed"].is_null() {
            match replays(&record) {
                Ok(()) => out.replayed += 1,
                Err(e) => out.bad.push(format!("{}: {e:#}", game.id)),
            }
        }
    }
    out
}

/// The `q` quantile of `values` (sorted here).
pub fn quantile(values: &mut [Duration], q: f64) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    values.sort();
    let i = ((values.len() as f64 * q).ceil() as usize).clamp(1, values.len()) - 1;
    values[i]
}

/// The longest wait for an acknowledgement that spans a kill: how long a game stood still
/// while its instance went away and another took it over.
pub fn failover_max(games: &[Played], kills: &[Instant]) -> Duration {
    games
        .iter()
        .flat_map(|g| &g.acks)
        .filter(|a| kills.iter().any(|k| a.sent <= *k && *k <= a.acknowledged))
        .map(|a| a.acknowledged - a.sent)
        .max()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ack(ply: u64, text: &str, sent: Instant, waited: u64) -> Ack {
        Ack {
            ply,
            text: text.to_string(),
            sent,
            acknowledged: sent + Duration::from_millis(waited),
            bytes: 0,
        }
    }

    #[test]
    fn a_move_not_stored_at_its_place_is_lost() {
        let t = Instant::now();
        let record = json!({"moves": ["a", "b", "c"]});
        let acks = [ack(0, "a", t, 1), ack(1, "x", t, 1), ack(3, "d", t, 1)];
        let lost = missing("g", &acks, &record);
        assert_eq!(lost.len(), 2, "{lost:?}");
        assert!(
            lost[0].contains("ply 1") && lost[1].contains("ply 3"),
            "{lost:?}"
        );
        assert!(missing("g", &acks[..1], &record).is_empty());
    }

    #[test]
    fn a_record_the_rules_refuse_does_not_replay() {
        let record = json!({"game": "pyramids", "options": {"players": 2}, "seed": 5,
                            "moves": ["no such move"]});
        assert!(replays(&record).is_err());
        let empty = json!({"game": "pyramids", "options": {"players": 2}, "seed": 5, "moves": []});
        assert!(replays(&empty).is_ok(), "{:?}", replays(&empty));
    }

    #[test]
    fn failover_is_the_longest_wait_across_a_kill() {
        let t = Instant::now();
        let played = Played {
            id: "g".into(),
            cookie: String::new(),
            acks: vec![
                ack(0, "a", t, 9000),
                ack(1, "b", t + Duration::from_secs(20), 3000),
            ],
            finished: true,
            error: None,
            resumed: 0,
        };
        let kill = t + Duration::from_secs(21);
        assert_eq!(
            failover_max(std::slice::from_ref(&played), &[kill]),
            Duration::from_secs(3)
        );
        assert_eq!(failover_max(&[played], &[]), Duration::ZERO);
        let mut waits = vec![Duration::from_millis(3), Duration::from_millis(1)];
        assert_eq!(quantile(&mut waits, 0.99), Duration::from_millis(3));
        assert_eq!(quantile(&mut waits, 0.5), Duration::from_millis(1));
    }
}
