//! [`Engine`]: one game of any registered kind with everything the page asks of it, in plain
//! Rust with JSON in and out. The WebAssembly bindings (`lib.rs`) only forward to it, so the
//! same code runs natively (the tests, the parity fixture) and in the browser, and the parity
//! test compares the very strings both produce.
//!
//! Everything goes through the registry's public face (`AnyGame`, `bots::choose_any`,
//! `analysis::*`): this crate names no game, and a new game needs nothing here.
use pyramidion_ai::analysis::AnalysisConfig;
use pyramidion_ai::level::BotLevel;
use pyramidion_core::record::Record;
use pyramidion_core::{Seat, Seed, ToMove};
use pyramidion_games::{AnyGame, GameError, GameKind, analysis, bots};
use serde_json::Value;

/// A game being played in the page, and its record (what an offline game uploads, and what
/// the analysis reads).
#[derive(Clone, Debug)]
pub struct Engine {
    game: AnyGame,
    record: Record,
    /// Built from a seat's view ([`Engine::from_view`]): its record holds none of the moves
    /// before, so it is neither analysed nor uploaded.
    sampled: bool,
}

/// Every registered game's descriptor (what `GET /api/games` serves), as JSON.
pub fn games_json() -> String {
    to_json(&GameKind::descriptors())
}

/// Whether the game of `key` rebuilds states from views (`false` for no such game).
pub fn samples_views(key: &str) -> bool {
    kind(key).is_ok_and(pyramidion_games::sampler::samples_views)
}

fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // Every value handed here is a registry type whose serialisation cannot fail (no map
    // with non-string keys, no failing `Serialize` impl); the registry relies on the same.
    serde_json::to_string(value).expect("registry values serialise")
}

fn kind(key: &str) -> Result<GameKind, GameError> {
    key.parse()
        .map_err(|e: pyramidion_games::UnknownGame| GameError::new("unknown_game", e.to_string()))
}

/// A move played as the page receives it: `{seat, text, kind, …fields}`.
fn reply(seat: u8, info: &pyramidion_games::MoveInfo) -> String {
    let mut reply = serde_json::Map::new();
    reply.insert("seat".into(), Value::from(seat));
    reply.insert("text".into(), Value::from(info.text.clone()));
    if let Value::Object(form) = &info.form {
        reply.extend(form.clone());
    }
    to_json(&reply)
}

impl Engine {
    /// A new game of `game` (its key) with `options` (JSON; empty or `null` for the game's
    /// defaults) dealt from `seed`.
    pub fn new(game: &str, options: &str, seed: Seed) -> Result<Engine, GameError> {
        let kind = kind(game)?;
        let options: Value = if options.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(options)
                .map_err(|e| GameError::new("bad_options", e.to_string()))?
        };
        let game = AnyGame::new(kind, &options, seed)?;
        // The record keeps the options as the game understood them (defaults filled in), so
        // that it replays whatever the defaults become.
        let record = Record::new(kind.key(), &game.options(), seed);
        Ok(Engine {
            game,
            record,
            sampled: false,
        })
    }

    /// The game of a record (JSON or text form), every move replayed and checked.
    pub fn from_record(text: &str) -> Result<Engine, GameError> {
        let record = Record::parse(text)
            .map_err(|e| GameError::new(pyramidion_core::ErrorCode::code(&e), e.to_string()))?;
        let game = AnyGame::from_record(&record)?;
        let record = Record {
            result: None,
            move_lines: Vec::new(),
            ..record
        };
        Ok(Engine {
            game,
            record,
            sampled: false,
        })
    }

    /// A game whose view for `seat` is `view` (JSON, as the server sent it), what the view
    /// hides drawn from `seed` (the game's sampler: `no_sampler` where it has none). What a
    /// page computes on it (a preview, a local analysis) uses nothing the seat may not see.
    pub fn from_view(game: &str, view: &str, seat: u8, seed: Seed) -> Result<Engine, GameError> {
        let kind = kind(game)?;
        let view: Value =
            serde_json::from_str(view).map_err(|e| GameError::new("bad_view", e.to_string()))?;
        let game = AnyGame::from_view(kind, &view, Seat(seat), seed)?;
        let record = Record::new(kind.key(), &game.options(), seed);
        Ok(Engine {
            game,
            record,
            sampled: true,
        })
    }

    fn whole_record(&self) -> Result<&Record, GameError> {
        if self.sampled {
            return Err(GameError::new(
                "no_record",
                "a game rebuilt from a view has no record of the moves before it",
            ));
        }
        Ok(&self.record)
    }

    pub fn key(&self) -> &'static str {
        self.game.kind().key()
    }

    pub fn seats(&self) -> u8 {
        self.game.seats()
    }

    pub fn ply(&self) -> u32 {
        self.game.ply()
    }

    /// The seat to move; `None` once the game is over.
    pub fn to_move(&self) -> Option<u8> {
        match self.game.to_move() {
            ToMove::Seat(s) => Some(s.0),
            ToMove::Over => None,
        }
    }

    /// The legal moves of the seat to move, with their structured forms (`[{text, kind,
    /// …fields}]`; empty once the game is over).
    pub fn legal_moves_json(&self) -> String {
        to_json(&self.game.legal_moves())
    }

    /// Plays a move given as text, checked by the rules; nothing changes on error. Returns
    /// the move as its seat sees it (`{seat, text, kind, …fields}`, the text canonical).
    pub fn play(&mut self, text: &str) -> Result<String, GameError> {
        let played = self.game.play_text(text)?;
        self.record.moves.push(played.full.text.clone());
        Ok(reply(played.seat.0, &played.full))
    }

    /// Plays a move like [`Engine::play`] (the record keeps its full text), and returns it as
    /// `viewer` (`None`: a spectator) may see it: another seat's hidden choices redacted until
    /// the game is over, as the server's `last_move` says it. A page that deals a game itself
    /// (offline) logs the bots' moves this way, so that its move log spoils nothing the table
    /// would not show.
    pub fn play_seen_by(&mut self, text: &str, viewer: Option<u8>) -> Result<String, GameError> {
        let viewer = self.seat(viewer)?;
        let played = self.game.play_text(text)?;
        self.record.moves.push(played.full.text.clone());
        let over = self.to_move().is_none();
        Ok(reply(played.seat.0, played.seen_by(viewer, over)))
    }

    /// What `seat` sees (`None`: a spectator), exactly as the server serialises it.
    pub fn view_json(&self, seat: Option<u8>) -> Result<String, GameError> {
        let seat = self.seat(seat)?;
        Ok(self.game.view_json(seat).get().to_owned())
    }

    fn seat(&self, seat: Option<u8>) -> Result<Option<Seat>, GameError> {
        match seat {
            Some(s) if s >= self.seats() => Err(GameError::new(
                "bad_seat",
                format!("seat {s} is not in this game of {} seats", self.seats()),
            )),
            seat => Ok(seat.map(Seat)),
        }
    }

    /// The final result (`null` while the game goes on).
    pub fn outcome_json(&self) -> String {
        to_json(&self.game.outcome())
    }

    /// The move (as text) a bot of `level` (`random` … `max`, or `search:N`) seeded with
    /// `seed` plays for the seat to move.
    pub fn bot_move(&self, level: &str, seed: Seed) -> Result<String, GameError> {
        let level: BotLevel = level
            .parse()
            .map_err(|e: pyramidion_ai::level::UnknownLevel| {
                GameError::new("unknown_level", e.to_string())
            })?;
        if self.to_move().is_none() {
            return Err(GameError::new("game_over", "the game is over"));
        }
        Ok(bots::choose_any(&self.game, level, seed))
    }

    /// The record so far (JSON form): game, options, seed and the moves played.
    pub fn record_json(&self) -> String {
        to_json(&self.record)
    }

    /// The analysis of every decision played so far (the replay page's report), with
    /// `budget` playouts per decision (`None`: the judge's full budget, four times `max`'s)
    /// and the analysis's own `seed`.
    pub fn analyse(&self, budget: Option<u32>, seed: u64) -> Result<String, GameError> {
        let config = self.analysis_config(budget, seed)?;
        let report = analysis::analyse_record(self.whole_record()?, config)
            .map_err(|e| GameError::new(e.code, e.message))?;
        Ok(to_json(&report))
    }

    /// The judgement of the decision open now (JSON: a decision as the report gives one, its
    /// `played` fields meaningless; `null` when no seat has a choice), with `budget` playouts:
    /// the local analysis of a running game, on a game rebuilt from the seat's view
    /// ([`Engine::from_view`]), which never saw the true state.
    pub fn judge_now(&self, budget: Option<u32>, seed: u64) -> Result<String, GameError> {
        let config = self.analysis_config(budget, seed)?;
        Ok(to_json(&analysis::judge_now(&self.game, config)))
    }

    /// The decisions among moves `from..to` of the record only: a position's analysis, or a
    /// long one cut into short steps that the page runs one after another.
    pub fn analyse_plies(
        &self,
        from: usize,
        to: usize,
        budget: Option<u32>,
        seed: u64,
    ) -> Result<String, GameError> {
        self.whole_record()?;
        if from > to || to > self.record.moves.len() {
            return Err(GameError::new(
                "bad_range",
                format!(
                    "moves {from}..{to} are not within the {} moves played",
                    self.record.moves.len()
                ),
            ));
        }
        let config = self.analysis_config(budget, seed)?;
        let (decisions, _) = analysis::analyse_plies(&self.record, config, from..to)
            .map_err(|e| GameError::new(e.code, e.message))?;
        Ok(to_json(&decisions))
    }

    fn analysis_config(&self, budget: Option<u32>, seed: u64) -> Result<AnalysisConfig, GameError> {
        let judge = AnalysisConfig::judge(self.game.descriptor(), seed);
        match budget {
            None => Ok(judge),
            Some(0) => Err(GameError::new(
                "bad_budget",
                "an analysis needs at least one playout per decision",
            )),
            Some(budget) => Ok(AnalysisConfig { budget, ..judge }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_game() -> &'static str {
        GameKind::ALL[0].key()
    }

    fn code<T: std::fmt::Debug>(r: Result<T, GameError>) -> &'static str {
        r.unwrap_err().code
    }

    #[test]
    fn bad_input_gets_codes_not_panics() {
        assert_eq!(code(Engine::new("chess", "", 1)), "unknown_game");
        assert_eq!(code(Engine::new(first_game(), "{", 1)), "bad_options");
        assert_eq!(
            code(Engine::new(first_game(), r#"{"players": 9}"#, 1)),
            "bad_player_count"
        );
        assert_eq!(code(Engine::from_record("game: chess")), "bad_record");
        let mut e = Engine::new(first_game(), "", 1).unwrap();
        assert_eq!(code(e.play("jump")), "bad_move_syntax");
        assert_eq!(code(e.view_json(Some(e.seats()))), "bad_seat");
        assert_eq!(code(e.bot_move("grandmaster", 1)), "unknown_level");
        assert_eq!(code(e.analyse(Some(0), 1)), "bad_budget");
        assert_eq!(code(e.analyse_plies(0, 1, None, 1)), "bad_range");
        // Nothing changed on the way.
        assert_eq!(e.ply(), 0);
        assert_eq!(e.record.moves.len(), 0);
    }

    /// Every registered game plays to its end through the facade, bots choosing; its record
    /// replays to the same views, and the moves it returns are the canonical ones recorded.
    #[test]
    fn every_game_plays_to_the_end_and_its_record_replays() {
        for &kind in GameKind::ALL {
            let mut e = Engine::new(kind.key(), "null", 5).unwrap();
            let mut turns = 0;
            while e.to_move().is_some() {
                let m = e.bot_move("greedy", u64::from(e.ply())).unwrap();
                let played: Value = serde_json::from_str(&e.play(&m).unwrap()).unwrap();
                assert_eq!(played["text"], m.as_str(), "{kind}");
                turns += 1;
                assert!(turns < 10_000, "{kind} does not end");
            }
            assert_eq!(e.legal_moves_json(), "[]");
            assert_eq!(code(e.bot_move("random", 1)), "game_over");
            let outcome: Value = serde_json::from_str(&e.outcome_json()).unwrap();
            assert_eq!(
                outcome["scores"].as_array().unwrap().len(),
                usize::from(e.seats())
            );
            let again = Engine::from_record(&e.record_json()).unwrap();
            for seat in (0..e.seats()).map(Some).chain([None]) {
                assert_eq!(again.view_json(seat), e.view_json(seat), "{kind}");
            }
            assert_eq!(again.outcome_json(), e.outcome_json());
        }
    }

    /// The seat that plays a move sees it whole; another seat sees what the server's
    /// `last_move` would say; either way the record keeps the move's full text.
    #[test]
    fn a_move_seen_by_a_seat_is_what_the_server_would_send_it() {
        for &kind in GameKind::ALL {
            let mut whole = Engine::new(kind.key(), "null", 11).unwrap();
            let mut seen = whole.clone();
            let mut server = AnyGame::new(kind, &Value::Null, 11).unwrap();
            while let Some(mover) = whole.to_move() {
                let m = whole.bot_move("random", u64::from(whole.ply())).unwrap();
                let other = (mover + 1) % whole.seats();
                let mut mine = seen.clone();
                assert_eq!(
                    mine.play_seen_by(&m, Some(mover)).unwrap(),
                    whole.play(&m).unwrap(),
                    "{kind}"
                );
                let played = server.play_text(&m).unwrap();
                let over = server.to_move() == ToMove::Over;
                let theirs = played.seen_by(Some(Seat(other)), over);
                assert_eq!(
                    seen.play_seen_by(&m, Some(other)).unwrap(),
                    reply(mover, theirs),
                    "{kind}"
                );
            }
            assert_eq!(seen.record_json(), whole.record_json(), "{kind}");
            let mut e = Engine::new(kind.key(), "null", 11).unwrap();
            let m = e.bot_move("random", 1).unwrap();
            assert_eq!(code(e.play_seen_by(&m, Some(e.seats()))), "bad_seat");
            assert_eq!(e.ply(), 0);
        }
    }

    /// A game rebuilt from a seat's view shows that seat the same view, previews a move as
    /// the true game then shows it, and refuses what needs the moves before it.
    #[test]
    fn a_game_from_a_view_previews_what_the_true_game_shows() {
        for &kind in GameKind::ALL {
            let mut e = Engine::new(kind.key(), "null", 21).unwrap();
            for _ in 0..6 {
                let m = e.bot_move("random", u64::from(e.ply())).unwrap();
                e.play(&m).unwrap();
            }
            let seat = e.to_move().unwrap();
            let view = e.view_json(Some(seat)).unwrap();
            let sampled = match Engine::from_view(kind.key(), &view, seat, 3) {
                Err(err) => {
                    assert!(!samples_views(kind.key()), "{kind}: {err}");
                    assert_eq!(err.code, "no_sampler");
                    continue;
                }
                Ok(sampled) => sampled,
            };
            assert_eq!(sampled.view_json(Some(seat)).unwrap(), view, "{kind}");
            let m = e.bot_move("greedy", 1).unwrap();
            // A preview: the move played on the rebuilt game, the seat's view read after it.
            let mut previewing = sampled.clone();
            previewing.play(&m).unwrap();
            let previewed = previewing.view_json(Some(seat)).unwrap();
            e.play(&m).unwrap();
            // The view after the move, as far as the move shows what was hidden (a flip
            // shows a front the sample drew): the seat's own summary is the same.
            let after: Value = serde_json::from_str(&e.view_json(Some(seat)).unwrap()).unwrap();
            let previewed: Value = serde_json::from_str(&previewed).unwrap();
            assert_eq!(
                previewed["seats"][usize::from(seat)]["score"],
                after["seats"][usize::from(seat)]["score"],
                "{kind}"
            );
            assert_eq!(code(sampled.analyse(Some(8), 1)), "no_record");
        }
        assert!(!samples_views("chess"));
        assert_eq!(code(Engine::from_view(first_game(), "{", 0, 1)), "bad_view");
    }

    #[test]
    fn a_cheap_analysis_reports_every_decision() {
        let mut e = Engine::new(first_game(), "", 3).unwrap();
        for _ in 0..4 {
            let m = e.bot_move("random", u64::from(e.ply())).unwrap();
            e.play(&m).unwrap();
        }
        let report: Value = serde_json::from_str(&e.analyse(Some(8), 1).unwrap()).unwrap();
        assert_eq!(report["game"], first_game());
        assert_eq!(report["budget"], 8);
        let decisions: Value =
            serde_json::from_str(&e.analyse_plies(0, 4, Some(8), 1).unwrap()).unwrap();
        assert_eq!(report["decisions"], decisions);
    }
}
