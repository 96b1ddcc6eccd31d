//! No input makes a game panic: arbitrary move texts, records and analysis requests, fed
//! through the registry's text/JSON face ([`AnyGame`], `pyramidion_games::analysis`) for
//! every registered game, come back as a result or a typed error (property tests, after
//! cargo-fuzz's targets, in the first tier).
//!
//! Inputs are built from the game's own notation so that they reach past the parser: a
//! legal game prefix chosen by indices, then words of the moves legal along it, numbers,
//! whole legal moves with a word changed, and raw text. Each property runs every game.
use proptest::prelude::*;
use proptest::test_runner::Config;
use pyramidion_ai::analysis::{AnalysisConfig, Measure};
use pyramidion_core::ErrorCode;
use pyramidion_core::record::Record;
use pyramidion_games::analysis::{analyse_plies, analyse_record, decision_count};
use pyramidion_games::{AnyGame, GameKind};
use serde_json::{Value, json};

/// One piece of an arbitrary move text.
#[derive(Clone, Debug)]
enum Piece {
    /// A word of a move legal somewhere along the prefix (by index).
    Word(u16),
    /// A number, as players type them or not (negative, huge).
    Number(i64),
    /// A whole move legal along the prefix, one of its words replaced by the next piece.
    Legal(u16, u8),
    Raw(String),
}

fn pieces() -> impl Strategy<Value = Vec<Piece>> {
    let piece = prop_oneof![
        3 => any::<u16>().prop_map(Piece::Word),
        2 => prop_oneof![-3i64..40, any::<i64>()].prop_map(Piece::Number),
        2 => (any::<u16>(), any::<u8>()).prop_map(|(m, w)| Piece::Legal(m, w)),
        1 => "\\PC{0,8}".prop_map(Piece::Raw),
    ];
    prop::collection::vec(piece, 0..5)
}

/// The words and texts of the moves legal along a game: what arbitrary texts are made of.
#[derive(Default)]
struct Vocabulary {
    words: Vec<String>,
    moves: Vec<String>,
}

impl Vocabulary {
    fn learn(&mut self, legal: &[String]) {
        for m in legal {
            if !self.moves.contains(m) {
                self.moves.push(m.clone());
            }
            for w in m.split_whitespace() {
                if !self.words.iter().any(|k| k == w) {
                    self.words.push(w.to_string());
                }
            }
        }
    }

    fn text(&self, pieces: &[Piece]) -> String {
        let pick = |list: &[String], i: u16| match list.len() {
            0 => String::new(),
            n => list[usize::from(i) % n].clone(),
        };
        let mut out: Vec<String> = Vec::new();
        let mut pieces = pieces.iter().peekable();
        while let Some(p) = pieces.next() {
            out.push(match p {
                Piece::Word(i) => pick(&self.words, *i),
                Piece::Number(n) => n.to_string(),
                Piece::Raw(s) => s.clone(),
                Piece::Legal(m, w) => {
                    let legal = pick(&self.moves, *m);
                    let mut words: Vec<String> =
                        legal.split_whitespace().map(str::to_string).collect();
                    if let (false, Some(next)) = (words.is_empty(), pieces.next()) {
                        let at = usize::from(*w) % words.len();
                        words[at] = self.text(std::slice::from_ref(next));
                    }
                    words.join(" ")
                }
            });
        }
        out.join(" ")
    }
}

/// Options for `kind`: a player count (in range or not) and each listed option with one of
/// its values or a wrong one; sometimes a JSON value of the wrong shape.
fn options(kind: GameKind, players: u8, choice: u16, odd: u8) -> Value {
    let d = kind.descriptor();
    let mut o = serde_json::Map::new();
    o.insert("players".into(), json!(players));
    for (i, option) in d.options.iter().enumerate() {
        let values = option.values;
        // A wrong value one time in eight.
        let wrong = (choice >> (13 - i.min(13))) & 7 == 0;
        let value = match values.get(usize::from(choice) % values.len().max(1)) {
            Some(v) if !wrong => json!(v),
            _ => json!("no-such-value"),
        };
        o.insert(option.key.into(), value);
    }
    match odd % 32 {
        0 => json!(players),
        1 => json!({"players": -1}),
        2 => json!({"players": "two"}),
        3 => Value::Null,
        4 => {
            o.insert("surprise".into(), json!(true));
            Value::Object(o)
        }
        _ => Value::Object(o),
    }
}

/// A game of `kind` (in range: `players` brought into the descriptor's seats) after the moves
/// `picks` choose (an index among the legal moves each), and what was legal along the way.
fn game_after(
    kind: GameKind,
    players: u8,
    seed: u64,
    picks: &[u16],
) -> (AnyGame, Vec<String>, Vocabulary) {
    let seats = kind.descriptor().seats;
    let players = players.clamp(seats.min, seats.max).max(2.min(seats.max));
    let mut game = AnyGame::new(kind, &json!({ "players": players }), seed)
        .or_else(|_| AnyGame::new(kind, &Value::Null, seed))
        .expect("the default options start a game");
    let mut vocabulary = Vocabulary::default();
    let mut played = Vec::new();
    for &pick in picks {
        let legal = game.legal_texts();
        vocabulary.learn(&legal);
        if legal.is_empty() {
            break;
        }
        let m = &legal[usize::from(pick) % legal.len()];
        played.push(game.play_text(m).expect("a legal move plays").full.text);
    }
    vocabulary.learn(&game.legal_texts());
    (game, played, vocabulary)
}

fn kind() -> impl Strategy<Value = GameKind> {
    prop::sample::select(GameKind::ALL)
}

/// Every case is one game; these cases cover all the games each.
fn config(cases: u32) -> Config {
    Config {
        cases,
        // A failure prints its input; nothing is written into the source tree.
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// An arbitrary text is played or refused with a listed code, and a refusal changes
    /// nothing; what is accepted was one of the legal moves.
    #[test]
    fn arbitrary_move_texts(
        kind in kind(),
        players in 0u8..6,
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<u16>(), 0..60),
        pieces in pieces(),
    ) {
        let (mut game, _, vocabulary) = game_after(kind, players, seed, &picks);
        let text = vocabulary.text(&pieces);
        let before = game.clone();
        let legal = game.legal_texts();
        match game.play_text(&text) {
            Ok(played) => prop_assert!(legal.contains(&played.full.text), "{kind}: {text:?}"),
            Err(e) => {
                prop_assert!(game == before, "{kind}: refused {text:?} changed the game");
                let listed = kind.descriptor().move_errors.contains(&e.code)
                    || ["bad_move_syntax", "game_over"].contains(&e.code);
                prop_assert!(listed, "{kind}: {text:?}: code {} is not listed", e.code);
            }
        }
    }

    /// An arbitrary record (JSON or text form) is replayed or refused with a code; its
    /// prefixes likewise.
    #[test]
    fn arbitrary_records(
        kind in kind(),
        players in 0u8..8,
        option_choice in any::<u16>(),
        odd in any::<u8>(),
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<u16>(), 0..50),
        corruption in prop::option::weighted(0.6, (any::<u16>(), pieces())),
        game_key in prop_oneof![4 => Just(None), 1 => "\\PC{0,12}".prop_map(Some)],
        result in prop::option::weighted(0.15, prop::collection::vec(-5i32..100, 0..5)),
        prefix in any::<u16>(),
        as_text in any::<bool>(),
    ) {
        let (_, mut moves, vocabulary) = game_after(kind, players, seed, &picks);
        if let Some((at, pieces)) = corruption {
            let text = vocabulary.text(&pieces);
            let at = usize::from(at) % (moves.len() + 1);
            moves.insert(at, text);
        }
        let seats = kind.descriptor().seats;
        let players = if odd % 8 == 0 { players } else { players.clamp(seats.min, seats.max) };
        let record = json!({
            "game": game_key.unwrap_or_else(|| kind.key().to_string()),
            "options": options(kind, players, option_choice, odd),
            "seed": seed,
            "moves": moves,
            "result": result,
        });
        let text = record.to_string();
        let parsed = Record::parse(&text);
        let text = match (&parsed, as_text) {
            (Ok(r), true) => r.to_text(),
            _ => text,
        };
        let Ok(record) = Record::parse(&text) else { return Ok(()) };
        match AnyGame::from_record(&record) {
            Ok(game) => prop_assert_eq!(game.ply() as usize, record.moves.len()),
            Err(e) => prop_assert!(!e.code.is_empty()),
        }
        let n = usize::from(prefix) % (record.moves.len() + 2);
        if let Ok(game) = AnyGame::from_record_prefix(&record, Some(n)) {
            prop_assert_eq!(game.ply() as usize, n.min(record.moves.len()));
        }
    }

}

proptest! {
    // An analysis plays out hundreds of games: fewer cases (each still one whole record).
    #![proptest_config(config(48))]

    /// The analysis of an arbitrary record, whole or of any range of plies, at any small
    /// budget: a report or a typed error.
    #[test]
    fn arbitrary_analyses(
        kind in kind(),
        players in 0u8..6,
        seed in any::<u64>(),
        picks in prop::collection::vec(any::<u16>(), 0..12),
        corruption in prop::option::of((any::<u16>(), pieces())),
        budget in 0u32..6,
        max_futures in 0u32..6,
        points in any::<bool>(),
        range in (0usize..20, 0usize..20),
        analysis_seed in any::<u64>(),
    ) {
        let (_, mut moves, vocabulary) = game_after(kind, players, seed, &picks);
        if let Some((at, pieces)) = corruption {
            let text = vocabulary.text(&pieces);
            let at = usize::from(at) % (moves.len() + 1);
            moves.insert(at, text);
        }
        let seats = kind.descriptor().seats;
        let record = Record::parse(&json!({
            "game": kind.key(),
            "options": { "players": players.clamp(seats.min, seats.max).max(2.min(seats.max)) },
            "seed": seed,
            "moves": moves,
        }).to_string()).expect("a record of moves parses");
        let config = AnalysisConfig {
            budget,
            seed: analysis_seed,
            measure: if points { Measure::Points } else { Measure::Margin },
            max_futures,
        };
        let replays = AnyGame::from_record(&record).is_ok();
        match analyse_record(&record, config) {
            Ok(report) => {
                prop_assert!(replays, "{kind}: analysed a record that does not replay");
                for d in &report.decisions {
                    prop_assert!(d.ply < record.moves.len() && d.lost >= 0.0, "{kind}: {d:?}");
                }
            }
            Err(e) => {
                prop_assert!(!replays, "{kind}: refused a record that replays: {e}");
                prop_assert!(!e.code().is_empty());
            }
        }
        prop_assert_eq!(decision_count(&record).is_ok(), replays);
        let _ = analyse_plies(&record, config, range.0..range.1);
    }
}
