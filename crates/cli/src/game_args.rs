//! The flags that choose a game and its options, read from the games' descriptors: which
//! games exist, their seat ranges, their options and values, and their bot levels.
use anyhow::{Result, bail};
use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use pyramidion_games::GameKind;
use serde_json::{Map, Value, json};

/// `--game`: one of the registered games' keys (listed in `--help`).
pub fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    PossibleValuesParser::new(GameKind::keys()).map(|key| {
        key.parse::<GameKind>()
            .expect("possible values are registered keys")
    })
}

/// What `--help` says about the games, their options and their bot levels.
pub fn games_help() -> String {
    GameKind::ALL
        .iter()
        .map(|k| {
            let d = k.descriptor();
            let options: Vec<String> = d
                .options
                .iter()
                .map(|o| format!("{}={}", o.key, o.values.join("|")))
                .collect();
            let bots: Vec<&str> = d.bot_levels.iter().map(|l| l.name).collect();
            format!(
                "{}: {}–{} players{}; bots: {}",
                d.key,
                d.seats.min,
                d.seats.max,
                if options.is_empty() {
                    String::new()
                } else {
                    format!("; options: {}", options.join(", "))
                },
                bots.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[derive(Args, Debug, Clone)]
pub struct GameChoice {
    /// The game (see the list below).
    #[arg(long, value_parser = game_parser(), default_value_t = GameKind::ALL[0])]
    pub game: GameKind,
    /// Number of players (seats); default: the game's most.
    #[arg(long)]
    pub players: Option<u8>,
    /// A game option as KEY=VALUE (repeatable); options that apply and are not given take
    /// their default.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Shorthand for `--players 1 --option solo=MODE`.
    #[arg(long, value_name = "MODE")]
    pub solo: Option<String>,
}

impl GameChoice {
    pub fn players(&self) -> u8 {
        if self.solo.is_some() {
            return 1;
        }
        self.players
            .unwrap_or_else(|| self.game.descriptor().seats.max)
    }

    /// The options JSON, checked against the game's descriptor.
    pub fn options_json(&self) -> Result<Value> {
        let mut pairs = Vec::new();
        for o in &self.options {
            let Some((k, v)) = o.split_once('=') else {
                bail!("--option '{o}' is not KEY=VALUE");
            };
            pairs.push((k.trim().to_string(), v.trim().to_string()));
        }
        if let Some(mode) = &self.solo {
            pairs.push(("solo".to_string(), mode.clone()));
        }
        options_json(self.game, self.players(), &pairs)
    }
}

/// The options JSON of `kind` for `players` seats and the given `key=value` pairs, checked
/// against its descriptor; applicable options not given take their default.
pub fn options_json(kind: GameKind, players: u8, pairs: &[(String, String)]) -> Result<Value> {
    let d = kind.descriptor();
    if !d.seats.contains(players) {
        bail!(
            "{} is for {} to {} players, not {players}",
            d.key,
            d.seats.min,
            d.seats.max
        );
    }
    let mut map = Map::new();
    map.insert("players".into(), json!(players));
    for (key, value) in pairs {
        let Some(o) = d.option(key) else {
            let known: Vec<&str> = d.options.iter().map(|o| o.key).collect();
            bail!(
                "{} has no option '{key}' (options: {})",
                d.key,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            );
        };
        if !o.values.contains(&value.as_str()) {
            bail!(
                "option {key} of {} is one of {}, not '{value}'",
                d.key,
                o.values.join(", ")
            );
        }
        if !o.applies_to(players) {
            bail!(
                "option {key} of {} is for {:?} players only, not {players}",
                d.key,
                o.players
            );
        }
        map.insert(key.clone(), json!(value));
    }
    for o in d.options.iter().filter(|o| o.applies_to(players)) {
        map.entry(o.key).or_insert_with(|| json!(o.default));
    }
    Ok(Value::Object(map))
}

/// Fails unless every bot name is a level of `kind`.
pub fn check_bot_levels(kind: GameKind, names: &[&str]) -> Result<()> {
    let d = kind.descriptor();
    for name in names {
        if d.bot_level(name).is_none() {
            let known: Vec<&str> = d.bot_levels.iter().map(|l| l.name).collect();
            bail!(
                "unknown bot '{name}' for {} (levels: {})",
                d.key,
                known.join(", ")
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags are checked against every game's descriptor.
    #[test]
    fn options_follow_descriptors() {
        for &kind in GameKind::ALL {
            let d = kind.descriptor();
            let too_many = options_json(kind, d.seats.max + 1, &[]).unwrap_err();
            assert!(too_many.to_string().contains("players"), "{too_many}");
            let v = options_json(kind, d.seats.min, &[]).unwrap();
            assert_eq!(v["players"], json!(d.seats.min));
            for o in d.options.iter().filter(|o| o.applies_to(d.seats.min)) {
                assert_eq!(v[o.key], json!(o.default));
                assert!(options_json(kind, d.seats.min, &[(o.key.into(), "nope".into())]).is_err());
            }
            assert!(options_json(kind, d.seats.min, &[("nope".into(), "x".into())]).is_err());
            // The options built from a descriptor set up the game.
            pyramidion_games::AnyGame::new(kind, &v, 1).unwrap();
            assert!(check_bot_levels(kind, &["no-such-bot"]).is_err());
            let levels: Vec<&str> = d.bot_levels.iter().map(|l| l.name).collect();
            check_bot_levels(kind, &levels).unwrap();
        }
    }
}
