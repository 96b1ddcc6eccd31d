// @ts-check
// The engines in the page: every registered game's rules and bots, compiled to WebAssembly
// from the same Rust as the server (crates/wasm; scripts/build-wasm puts the module in
// web/wasm/). Loaded only when a page asks for it, once. Views, moves and outcomes come back
// exactly as the server sends them; a refusal is an `EngineError` with the server's stable
// code (`illegal_move`, `bad_move_syntax`, `unknown_level`…).
//
// A game the server runs stays the server's: the page may compute with the engines from what
// its seat sees, never from a state the server did not send it.

export class EngineError extends Error {
  /**
   * @param {string} code the engine's error code (the same codes as the server's)
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Runs `f`, turning the module's thrown `{"code","message"}` JSON strings into `EngineError`s.
 * @template T
 * @param {() => T} f
 * @returns {T}
 */
export function checked(f) {
  try {
    return f();
  } catch (e) {
    if (typeof e !== 'string') throw e;
    let error;
    try {
      error = JSON.parse(e);
    } catch {
      throw new EngineError('engine_error', e);
    }
    throw new EngineError(error.code, error.message);
  }
}

/** One game played by the engines in the page. */
export class LocalGame {
  /** @param {any} raw the module's `Engine` */
  constructor(raw) {
    this.raw = raw;
  }

  /** @returns {string} the game's key */
  get game() {
    return this.raw.game;
  }

  /** @returns {number} */
  get seats() {
    return this.raw.seats;
  }

  /** @returns {number} */
  get ply() {
    return this.raw.ply;
  }

  /** @returns {number | undefined} the seat to move; `undefined` once the game is over */
  get toMove() {
    return this.raw.toMove;
  }

  /** @returns {Array<{text: string, kind: string}>} the legal moves with their forms */
  legalMoves() {
    return JSON.parse(this.raw.legalMoves());
  }

  /**
   * Plays a move, checked by the rules (nothing changes when it is refused).
   * @param {string} text the move's notation
   * @returns {{seat: number, text: string, kind: string}} the move as played, its text canonical
   */
  play(text) {
    return JSON.parse(checked(() => this.raw.play(text)));
  }

  /**
   * Plays a move like `play`, answering it as `seat` may see it (another seat's hidden
   * choices redacted until the game is over, as the server's `last_move` says it); the
   * record keeps the move whole.
   * @param {string} text the move's notation
   * @param {number} [seat] omitted: as a spectator sees it
   * @returns {{seat: number, text: string, kind: string}}
   */
  playSeenBy(text, seat) {
    return JSON.parse(checked(() => this.raw.playSeenBy(text, seat)));
  }

  /**
   * @param {number} [seat] omitted: a spectator's view
   * @returns {any} the view, as the server would send it to that seat
   */
  view(seat) {
    return JSON.parse(checked(() => this.raw.view(seat)));
  }

  /** @returns {any} the final result, `null` while the game goes on */
  outcome() {
    return JSON.parse(this.raw.outcome());
  }

  /**
   * @param {string} level `random`, `greedy`, `easy`, `medium`, `hard`, `max` or `search:N`
   * @param {bigint} seed
   * @returns {string} the move the bot plays for the seat to move
   */
  botMove(level, seed) {
    return checked(() => this.raw.botMove(level, seed));
  }

  /** @returns {{game: string, options: any, seed: number, moves: string[]}} the record so far */
  record() {
    return JSON.parse(this.raw.record());
  }

  /**
   * The analysis of the moves played (the replay page's report), computed in the page.
   * @param {number | undefined} budget playouts per decision; `undefined`: the judge's own
   * @param {bigint} seed
   */
  analyse(budget, seed) {
    return JSON.parse(checked(() => this.raw.analyse(budget, seed)));
  }

  /**
   * The judgement of the decision open now (a decision as the report gives one, its `played`
   * fields meaningless; `null` without a choice), computed in the page: on a game rebuilt
   * from a seat's view, the local analysis of a running game.
   * @param {number | undefined} budget playouts; `undefined`: the judge's own
   * @param {bigint} seed
   */
  judgeNow(budget, seed) {
    return JSON.parse(checked(() => this.raw.judgeNow(budget, seed)));
  }

  /** Frees the game's memory in the module (it is not garbage-collected). */
  free() {
    this.raw.free();
  }
}

/** The loaded module: the registry's games and a way to start or rebuild one. */
export class Engines {
  /** @param {any} glue the module's JavaScript bindings, initialised */
  constructor(glue) {
    this.glue = glue;
  }

  /** @returns {any[]} every registered game's descriptor */
  games() {
    return JSON.parse(this.glue.games());
  }

  /**
   * @param {string} game a game's key
   * @param {unknown} options the game's options (`null`: its defaults)
   * @param {bigint} seed
   */
  newGame(game, options, seed) {
    return new LocalGame(checked(() => new this.glue.Engine(game, JSON.stringify(options ?? null), seed)));
  }

  /**
   * Whether `game` rebuilds a state from a seat's view (previews and local analyses of a game
   * the server runs need it).
   * @param {string} game a game's key
   * @returns {boolean}
   */
  samplesViews(game) {
    return this.glue.samplesViews(game);
  }

  /**
   * The game behind `seat`'s view (as the server sent it), what the view hides drawn from
   * `seed`: the page computes on it without anything the seat may not see.
   * @param {string} game a game's key
   * @param {unknown} view
   * @param {number} seat
   * @param {bigint} seed
   */
  fromView(game, view, seat, seed) {
    return new LocalGame(checked(() => this.glue.Engine.fromView(game, JSON.stringify(view), seat, seed)));
  }

  /** @param {unknown} record a record (its JSON form as an object, or its text form) */
  fromRecord(record) {
    const text = typeof record === 'string' ? record : JSON.stringify(record);
    return new LocalGame(checked(() => this.glue.Engine.fromRecord(text)));
  }
}

/** @type {Promise<Engines> | null} */
let loading = null;

/**
 * The engines, loaded on the first call (later calls share it).
 * @param {{glue?: string | URL, wasm?: BufferSource | URL | string}} [from] where the module's
 * bindings and binary are (default: `web/wasm/` beside this file's folder, as the server
 * serves it); Node passes the binary's bytes, having no `fetch` for files
 * @returns {Promise<Engines>}
 */
export function loadEngines(from = {}) {
  if (!loading) {
    loading = (async () => {
      const glueUrl = from.glue ?? new URL('../wasm/pyramidion_wasm.js', import.meta.url);
      const glue = await import(String(glueUrl));
      await glue.default(from.wasm === undefined ? undefined : { module_or_path: from.wasm });
      return new Engines(glue);
    })();
    // A failed load (offline before the module was cached, say) may be tried again.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
