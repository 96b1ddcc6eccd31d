//! The words of notifications and e-mails, in the reader's language, from the browser
//! client's own catalogs (`web/i18n/*.json` and the games' own, merged: `notify.*` keys): one place to translate.
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The languages the client offers (the first is the fallback).
pub const LANGUAGES: [&str; 3] = ["en", "fr", "it"];

fn catalogs() -> &'static HashMap<&'static str, Map<String, Value>> {
    static CATALOGS: OnceLock<HashMap<&'static str, Map<String, Value>>> = OnceLock::new();
    CATALOGS.get_or_init(|| {
        LANGUAGES
            .iter()
            .map(|&lang| {
                let map = crate::assets::catalog(lang)
                    .and_then(Result::ok)
                    .unwrap_or_default();
                (lang, map)
            })
            .collect()
    })
}

/// A supported language code for `lang` (English for anything else).
pub fn language(lang: &str) -> &'static str {
    LANGUAGES
        .iter()
        .copied()
        .find(|l| *l == lang)
        .unwrap_or(LANGUAGES[0])
}

/// The message `key` in `lang` (falling back to English, then to the key) with `{name}`
/// placeholders filled from `params`.
pub fn t(lang: &str, key: &str, params: &[(&str, &str)]) -> String {
    let catalogs = catalogs();
    let text = [language(lang), LANGUAGES[0]]
        .iter()
        .find_map(|l| catalogs.get(l)?.get(key)?.as_str())
        .unwrap_or(key);
    let mut out = text.to_string();
    for (name, value) in params {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}
