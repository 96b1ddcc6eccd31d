//! Every game's tutorial by its key (issue 48): what the server serves and judges without
//! naming a game. The lessons and their figures are the game crates' (`Tutorials`); this
//! dispatches to them, builds a step's position as a record replayed through the rules, and
//! judges a tried move there.
use crate::{AnyGame, GameError, GameKind, dispatch};
use pyramidion_core::record::Record;
use pyramidion_core::tutorial::{Tutorial, Tutorials, Verdict};
use pyramidion_core::{Rules, Seat};
use serde::Serialize;

/// A tutorial's outline: its lessons and steps with their text keys, and the final table.
/// Nothing here solves a step (the accepted moves are sent once it is solved).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct Outline {
    pub game: &'static str,
    pub lessons: Vec<LessonOutline>,
    /// The options of the real game against an easy bot that ends the tutorial.
    #[ts(type = "Record<string, unknown>")]
    pub final_table: serde_json::Value,
    /// Whether that game is solo (the game's automa plays, no bot seat).
    pub final_solo: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct LessonOutline {
    pub key: &'static str,
    /// `tutorial.<game>.<lesson>`
    pub title: String,
    pub steps: Vec<StepOutline>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct StepOutline {
    pub key: &'static str,
    /// The learner's seat.
    pub seat: u8,
    /// `tutorial.<game>.<lesson>.<step>`: what to do.
    pub text: String,
    /// `tutorial.<game>.<lesson>.<step>.hint`: a hint on request.
    pub hint: String,
}

/// A step's position, ready to be shown to its learner.
pub struct StepPosition {
    pub game: AnyGame,
    pub seat: Seat,
}

/// A tried move's answer: the verdict and, once solved, every accepted move.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct Tried {
    #[serde(flatten)]
    #[ts(flatten)]
    pub verdict: Verdict,
    /// The moves that solve the step, canonical; only once it is solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub accepted: Option<Vec<String>>,
}

fn outline<G: Rules>(t: Tutorial<G>) -> Outline {
    let game = G::DESCRIPTOR.key;
    Outline {
        game,
        lessons: t
            .lessons
            .iter()
            .map(|l| LessonOutline {
                key: l.key,
                title: format!("tutorial.{game}.{}", l.key),
                steps: l
                    .steps
                    .iter()
                    .map(|s| {
                        let text = format!("tutorial.{game}.{}.{}", l.key, s.key);
                        StepOutline {
                            key: s.key,
                            seat: s.seat.0,
                            hint: format!("{text}.hint"),
                            text,
                        }
                    })
                    .collect(),
            })
            .collect(),
        final_table: serde_json::to_value(&t.final_table).expect("options serialise"),
        final_solo: t.final_solo,
    }
}

/// The outline of `kind`'s tutorial; `None` when the game has none.
pub fn outline_of(kind: GameKind) -> Option<Outline> {
    dispatch!(kind, G => <G as Tutorials>::tutorial().map(outline))
}

/// The games that have a tutorial, in registry order.
pub fn games_with_tutorials() -> Vec<GameKind> {
    GameKind::ALL
        .iter()
        .copied()
        .filter(|&k| dispatch!(k, G => <G as Tutorials>::tutorial().is_some()))
        .collect()
}

fn not_found(what: &str) -> GameError {
    GameError::new("not_found", format!("no such {what}"))
}

/// Finds the step `lesson`/`step` of `t` and runs `f` on it.
fn with_step<G: Rules, T>(
    t: Option<Tutorial<G>>,
    lesson: &str,
    step: &str,
    f: impl FnOnce(&pyramidion_core::tutorial::Step<G>) -> Result<T, GameError>,
) -> Result<T, GameError> {
    let t = t.ok_or_else(|| not_found("tutorial"))?;
    let l = t
        .lessons
        .iter()
        .find(|l| l.key == lesson)
        .ok_or_else(|| not_found("lesson"))?;
    let s = l
        .steps
        .iter()
        .find(|s| s.key == step)
        .ok_or_else(|| not_found("step"))?;
    f(s)
}

/// The position of a step, rebuilt from its record (the deal and the prefix, each move
/// checked), as every replay is.
pub fn position(kind: GameKind, lesson: &str, step: &str) -> Result<StepPosition, GameError> {
    dispatch!(kind, G => with_step(<G as Tutorials>::tutorial(), lesson, step, |s| {
        let mut record = Record::new(G::DESCRIPTOR.key, &s.options, s.seed);
        record.moves = s.prefix.iter().map(|m| m.to_string()).collect();
        let game = AnyGame::from_record(&record)?;
        Ok(StepPosition { game, seat: s.seat })
    }))
}

/// Judges `text` tried at a step: the verdict of the game's own rules and measure.
pub fn try_move(kind: GameKind, lesson: &str, step: &str, text: &str) -> Result<Tried, GameError> {
    dispatch!(kind, G => with_step(<G as Tutorials>::tutorial(), lesson, step, |s| {
        let position = s
            .position()
            .map_err(|e| GameError::new("internal", e.to_string()))?;
        let verdict = s.judge(&position, text.trim());
        let accepted = matches!(verdict, Verdict::Solved { .. }).then(|| s.accepted_texts());
        Ok(Tried { verdict, accepted })
    }))
}

/// A step's accepted moves and the wrong moves it lists, canonical: for tests and tools that
/// play a tutorial as a learner would (the server never sends them before a step is solved).
pub fn answers(kind: GameKind, lesson: &str, step: &str) -> Result<Answers, GameError> {
    dispatch!(kind, G => with_step(<G as Tutorials>::tutorial(), lesson, step, |s| {
        Ok(Answers {
            accepted: s.accepted_texts(),
            wrong: s.wrong.iter().map(|w| w.to_string()).collect(),
        })
    }))
}

/// See [`answers`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answers {
    pub accepted: Vec<String>,
    pub wrong: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game's tutorial holds together: each step's position replays to the learner's
    /// seat through the rules, its accepted moves are legal and exactly the best by its
    /// measure, and each wrong move it lists is answered with a code or a computed figure.
    #[test]
    fn every_tutorial_replays_and_answers() {
        for &kind in GameKind::ALL {
            let problems = dispatch!(kind, G => <G as Tutorials>::tutorial().map(|t| pyramidion_core::tutorial::check(&t)));
            if let Some(problems) = problems {
                assert!(problems.is_empty(), "{kind}: {problems:#?}");
            }
        }
    }

    /// Through the registry: a step's position is its seat's turn, an accepted move is
    /// solved (and only then are the accepted moves told), a wrong one is not.
    #[test]
    fn steps_are_judged_by_key() {
        for kind in games_with_tutorials() {
            let o = outline_of(kind).unwrap();
            for l in &o.lessons {
                for s in &l.steps {
                    let p = position(kind, l.key, s.key).unwrap();
                    assert_eq!(p.game.to_move(), pyramidion_core::ToMove::Seat(p.seat));
                    let tried = try_move(kind, l.key, s.key, "no such move").unwrap();
                    assert_eq!(tried.accepted, None, "{kind} {}", s.key);
                    assert!(matches!(tried.verdict, Verdict::Illegal { .. }));
                }
            }
            let e = position(kind, "nope", "nope").err().unwrap();
            assert_eq!(e.code, "not_found");
        }
    }

    /// Every text a tutorial shows exists in the game's catalogs in each language, and says
    /// no figure of its own: numbers come from the engine, through `{placeholders}`.
    #[test]
    fn tutorial_texts_are_translated_and_say_no_number() {
        let web = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/js");
        for kind in games_with_tutorials() {
            let o = outline_of(kind).unwrap();
            for lang in ["en", "fr", "it"] {
                let path = format!("{web}/{}/i18n/{lang}.json", o.game);
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                let catalog: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_str(&text).unwrap();
                let mut keys: Vec<String> = Vec::new();
                for l in &o.lessons {
                    keys.push(l.title.clone());
                    for s in &l.steps {
                        keys.push(s.text.clone());
                        keys.push(s.hint.clone());
                    }
                }
                let prefix = format!("tutorial.{}.", o.game);
                keys.extend(catalog.keys().filter(|k| k.starts_with(&prefix)).cloned());
                for key in keys {
                    let said = catalog
                        .get(&key)
                        .and_then(|v| v.as_str())
                        .unwrap_or_else(|| panic!("{path}: no '{key}'"));
                    let outside: String = said
                        .split('{')
                        .enumerate()
                        .map(|(i, part)| {
                            if i == 0 {
                                part
                            } else {
                                part.split_once('}').map_or(part, |(_, rest)| rest)
                            }
                        })
                        .collect();
                    assert!(
                        !outside.chars().any(|c| c.is_ascii_digit()),
                        "{path}: '{key}' types a number: {said}"
                    );
                }
            }
        }
    }
}
