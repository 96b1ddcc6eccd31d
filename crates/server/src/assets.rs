//! The files of the browser client (`web/`), embedded in release builds and read from disk in
//! debug: the site `http::web` serves, and the message catalogs the server's own texts
//! (e-mails, push notifications) are taken from. A leaf, so that any layer may read them.
use rust_embed::RustEmbed;
use serde_json::{Map, Value};

/// The client's own unit tests and their `package.json` (`node --test web/tests`), and the
/// type checker's `jsconfig.json` and the wire types' declarations (`crate::wire`), are not part
/// of the site.
#[derive(RustEmbed)]
#[folder = "../../web"]
#[exclude = "tests/*"]
#[exclude = "package.json"]
#[exclude = "jsconfig.json"]
#[exclude = "js/wire/*"]
struct Assets;

/// A file of `web/` with its metadata (the site serves its MIME type).
pub fn file(path: &str) -> Option<rust_embed::EmbeddedFile> {
    Assets::get(path)
}

/// The path of every file of `web/` the site serves (`http::web` lists them for the service
/// worker's offline copy).
pub fn files() -> impl Iterator<Item = std::borrow::Cow<'static, str>> {
    Assets::iter()
}

/// A file of the browser client (`web/`), e.g. a message catalog the server's own texts
/// (e-mails, push notifications) are taken from.
pub fn asset(path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Assets::get(path).map(|f| f.data)
}

/// The language of a catalog's path (`i18n/<lang>.json`), which the site serves merged.
pub fn catalog_language(path: &str) -> Option<&str> {
    path.strip_prefix("i18n/")?.strip_suffix(".json")
}

/// A language's whole message catalog: the shell's (`web/i18n/<lang>.json`) with, merged in,
/// each registered game's own (`web/js/<key>/i18n/<lang>.json`, in the game's folder, where it
/// has one), so that a new game brings its words in its folder and edits no shared catalog.
/// `None` for a language the shell has no catalog for. A game's catalog that is not a JSON
/// object, that gives a key the shell's catalog already has, or a key another game words
/// otherwise, is an error: no game overrides the shell's words (`tests/server/i18n.rs` reads every catalog through this).
pub fn catalog(lang: &str) -> Option<Result<Map<String, Value>, String>> {
    let shell = asset(&format!("i18n/{lang}.json"))?;
    Some(merged_catalog(lang, &shell))
}

fn merged_catalog(lang: &str, shell: &[u8]) -> Result<Map<String, Value>, String> {
    let read = |path: &str, bytes: &[u8]| {
        serde_json::from_slice::<Map<String, Value>>(bytes)
            .map_err(|e| format!("web/{path} is not a flat JSON object: {e}"))
    };
    let mut out = read(&format!("i18n/{lang}.json"), shell)?;
    let mut games = Map::new();
    for key in pyramidion_games::GameKind::keys() {
        let path = format!("js/{key}/i18n/{lang}.json");
        let Some(bytes) = asset(&path) else { continue };
        for (k, v) in read(&path, &bytes)? {
            if out.contains_key(&k) {
                return Err(format!(
                    "web/{path} gives '{k}', a key of the shell's catalog"
                ));
            }
            // Two games may share a message (an error code both have), not contradict.
            match games.get(&k) {
                Some(theirs) if *theirs != v => {
                    return Err(format!(
                        "web/{path} words '{k}' otherwise than another game"
                    ));
                }
                _ => games.insert(k, v),
            };
        }
    }
    out.extend(games);
    Ok(out)
}
