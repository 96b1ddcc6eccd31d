//! The native half of the parity test (`crates/wasm/node/parity.test.mjs`): plays random
//! games of every registered game through [`Engine`] natively and prints, one JSON line per
//! game, what the WebAssembly build must reproduce byte for byte.
//!
//!     cargo run -p pyramidion-wasm --example parity_fixture -- GAMES_PER_GAME [BOT_SAMPLES]
//!
//! The first line is every registered game's descriptor, as the module's `games()` must
//! print it. Each game's line holds its options, seed and moves (chosen here at random, seeded,
//! among the legal moves), and the SHA-256 of the byte stream the Node side rebuilds: at every
//! position, the legal moves, the view of every seat and a spectator's, the outcome, then the
//! reply to the move played, each string followed by a newline. The first `BOT_SAMPLES` games
//! of each game (default 2: a solo and a 2-player game of Forgotten Treasures, 2 and 3 players
//! in the others) also list the bots' moves at every ladder level at a few positions of the
//! game: what the module's bots must choose with the same seed.
use pyramidion_ai::level::BotLevel;
use pyramidion_games::GameKind;
use pyramidion_wasm::{Engine, samples_views};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// SplitMix64: the moves' choice needs only a seeded stream, which the Node side never
/// recomputes (it reads the moves).
struct Picker(u64);

impl Picker {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Options of game number `index` of `kind`: player counts and option values in turn.
fn options(kind: GameKind, index: u64) -> Value {
    let d = kind.descriptor();
    let counts = u64::from(d.seats.max - d.seats.min) + 1;
    let players = d.seats.min + (index % counts) as u8;
    let mut options = Map::new();
    options.insert("players".into(), json!(players));
    for option in d.options.iter().filter(|o| o.applies_to(players)) {
        let value = option.values[(index / counts) as usize % option.values.len()];
        options.insert(option.key.into(), json!(value));
    }
    Value::Object(options)
}

fn feed(hash: &mut Sha256, text: &str) {
    hash.update(text.as_bytes());
    hash.update(b"\n");
}

/// Feeds what a position shows: legal moves, every seat's view and a spectator's, outcome.
fn feed_position(hash: &mut Sha256, e: &Engine) {
    feed(hash, &e.legal_moves_json());
    for seat in (0..e.seats()).map(Some).chain([None]) {
        feed(hash, &e.view_json(seat).expect("seats in range"));
    }
    feed(hash, &e.outcome_json());
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let bot_samples: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    println!("{}", pyramidion_wasm::games_json());
    for &kind in GameKind::ALL {
        for index in 0..games {
            let options = options(kind, index);
            let seed = 1_000_003 * index + 17;
            let mut e = Engine::new(kind.key(), &options.to_string(), seed).expect("options fit");
            let mut picker = Picker(seed ^ 0x5eed);
            let mut hash = Sha256::new();
            let mut moves = Vec::new();
            let mut bots = Vec::new();
            let mut previews = Vec::new();
            // The bots' sample positions: the first move, one a third in and one two thirds
            // in (plies counted on a typical game; a shorter game samples fewer).
            let sampled = index < bot_samples;
            loop {
                feed_position(&mut hash, &e);
                if e.to_move().is_none() {
                    break;
                }
                if sampled && [0, 15, 40].contains(&e.ply()) {
                    for level in BotLevel::names() {
                        let bot_seed = seed + u64::from(e.ply());
                        let chosen = e.bot_move(level, bot_seed).expect("a seat to move");
                        bots.push(json!({"ply": e.ply(), "level": level, "seed": bot_seed, "move": chosen}));
                    }
                }
                let legal: Vec<Value> = serde_json::from_str(&e.legal_moves_json()).unwrap();
                // The same sample positions: the game rebuilt from the seat's view (the
                // sampler, seeded like the bots) previews the first legal move.
                if sampled && [0, 15, 40].contains(&e.ply()) && samples_views(kind.key()) {
                    let seat = e.to_move().expect("a seat to move");
                    let view = e.view_json(Some(seat)).unwrap();
                    let preview_seed = seed + u64::from(e.ply());
                    let first = legal[0]["text"].as_str().unwrap().to_owned();
                    let mut rebuilt = Engine::from_view(kind.key(), &view, seat, preview_seed)
                        .expect("the seat's view rebuilds");
                    rebuilt.play(&first).unwrap();
                    let after = rebuilt.view_json(Some(seat)).unwrap();
                    let digest: String = Sha256::digest(after.as_bytes())
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect();
                    previews.push(json!({"ply": e.ply(), "seat": seat, "seed": preview_seed,
                                         "move": first, "digest": digest}));
                }
                let text = legal[picker.below(legal.len())]["text"]
                    .as_str()
                    .unwrap()
                    .to_owned();
                feed(&mut hash, &e.play(&text).expect("legal moves play"));
                moves.push(text);
            }
            let digest: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
            println!(
                "{}",
                json!({"game": kind.key(), "options": options, "seed": seed, "moves": moves,
                       "digest": digest, "bots": bots, "previews": previews})
            );
        }
    }
}
