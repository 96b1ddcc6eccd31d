//! The wire types as TypeScript declarations for the browser (`web/js/wire/*.d.ts`), generated
//! from the Rust types with `ts-rs` (Lemmy's way): every registered game's view and move form,
//! the envelope and outcome of `pyramidion-core`, and the socket messages both ways. The web
//! shell's JSDoc names them (`import('../wire/<game key>').View`), and `tsc` (CI's check of
//! web/) then fails on a field renamed in Rust and not followed in the browser.
//!
//! The test below rebuilds them and fails when the checked-in files differ; regenerate with
//! `UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire`.
use crate::live::protocol::{ClientMsg, ServerMsg};
use pyramidion_core::{AutomaSummary, Envelope, Rules, SeatSummary};
use pyramidion_games::GameKind;
use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use ts_rs::{Config, TS, TypeVisitor};

/// The folder of the declarations, under the repository's root.
pub const FOLDER: &str = "web/js/wire";

const HEADER: &str = "// Generated from the Rust types by crates/server/src/wire.rs: do not edit.\n\
     // Regenerate: UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire\n";

/// Every declaration file: its name in [`FOLDER`] and its text. `core.d.ts` holds the types
/// of `pyramidion-core` the others import; one file per registered game (its key), and
/// `server.d.ts` for the socket messages.
pub fn declarations() -> BTreeMap<String, String> {
    let cfg = Config::new().with_large_int("number");
    let mut core = Declarations::new(&cfg);
    let mut files = BTreeMap::new();
    for &kind in GameKind::ALL {
        let mut file = Declarations::new(&cfg);
        pyramidion_games::dispatch!(kind, G => {
            file.add::<<G as Rules>::View>();
            file.add::<<G as pyramidion_core::Notation>::Form>();
        });
        files.insert(format!("{}.d.ts", kind.key()), file.text(&mut core));
    }
    let mut server = Declarations::new(&cfg);
    server.add::<ServerMsg>();
    server.add::<ClientMsg>();
    files.insert("server.d.ts".into(), server.text(&mut core));
    // The tutorials' HTTP answers (web/js/tutorial.js names them).
    let mut tutorials = Declarations::new(&cfg);
    tutorials.add::<crate::http::tutorials::TutorialList>();
    tutorials.add::<crate::http::tutorials::TutorialPage>();
    tutorials.add::<crate::http::tutorials::Attempt>();
    tutorials.add::<crate::http::tutorials::TryAnswer>();
    tutorials.add::<crate::http::tutorials::Progress>();
    files.insert("tutorials.d.ts".into(), tutorials.text(&mut core));
    // The views flatten the envelope (its fields are inlined there); the shell's own modules
    // name it whole.
    let mut shell = Declarations::new(&cfg);
    shell.add::<Envelope<SeatSummary, String>>();
    shell.add::<AutomaSummary>();
    shell.text(&mut core);
    files.insert("core.d.ts".into(), core.text(&mut Declarations::new(&cfg)));
    files
}

/// The declarations of one file: the types added and every type they name, but those of
/// `pyramidion-core`, which it imports from `core.d.ts`.
struct Declarations<'a> {
    cfg: &'a Config,
    seen: HashSet<TypeId>,
    /// By name: the declaration and the Rust type it came from (two types may not share one).
    own: BTreeMap<String, (String, &'static str)>,
    /// The core types named, by name, with their declarations.
    core: BTreeMap<String, (TypeId, String)>,
}

impl<'a> Declarations<'a> {
    fn new(cfg: &'a Config) -> Self {
        Declarations {
            cfg,
            seen: HashSet::new(),
            own: BTreeMap::new(),
            core: BTreeMap::new(),
        }
    }

    fn add<T: TS + 'static + ?Sized>(&mut self) {
        self.visit::<T>();
    }

    /// The file's text; the core types it named are handed to `core` (the core file's).
    fn text(self, core: &mut Declarations<'_>) -> String {
        let mut out = String::from(HEADER);
        let imports: BTreeSet<&String> = self.core.keys().collect();
        if !imports.is_empty() {
            let names: Vec<&str> = imports.iter().map(|s| s.as_str()).collect();
            out.push_str(&format!(
                "import type {{ {} }} from './core';\n",
                names.join(", ")
            ));
        }
        for (decl, _) in self.own.values() {
            out.push('\n');
            out.push_str(decl);
        }
        for (name, (id, decl)) in self.core {
            if core.seen.insert(id) {
                core.own.insert(name, (decl, "pyramidion_core"));
            }
        }
        out
    }
}

impl TypeVisitor for Declarations<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if T::output_path().is_none() {
            // A primitive or a wrapper (`Vec`, `Option`, `Box`…): what it wraps.
            T::visit_dependencies(self);
            T::visit_generics(self);
            return;
        }
        let id = TypeId::of::<T::WithoutGenerics>();
        let rust = std::any::type_name::<T>();
        let name = T::ident(self.cfg);
        if rust.starts_with("pyramidion_core::") {
            if !self.core.contains_key(&name) {
                let decl = declaration::<T>(self.cfg);
                self.core.insert(name, (id, decl));
                T::visit_dependencies(self);
            }
            T::visit_generics(self);
            return;
        }
        if !self.seen.insert(id) {
            T::visit_generics(self);
            return;
        }
        if let Some((_, other)) = self.own.get(&name) {
            panic!("two wire types are named {name}: {other} and {rust}");
        }
        self.own.insert(name, (declaration::<T>(self.cfg), rust));
        T::visit_dependencies(self);
        T::visit_generics(self);
    }
}

/// `T`'s exported declaration, with its doc comment.
fn declaration<T: TS + ?Sized>(cfg: &Config) -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}\n", T::decl(cfg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// web/js/wire is what the Rust types say: a field renamed in Rust fails here until the
    /// declarations are regenerated, and then `tsc` fails on every page that still reads the
    /// old name.
    #[test]
    fn web_wire_types_are_generated_from_rust() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let folder = root.join(FOLDER);
        let files = declarations();
        if std::env::var_os("UPDATE_WIRE_TYPES").is_some() {
            std::fs::create_dir_all(&folder).expect("web/js/wire");
            for (name, text) in &files {
                std::fs::write(folder.join(name), text).expect("a declaration file");
            }
            return;
        }
        for (name, text) in &files {
            let on_disk = std::fs::read_to_string(folder.join(name)).unwrap_or_default();
            assert!(
                on_disk == *text,
                "{FOLDER}/{name} is stale: regenerate it with \
                 UPDATE_WIRE_TYPES=1 cargo test -p pyramidion-server --lib wire"
            );
        }
    }

    #[test]
    fn every_game_has_its_view_and_form_declared() {
        let files = declarations();
        for &kind in GameKind::ALL {
            let text = &files[&format!("{}.d.ts", kind.key())];
            assert!(text.contains("export type View = "), "{}", kind.key());
            assert!(text.contains("export type MoveForm = "), "{}", kind.key());
            assert!(text.contains("to_move: Seat | null"), "{}", kind.key());
        }
        assert!(files["core.d.ts"].contains("export type Envelope<S, P> = "));
        assert!(files["server.d.ts"].contains("export type ServerMsg = "));
    }
}
