//! Search specs: the ladder plays as it did before specs existed, the reference is today's
//! `max`, and every lever (worlds, reuse) keeps a bot legal, reproducible and blind.
use pyramidion_ai::level::{BotLevel, bot_for};
use pyramidion_ai::seed::seat_seed;
use pyramidion_ai::spec::REFERENCE;
use pyramidion_ai::{Bot, Greedy, Search};
use pyramidion_core::{GameRng, Rules, ToMove};
use pyramidion_pyramido as pyramido;
use pyramidion_pyramids as pyramids;
use pyramidion_treasures as treasures;

/// Plays a game with a bot of `level` at every seat, one bot per seat for the whole game as
/// `sim` and `arena` do; every move must pass the checked `play`.
fn play<G: Rules>(options: &G::Options, seed: u64, level: &str) -> Vec<String> {
    let mut game = G::new(options, seed).unwrap();
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..game.seats())
        .map(|s| bot_for::<G>(level, seat_seed(seed, s.into())).unwrap())
        .collect();
    let mut moves = Vec::new();
    while let ToMove::Seat(s) = game.to_move() {
        let m = bots[s.index()].choose(&game);
        game.play(&m)
            .unwrap_or_else(|e| panic!("{level} seed {seed}: illegal move {m}: {e}"));
        moves.push(m.to_string());
    }
    moves
}

/// The moves of a record written by `pyramidion sim --records`.
fn record_moves(text: &str) -> Vec<String> {
    let start = text.find("moves:\n").expect("a record lists its moves") + "moves:\n".len();
    text[start..]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// The golden records were written by the binary before search specs existed (d43bb11):
/// `pyramidion sim --game GAME --players 2 --bots easy --games 1 --seed 11 --threads 1
/// --records DIR`. The ladder's levels must still play those very moves.
#[test]
fn the_ladder_plays_the_moves_it_played_before_specs() {
    let golden = [
        include_str!("golden/forgotten-treasures-easy-11.txt"),
        include_str!("golden/pyramido-easy-11.txt"),
        include_str!("golden/pyramids-easy-11.txt"),
    ];
    assert_eq!(
        play::<treasures::Game>(&treasures::Options::multiplayer(2), 11, "easy"),
        record_moves(golden[0])
    );
    assert_eq!(
        play::<pyramido::Game>(&pyramido::Options { players: 2 }, 11, "easy"),
        record_moves(golden[1])
    );
    assert_eq!(
        play::<pyramids::Game>(&pyramids::Options { players: 2 }, 11, "easy"),
        record_moves(golden[2])
    );
}

#[test]
fn the_reference_is_max_as_it_stood_and_specs_print_back() {
    for descriptor in [
        treasures::Game::DESCRIPTOR,
        pyramido::Game::DESCRIPTOR,
        pyramids::Game::DESCRIPTOR,
    ] {
        let reference: BotLevel = REFERENCE.parse().unwrap();
        let max: BotLevel = "max".parse().unwrap();
        assert_eq!(reference.iterations(descriptor), max.iterations(descriptor));
        assert_eq!(
            reference.spec().unwrap().config(1000),
            max.spec().unwrap().config(1000)
        );
    }
    for text in [
        REFERENCE,
        "reference-2026-11+worlds=8",
        "max+reuse",
        "search:300+worlds=4+reuse+horizon=3",
        "easy+eps=0+uniform+c=900+widen=1500+plies=40",
    ] {
        let level: BotLevel = text.parse().unwrap();
        assert_eq!(level.to_string(), text);
        assert!(level.spec().is_some());
    }
    // The rung a level starts from is what a game's descriptor must list (`sim` checks it).
    for (text, rung) in [
        ("max+reuse", Some("max")),
        ("easy", Some("easy")),
        ("greedy", Some("greedy")),
        (REFERENCE, None),
        ("reference-2026-11+worlds=2", None),
        ("search:5+reuse", None),
    ] {
        assert_eq!(text.parse::<BotLevel>().unwrap().rung(), rung, "{text}");
    }
    // Options in another order mean the same bot, printed in the canonical order.
    let level: BotLevel = "max+reuse+worlds=8".parse().unwrap();
    assert_eq!(level.to_string(), "max+worlds=8+reuse");
    for bad in [
        "greedy+reuse",
        "random+worlds=2",
        "max+",
        "max+bogus",
        "reference-2026-12",
        "search:0+reuse",
    ] {
        assert!(bad.parse::<BotLevel>().is_err(), "{bad}");
    }
}

/// The levers' specs, small budgets: a world count below and above the iterations, reuse
/// alone and with worlds.
const LEVERS: [&str; 4] = [
    "search:12+worlds=3",
    "search:12+worlds=40",
    "search:12+reuse",
    "search:12+worlds=4+reuse",
];

#[test]
fn every_lever_plays_legal_moves_and_repeats_its_game() {
    for level in LEVERS {
        for players in [1, 2, 4] {
            let options = if players == 1 {
                treasures::Options::solo(treasures::SoloMode::TheLegend)
            } else {
                treasures::Options::multiplayer(players)
            };
            let a = play::<treasures::Game>(&options, 5, level);
            assert_eq!(a, play::<treasures::Game>(&options, 5, level), "{level}");
        }
        for players in [2, 4] {
            let o = pyramido::Options { players };
            let a = play::<pyramido::Game>(&o, 5, level);
            assert_eq!(a, play::<pyramido::Game>(&o, 5, level), "{level}");
        }
        for players in [2, 5] {
            let o = pyramids::Options { players };
            let a = play::<pyramids::Game>(&o, 5, level);
            assert_eq!(a, play::<pyramids::Game>(&o, 5, level), "{level}");
        }
    }
}

/// The levers change the search, or they would not be levers: over a game, fewer worlds and
/// a kept tree choose some moves the reference does not.
#[test]
fn each_lever_changes_the_game() {
    let o = pyramido::Options { players: 2 };
    let reference = play::<pyramido::Game>(&o, 6, "search:12");
    for level in LEVERS {
        assert_ne!(play::<pyramido::Game>(&o, 6, level), reference, "{level}");
    }
}

/// A lever's bot, like the reference's, answers the same move from two true states that look
/// the same to its seat (one a determinisation of the other).
fn blind<G: Rules>(options: &G::Options, seed: u64) -> usize {
    let mut game = G::new(options, seed).unwrap();
    let mut greedy = Greedy::new(seed);
    let mut rng = GameRng::from_seed(seed ^ 0x5EED);
    let mut checked = 0;
    let mut ply = 0;
    while let ToMove::Seat(seat) = game.to_move() {
        if ply % 5 == 2 {
            let other = game.determinize(seat, &mut rng);
            checked += usize::from(other != game);
            for level in LEVERS {
                let a = bot_for::<G>(level, 77).unwrap().choose(&game);
                let b = bot_for::<G>(level, 77).unwrap().choose(&other);
                assert_eq!(
                    a, b,
                    "{level} seed {seed} ply {ply}: the choice read hidden state"
                );
            }
        }
        let m = greedy.choose(&game);
        game.play(&m).unwrap();
        ply += 1;
    }
    checked
}

#[test]
fn the_levers_do_not_depend_on_hidden_information() {
    let checked = blind::<treasures::Game>(&treasures::Options::multiplayer(3), 1)
        + blind::<pyramido::Game>(&pyramido::Options { players: 3 }, 1)
        + blind::<pyramids::Game>(&pyramids::Options { players: 4 }, 1);
    assert!(
        checked > 10,
        "too few states with hidden information differed: {checked}"
    );
}

/// With reuse, the tree a bot keeps is followed through what its seat sees. Two histories
/// that look the same to the seat (from a state and a determinisation of it, the same moves
/// played in both for as long as they look the same) get the same answers from two bots of
/// the same seed that keep their trees, one asked about each history.
fn kept_tree_blind<G: Rules>(options: &G::Options, seed: u64) -> usize {
    let mut game = G::new(options, seed).unwrap();
    let mut greedy = Greedy::new(seed);
    let mut rng = GameRng::from_seed(seed ^ 0xB11D);
    let mut second_answers = 0;
    let mut ply = 0;
    while let ToMove::Seat(seat) = game.to_move() {
        if ply % 9 == 4 {
            let mut other = game.determinize(seat, &mut rng);
            let mut bot = bot_for::<G>("search:16+reuse", 5).unwrap();
            let mut twin = bot_for::<G>("search:16+reuse", 5).unwrap();
            let (mut real, mut answers) = (game.clone(), 0usize);
            while real.to_move() == ToMove::Seat(seat) || answers > 0 {
                let ToMove::Seat(mover) = real.to_move() else {
                    break;
                };
                if real.view(Some(seat)) != other.view(Some(seat)) {
                    break;
                }
                let m = if mover == seat {
                    let m = bot.choose(&real);
                    assert_eq!(
                        m,
                        twin.choose(&other),
                        "seed {seed} ply {ply}: a kept tree read hidden state"
                    );
                    answers += 1;
                    m
                } else {
                    greedy.choose(&real)
                };
                // The look-alike plays the same move only where it is legal there too.
                if other.play(&m).is_err() {
                    break;
                }
                real.play(&m).unwrap();
            }
            second_answers += answers.saturating_sub(1);
        }
        let m = greedy.choose(&game);
        game.play(&m).unwrap();
        ply += 1;
    }
    second_answers
}

#[test]
fn a_kept_tree_is_followed_through_what_the_seat_sees() {
    let reused = kept_tree_blind::<treasures::Game>(&treasures::Options::multiplayer(2), 2)
        + kept_tree_blind::<pyramido::Game>(&pyramido::Options { players: 2 }, 2)
        + kept_tree_blind::<pyramids::Game>(&pyramids::Options { players: 3 }, 2);
    eprintln!("answers from a kept tree: {reused}");
    assert!(
        reused > 0,
        "no history stayed alike long enough to test a kept tree"
    );
}

/// `worlds` draws its worlds at the start of each decision, from the search's own seed: the
/// same seed gives the same statistics.
#[test]
fn worlds_are_drawn_per_decision() {
    let game = pyramido::Game::new(&pyramido::Options { players: 2 }, 3).unwrap();
    let spec: BotLevel = "search:30+worlds=30".parse().unwrap();
    let config = spec.spec().unwrap().config(30);
    let a = Search::<pyramido::Game>::new(config, 9).analyse(&game);
    let b = Search::<pyramido::Game>::new(config, 9).analyse(&game);
    assert_eq!(a, b);
    assert!(a.iter().map(|s| s.visits).sum::<u32>() > 0);
}

/// `reuse` does keep a tree: over a 2-player game, some decisions start from the subtree of
/// the previous one (their root has more visits than one decision's iterations), and
/// without `reuse` nothing is kept.
#[test]
fn reuse_keeps_the_subtree_of_the_moves_played() {
    for (level, keeps) in [("search:40+reuse", true), ("search:40", false)] {
        let options = pyramido::Options { players: 2 };
        let mut game = pyramido::Game::new(&options, 4).unwrap();
        let config = level
            .parse::<BotLevel>()
            .unwrap()
            .spec()
            .unwrap()
            .config(40);
        let mut bot = Search::<pyramido::Game>::new(config, 8);
        let mut greedy = Greedy::new(4);
        let mut reused = 0;
        while let ToMove::Seat(seat) = game.to_move() {
            let m = if seat.index() == 0 {
                let m = bot.choose(&game);
                reused += usize::from(bot.kept_root_visits().is_some_and(|v| v > 40));
                m
            } else {
                greedy.choose(&game)
            };
            game.play(&m).unwrap();
        }
        assert_eq!(
            reused > 0,
            keeps,
            "{level}: {reused} decisions from a kept tree"
        );
    }
}
