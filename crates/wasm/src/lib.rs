//! The engines in the browser: every registered game and its bots as a WebAssembly module
//! (`scripts/build-wasm` builds it into `web/wasm/`; `web/js/engine.js` loads it when a page
//! needs it).
//!
//! The bindings below only forward to [`Engine`], which speaks JSON strings: views, moves and
//! outcomes cross into JavaScript exactly as the server sends them (one serialisation, in
//! Rust), and the parity test compares those strings byte for byte with the native build's.
//! A failure is thrown as a JSON string `{"code": …, "message": …}` with the registry's
//! stable code; `web/js/engine.js` turns it into an `EngineError`.
#![forbid(unsafe_code)]

mod engine;
#[cfg(feature = "speed")]
pub mod speed;

pub use engine::{Engine, games_json, samples_views};

use pyramidion_games::GameError;
use wasm_bindgen::prelude::*;

fn thrown(e: GameError) -> JsValue {
    let error = serde_json::json!({ "code": e.code, "message": e.message });
    JsValue::from_str(&error.to_string())
}

/// Every registered game's descriptor, as JSON.
#[wasm_bindgen]
pub fn games() -> String {
    games_json()
}

/// Whether `game` (its key) rebuilds a state from a seat's view, which previews and local
/// analyses of a game the server runs need (`false` for a key no game has).
#[wasm_bindgen(js_name = samplesViews)]
pub fn samples_views_js(game: &str) -> bool {
    engine::samples_views(game)
}

/// `speed::random_games` (the speed figures): complete random games, the moves played.
#[cfg(feature = "speed")]
#[wasm_bindgen(js_name = benchRandomGames)]
pub fn bench_random_games(
    game: &str,
    options: &str,
    first_seed: u64,
    games: u32,
) -> Result<f64, JsValue> {
    // f64: a move count far beyond what a benchmark plays fits exactly (below 2^53).
    speed::random_games(game, options, first_seed, games)
        .map(|moves| moves as f64)
        .map_err(thrown)
}

/// `speed::positions` (the speed figures) as a JSON array of records.
#[cfg(feature = "speed")]
#[wasm_bindgen(js_name = benchPositions)]
pub fn bench_positions(game: &str, seed: u64, count: u32) -> Result<String, JsValue> {
    let positions = speed::positions(game, seed, count as usize).map_err(thrown)?;
    let records: Vec<String> = positions.iter().map(Engine::record_json).collect();
    Ok(format!("[{}]", records.join(",")))
}

/// One game in the page (JavaScript's `Engine`).
#[wasm_bindgen(js_name = Engine)]
pub struct JsEngine(Engine);

#[wasm_bindgen(js_class = Engine)]
impl JsEngine {
    /// A new game: its key, its options as JSON (`""` or `"null"` for the defaults), its seed.
    #[wasm_bindgen(constructor)]
    pub fn new(game: &str, options: &str, seed: u64) -> Result<JsEngine, JsValue> {
        Engine::new(game, options, seed)
            .map(JsEngine)
            .map_err(thrown)
    }

    /// The game of a record (JSON or text), every move checked.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(record: &str) -> Result<JsEngine, JsValue> {
        Engine::from_record(record).map(JsEngine).map_err(thrown)
    }

    /// The game behind `seat`'s view (JSON, as the server sent it), what it hides drawn from
    /// `seed`: what previews and local analyses of a game the server runs compute on.
    #[wasm_bindgen(js_name = fromView)]
    pub fn from_view(game: &str, view: &str, seat: u8, seed: u64) -> Result<JsEngine, JsValue> {
        Engine::from_view(game, view, seat, seed)
            .map(JsEngine)
            .map_err(thrown)
    }

    #[wasm_bindgen(getter)]
    pub fn game(&self) -> String {
        self.0.key().to_owned()
    }

    #[wasm_bindgen(getter)]
    pub fn seats(&self) -> u8 {
        self.0.seats()
    }

    #[wasm_bindgen(getter)]
    pub fn ply(&self) -> u32 {
        self.0.ply()
    }

    /// The seat to move, `undefined` once the game is over.
    #[wasm_bindgen(getter, js_name = toMove)]
    pub fn to_move(&self) -> Option<u8> {
        self.0.to_move()
    }

    /// The legal moves as JSON: `[{text, kind, …fields}]`.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> String {
        self.0.legal_moves_json()
    }

    /// Plays a move (text), checked; returns it as JSON `{seat, text, kind, …fields}`.
    pub fn play(&mut self, text: &str) -> Result<String, JsValue> {
        self.0.play(text).map_err(thrown)
    }

    /// Plays a move (text), checked; returns it as `viewer` (`undefined`: a spectator) may
    /// see it, other seats' hidden choices redacted until the game is over.
    #[wasm_bindgen(js_name = playSeenBy)]
    pub fn play_seen_by(&mut self, text: &str, viewer: Option<u8>) -> Result<String, JsValue> {
        self.0.play_seen_by(text, viewer).map_err(thrown)
    }

    /// The view of `seat` (`undefined`: a spectator's) as JSON, as the server sends it.
    pub fn view(&self, seat: Option<u8>) -> Result<String, JsValue> {
        self.0.view_json(seat).map_err(thrown)
    }

    /// The final result as JSON (`null` while the game goes on).
    pub fn outcome(&self) -> String {
        self.0.outcome_json()
    }

    /// The move (text) a bot of `level` seeded with `seed` plays for the seat to move.
    #[wasm_bindgen(js_name = botMove)]
    pub fn bot_move(&self, level: &str, seed: u64) -> Result<String, JsValue> {
        self.0.bot_move(level, seed).map_err(thrown)
    }

    /// The record so far, as JSON.
    pub fn record(&self) -> String {
        self.0.record_json()
    }

    /// The analysis of the moves played, as JSON (`budget`: playouts per decision, the
    /// judge's full budget when `undefined`).
    pub fn analyse(&self, budget: Option<u32>, seed: u64) -> Result<String, JsValue> {
        self.0.analyse(budget, seed).map_err(thrown)
    }

    /// The judgement of the decision open now, as JSON (`null` without a choice).
    #[wasm_bindgen(js_name = judgeNow)]
    pub fn judge_now(&self, budget: Option<u32>, seed: u64) -> Result<String, JsValue> {
        self.0.judge_now(budget, seed).map_err(thrown)
    }

    /// The decisions among moves `from..to` only, as JSON.
    #[wasm_bindgen(js_name = analysePlies)]
    pub fn analyse_plies(
        &self,
        from: u32,
        to: u32,
        budget: Option<u32>,
        seed: u64,
    ) -> Result<String, JsValue> {
        self.0
            .analyse_plies(from as usize, to as usize, budget, seed)
            .map_err(thrown)
    }
}
