//! The browser client's message catalogs (web/i18n, and each game's own in its folder, merged
//! as the site serves them): every language has the same keys with
//! the same placeholders, every key the client asks for exists, and every error code the
//! server documents has a message.
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const LANGUAGES: [&str; 3] = ["en", "fr", "it"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

/// A language's catalog as the site serves it: the shell's with every registered game's
/// own (`web/js/<key>/i18n/`) merged in.
fn catalog(lang: &str) -> Map<String, Value> {
    pyramidion_server::assets::catalog(lang)
        .unwrap_or_else(|| panic!("no catalog web/i18n/{lang}.json"))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end)
                if after[..end]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                out.insert(after[..end].to_string());
                rest = &after[end + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

#[test]
fn every_language_has_the_same_keys_and_placeholders() {
    let en = catalog("en");
    assert!(en.len() > 100, "the English catalog looks incomplete");
    for lang in &LANGUAGES[1..] {
        let other = catalog(lang);
        let missing: Vec<_> = en.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<_> = other.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{lang}: missing {missing:?}, extra {extra:?}"
        );
        for (key, text) in &en {
            let theirs = other[key]
                .as_str()
                .unwrap_or_else(|| panic!("{lang}: {key} is not a string"));
            let ours = text
                .as_str()
                .unwrap_or_else(|| panic!("en: {key} is not a string"));
            assert!(!theirs.trim().is_empty(), "{lang}: {key} is empty");
            assert_eq!(
                placeholders(ours),
                placeholders(theirs),
                "{lang}: placeholders of {key}"
            );
        }
    }
}

/// Every `t('literal.key')` in the client's code names a message (or a plural family).
#[test]
fn every_key_the_client_uses_exists() {
    let en = catalog("en");
    let exists = |key: &str| en.contains_key(key) || en.contains_key(&format!("{key}.other"));
    let mut files = vec![web().join("js")];
    let mut checked = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let code = std::fs::read_to_string(&path).unwrap();
        for (i, _) in code.match_indices("t('") {
            let before = code[..i].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue; // another function whose name ends in t
            }
            let key: String = code[i + 3..].chars().take_while(|c| *c != '\'').collect();
            assert!(exists(&key), "{}: no message '{key}'", path.display());
            checked += 1;
        }
    }
    assert!(
        checked > 100,
        "only {checked} keys found: the scan is broken"
    );
}

/// Messages whose keys the client builds from data: every error code of docs/protocol.md,
/// every game, bot level, colour, gem, payment, phase and direction.
#[test]
fn every_code_the_server_can_send_has_a_message() {
    let en = catalog("en");
    let protocol = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocol.md"),
    )
    .unwrap();
    let table = protocol
        .split("### Error codes")
        .nth(1)
        .expect("an error code table");
    let mut codes = BTreeSet::new();
    for line in table.lines().filter(|l| l.starts_with("| `")) {
        let first = line.split('|').nth(1).unwrap_or("");
        for code in first.split('`').skip(1).step_by(2) {
            codes.insert(code.to_string());
        }
    }
    assert!(codes.len() >= 20, "{codes:?}");
    // The engines' setup codes a table can be refused with.
    codes.extend(
        [
            "bad_player_count",
            "solo_mode_required",
            "solo_mode_needs_one_player",
            "network",
        ]
        .map(String::from),
    );
    let mut keys: Vec<String> = codes.iter().map(|c| format!("error.{c}")).collect();
    // Everything a game's descriptor names is shown to players: its name, every error code,
    // every bot level and every option value.
    for d in pyramidion_games::GameKind::descriptors() {
        keys.push(format!("game.{}", d.key));
        keys.push(format!("stage.{}", d.stage_name));
        keys.extend(d.setup_errors.iter().map(|c| format!("error.{c}")));
        keys.extend(d.move_errors.iter().map(|c| format!("reason.{c}")));
        keys.extend(d.bot_levels.iter().map(|l| format!("bot.{}", l.name)));
        keys.extend(
            d.ranking
                .iter()
                .filter(|k| **k != "score")
                .map(|k| format!("tie.{k}")),
        );
        keys.push("tie.shared".to_string());
        if d.options.iter().any(|o| o.players == [1]) {
            keys.push("tie.automa_wins_ties".to_string());
        }
        for o in d.options {
            keys.push(format!("option.{}", o.key));
            keys.extend(o.values.iter().map(|v| format!("{}.{v}", o.key)));
        }
    }
    for family in [
        ("quick.", &["a-legend", "the-legend"][..]),
        ("colour.", &["orange", "blue", "purple", "green", "red"]),
        (
            "gem.",
            &["orange", "blue", "purple", "green", "red", "mythical"],
        ),
        ("pay.", &["1c", "2m", "3c", "2c2m", "1c4m", "6m"]),
        ("pay_short.", &["1c", "2m", "3c", "2c2m", "1c4m", "6m"]),
        ("dir.", &["E", "S", "W", "N"]),
        ("prompt.", &["take", "flip", "place", "activate", "discard"]),
        (
            "prompt.others_",
            &["take", "flip", "place", "activate", "discard", "over"],
        ),
        ("status.", &["open", "live", "finished", "abandoned"]),
        (
            // Every seat type a table can show (`table_view::TableSeat`), "reserved"
            // included: a kept seat once showed its raw key ("Against seat.reserved").
            "seat.",
            &[
                "open",
                "invite",
                "reserved",
                "bot",
                "waiting_open",
                "waiting_invite",
            ],
        ),
        ("connection.", &["connecting", "connected", "reconnecting"]),
        ("account.", &["login", "register"]),
        ("notice.", &["timeout_bot_move"]),
    ] {
        let (prefix, names) = family;
        keys.extend(names.iter().map(|n| format!("{prefix}{n}")));
    }
    let missing: Vec<_> = keys
        .iter()
        .filter(|k| !en.contains_key(k.as_str()))
        .collect();
    assert!(missing.is_empty(), "no message for {missing:?}");
}

/// Each occurrence of `name` in `text` is preceded by one of `articles` (the automa's name in
/// the rulebooks: "THE Legend", "La Légende", "LA Leggenda"; "A Legend" only in mode names).
fn every_mention_has_an_article(text: &str, name: &str, articles: &[&str]) -> bool {
    text.match_indices(name)
        .all(|(at, _)| articles.iter().any(|a| text[..at].ends_with(a)))
}

/// French and Italian say what the rulebooks say: Pyramido's cards are "Revêtement" /
/// "Rivestimento" (the old "restauration" / "restauro" fail), and the solo automa is THE
/// Legend in both modes ("A Legend" is only the easier mode's name), history included.
#[test]
fn french_and_italian_use_the_rulebooks_terms() {
    let [en, fr, it] = LANGUAGES.map(catalog);
    for (lang, cat) in [("fr", &fr), ("it", &it)] {
        for (key, value) in cat {
            let text = value.as_str().unwrap_or_default().to_lowercase();
            assert!(
                !text.contains("restaur"),
                "{lang}.{key}: {text} (the rulebook's term is revêtement / Rivestimento)"
            );
        }
    }
    for (key, want) in [
        ("pyo.card", "Revêtement"),
        ("pyo.resurface_hint", "Revêtement"),
    ] {
        let text = fr[key].as_str().unwrap_or_default();
        assert!(text.contains(want), "fr.{key}: {text}");
    }
    for (key, want) in [
        ("pyo.card", "Rivestimento"),
        ("pyo.resurface_hint", "Rivestimento"),
    ] {
        let text = it[key].as_str().unwrap_or_default();
        assert!(text.contains(want), "it.{key}: {text}");
    }
    for (lang, cat, name, articles, the) in [
        ("en", &en, "Legend", &["THE ", "A "][..], "THE Legend"),
        ("fr", &fr, "Légende", &["La ", "LA "][..], "La Légende"),
        ("it", &it, "Leggenda", &["LA ", "UNA "][..], "LA Leggenda"),
    ] {
        for (key, value) in cat {
            let text = value.as_str().unwrap_or_default();
            assert!(
                every_mention_has_an_article(text, name, articles),
                "{lang}.{key}: {text}"
            );
        }
        for key in [
            "legend.name",
            "history.solo_won",
            "history.solo_lost",
            "automa.legend",
        ] {
            let text = cat[key].as_str().unwrap_or_default();
            assert!(text.contains(the), "{lang}.{key}: {text}");
        }
    }
    // "A Legend" names the easier mode only, never the automa.
    for (key, value) in &en {
        let text = value.as_str().unwrap_or_default();
        if text.contains("A Legend") {
            assert!(key.contains("a-legend"), "en.{key}: {text}");
        }
    }
}
