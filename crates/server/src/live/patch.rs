//! Lean messages: after a subscription's whole `state`, each further state of a game goes to
//! a subscriber as a `patch` of the state it last got, not as a whole state: a view grows
//! with the game (several KiB) while a move changes a few of its fields.
//!
//! The patched document is the `state` message less the fields every message carries anyway
//! (`type`, `game`, `state_id`, `event`, `missed`, and `clock`, which is sent whole: it is
//! read at the time of sending). A patch is a list of operations, in order, each a JSON
//! Pointer (RFC 6901) into that document and maybe a value:
//! - `[path, value]` sets: an object's member (added or replaced), an array's element at an
//!   index below its length (replaced) or at its length (appended);
//! - `[path]` removes an object's member or an array's element.
//!
//! RFC 6902 says the same with `{"op","path","value"}` objects; measured on a solo game's
//! views, its fine-grained operations came to about twice this form's bytes. The
//! diff also sets a whole member instead of patching inside it when that is shorter.
//! A patch is computed from the documents of the subscriber's own seat, so it carries
//! nothing the seat may not see.
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::live::json_spans::{At, Kind, Spans};
use crate::live::protocol::ServerMsg;

/// The document last sent to each followed seat of a room, which the next state is diffed
/// against. One per seat: every subscriber of a seat gets the same states (but `clock`,
/// which the document leaves out). Kept as its JSON text packed with LZ4: a few KiB of JSON
/// become about a third (deflate made it a fifth, but packing and unpacking it on every move
/// was a sixth of a move's CPU: issue 52).
#[derive(Default)]
pub struct Shown(Vec<(Option<u8>, u64, Box<[u8]>)>);

impl Shown {
    /// `state` (a `state` message for `seat`), and the `patch` message that makes it of the
    /// state last shown to `seat` (with that state's id), if one was.
    ///
    /// The state is serialised once and compared with the document last shown as texts
    /// ([`Spans`]): no `Value` is built, parsed or dropped on a move (issue 52).
    pub fn publish(
        &mut self,
        seat: Option<u8>,
        state: ServerMsg,
    ) -> (ServerMsg, Option<(u64, ServerMsg)>) {
        let ServerMsg::State(whole) = &state else {
            return (state, None);
        };
        let Ok(text) = serde_json::to_vec(whole) else {
            return (state, None);
        };
        let Some(new) = Spans::parse(&text) else {
            return (state, None);
        };
        let before = self.0.iter().position(|(s, _, _)| *s == seat);
        let patch = before.and_then(|i| {
            let (_, from, old) = &self.0[i];
            let old = unpack(old)?;
            let old = Spans::parse(&old)?;
            let msg = ServerMsg::Patch {
                game: whole.game.clone(),
                state_id: whole.state_id,
                event: whole.event,
                from: *from,
                clock: whole.clock.clone(),
                patch: diff_spans(old.root(), new.root())?,
            };
            Some((*from, msg))
        });
        let entry = (seat, whole.state_id, pack(&document_text(new.root())));
        match before {
            Some(i) => self.0[i] = entry,
            None => self.0.push(entry),
        }
        (state, patch)
    }

    /// Records `state` (a whole `state` just sent to a subscriber of `seat`).
    pub fn whole(&mut self, seat: Option<u8>, state: &ServerMsg) {
        let ServerMsg::State(whole) = state else {
            return;
        };
        let Ok(text) = serde_json::to_vec(whole) else {
            return;
        };
        let Some(spans) = Spans::parse(&text) else {
            return;
        };
        let entry = (seat, whole.state_id, pack(&document_text(spans.root())));
        match self.0.iter_mut().find(|(s, _, _)| *s == seat) {
            Some(old) => *old = entry,
            None => self.0.push(entry),
        }
    }

    /// Forgets the seats nobody follows any more.
    pub fn keep(&mut self, followed: &[Option<u8>]) {
        self.0.retain(|(s, _, _)| followed.contains(s));
        self.0.shrink_to_fit();
    }
}

fn pack(doc: &[u8]) -> Box<[u8]> {
    lz4_flex::compress_prepend_size(doc).into_boxed_slice()
}

fn unpack(packed: &[u8]) -> Option<Vec<u8>> {
    lz4_flex::decompress_size_prepended(packed).ok()
}

/// The document of a `state` message's text: its members less [`OUTSIDE`], as text.
fn document_text(state: At<'_, '_>) -> Vec<u8> {
    let mut doc = Vec::with_capacity(state.bytes().len());
    doc.push(b'{');
    for member in state.children().filter(|m| !outside(m.raw_key())) {
        if doc.len() > 1 {
            doc.push(b',');
        }
        doc.push(b'"');
        doc.extend_from_slice(member.raw_key());
        doc.extend_from_slice(b"\":");
        doc.extend_from_slice(member.bytes());
    }
    doc.push(b'}');
    doc
}

fn outside(raw_key: &[u8]) -> bool {
    OUTSIDE.iter().any(|k| k.as_bytes() == raw_key)
}

/// The operations turning the document `old` into `new` (two `state` messages or their
/// documents: the members in [`OUTSIDE`] are not compared), as the text of a patch's
/// operation list; `None` when a key is not valid JSON text.
pub fn diff_spans(old: At<'_, '_>, new: At<'_, '_>) -> Option<Box<RawValue>> {
    let mut ops = Vec::new();
    diff_at(old, new, &mut String::new(), &mut ops)?;
    let mut text = String::with_capacity(ops.iter().map(|op| op.size).sum::<usize>() + 2);
    text.push('[');
    for (i, op) in ops.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push('[');
        push_json_string(&mut text, &op.path);
        if let Some(value) = op.value {
            text.push(',');
            text.push_str(std::str::from_utf8(value).ok()?);
        }
        text.push(']');
    }
    text.push(']');
    RawValue::from_string(text).ok()
}

/// The operations turning the document `old` into `new` (values; what a test or a tool
/// compares), as the list a patch message carries.
pub fn diff(old: &Value, new: &Value) -> Value {
    let (old, new) = (old.to_string(), new.to_string());
    let ops = Spans::parse(old.as_bytes())
        .zip(Spans::parse(new.as_bytes()))
        .and_then(|(old, new)| diff_spans(old.root(), new.root()));
    ops.and_then(|ops| serde_json::from_str(ops.get()).ok())
        .unwrap_or(Value::Null)
}

/// One operation: `[path, value]` sets, `[path]` removes; `size` is its text's length
/// with its separator ([`op_size`]).
struct Op<'a> {
    path: String,
    value: Option<&'a [u8]>,
    size: usize,
}

impl<'a> Op<'a> {
    fn new(path: &str, value: Option<&'a [u8]>) -> Op<'a> {
        Op {
            path: path.to_string(),
            value,
            size: op_size(path, value),
        }
    }
}

/// Bytes of the operation `[path, value]` (or `[path]`) once written, with its separator.
/// Why counted, not built: the diff weighs setting a whole member against the operations
/// inside it at every level it descends (issue 52).
fn op_size(path: &str, value: Option<&[u8]>) -> usize {
    // `[` + the path as a JSON string + (`,` + value) + `]` + the separator.
    1 + json_string_len(path) + value.map_or(0, |v| 1 + v.len()) + 1 + 1
}

/// The length of `s` written as a JSON string the way serde_json writes it.
fn json_string_len(s: &str) -> usize {
    2 + s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..0x20 => 6,
            _ => 1,
        })
        .sum::<usize>()
}

fn push_json_string(out: &mut String, s: &str) {
    // serde_json's writer is what clients parse: write with it rather than by hand.
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string()));
}

fn diff_at<'a>(
    old: At<'_, 'a>,
    new: At<'_, 'a>,
    path: &mut String,
    ops: &mut Vec<Op<'a>>,
) -> Option<()> {
    if old.bytes() == new.bytes() {
        return Some(());
    }
    let root = path.is_empty();
    let mut inner = Vec::new();
    let len = path.len();
    match (old.kind(), new.kind()) {
        (Kind::Object, Kind::Object) => {
            for member in new.children() {
                if root && outside(member.raw_key()) {
                    continue;
                }
                push_key(path, member.raw_key())?;
                match old.member(member.raw_key()) {
                    Some(before) => diff_at(before, member, path, &mut inner)?,
                    None => inner.push(Op::new(path, Some(member.bytes()))),
                }
                path.truncate(len);
            }
            for gone in old.children() {
                if (root && outside(gone.raw_key())) || new.member(gone.raw_key()).is_some() {
                    continue;
                }
                push_key(path, gone.raw_key())?;
                inner.push(Op::new(path, None));
                path.truncate(len);
            }
        }
        (Kind::Array, Kind::Array) => {
            let mut olds = old.children();
            let mut count = 0;
            for (i, value) in new.children().enumerate() {
                path.push('/');
                path.push_str(&i.to_string());
                match olds.next() {
                    Some(before) => diff_at(before, value, path, &mut inner)?,
                    None => inner.push(Op::new(path, Some(value.bytes()))),
                }
                path.truncate(len);
                count = i + 1;
            }
            // From the last: each removal leaves the indices before it in place.
            let old_len = count + olds.count();
            for i in (count..old_len).rev() {
                path.push('/');
                path.push_str(&i.to_string());
                inner.push(Op::new(path, None));
                path.truncate(len);
            }
        }
        _ => {
            ops.push(Op::new(path, Some(new.bytes())));
            return Some(());
        }
    }
    // The document itself is never set whole by a patch worth sending (that is a `state`).
    if root {
        ops.extend(inner);
        return Some(());
    }
    let inner_size: usize = inner.iter().map(|op| op.size).sum();
    if inner_size > op_size(path, Some(new.bytes())) {
        ops.push(Op::new(path, Some(new.bytes())));
    } else {
        ops.extend(inner);
    }
    Some(())
}

/// `/key`, escaped as RFC 6901 says, from a key as written in JSON text.
fn push_key(path: &mut String, raw_key: &[u8]) -> Option<()> {
    let key: std::borrow::Cow<'_, str> = if raw_key.contains(&b'\\') {
        let mut quoted = Vec::with_capacity(raw_key.len() + 2);
        quoted.push(b'"');
        quoted.extend_from_slice(raw_key);
        quoted.push(b'"');
        serde_json::from_slice::<String>(&quoted).ok()?.into()
    } else {
        std::str::from_utf8(raw_key).ok()?.into()
    };
    path.push('/');
    if key.contains(['~', '/']) {
        path.push_str(&key.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(&key);
    }
    Some(())
}

/// A patch that does not apply to the document it is applied to (what, and where).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PatchError(String);

impl From<&str> for PatchError {
    fn from(what: &str) -> PatchError {
        PatchError(what.to_string())
    }
}

impl From<String> for PatchError {
    fn from(what: String) -> PatchError {
        PatchError(what)
    }
}

/// Applies `ops` to `doc` (as a client does).
pub fn apply(doc: &mut Value, ops: &[Value]) -> Result<(), PatchError> {
    for op in ops {
        let parts = op.as_array().ok_or("an operation is an array")?;
        let path = parts
            .first()
            .and_then(Value::as_str)
            .ok_or("an operation starts with its path")?;
        let value = parts.get(1);
        let Some((parent, last)) = path.rsplit_once('/') else {
            match value {
                Some(v) if path.is_empty() => *doc = v.clone(),
                _ => return Err(format!("bad path '{path}'").into()),
            }
            continue;
        };
        let target = doc
            .pointer_mut(parent)
            .ok_or_else(|| format!("no '{parent}'"))?;
        let key = last.replace("~1", "/").replace("~0", "~");
        match (target, value) {
            (Value::Object(map), Some(v)) => {
                map.insert(key, v.clone());
            }
            (Value::Object(map), None) => {
                map.remove(&key).ok_or_else(|| format!("no '{path}'"))?;
            }
            (Value::Array(items), v) => {
                let i: usize = key.parse().map_err(|_| format!("bad index in '{path}'"))?;
                match v {
                    Some(v) if i < items.len() => items[i] = v.clone(),
                    Some(v) if i == items.len() => items.push(v.clone()),
                    None if i < items.len() => {
                        items.remove(i);
                    }
                    _ => return Err(format!("index out of range in '{path}'").into()),
                }
            }
            _ => return Err(format!("'{parent}' holds no members").into()),
        }
    }
    Ok(())
}

/// The fields of a `state` message that a patch does not cover.
const OUTSIDE: [&str; 6] = ["type", "game", "state_id", "event", "missed", "clock"];

/// [`document`] of a `state` message the caller no longer needs: its fields are moved, not
/// copied (a view is several KiB, made into a document on every move).
fn into_document(state: Value) -> Value {
    match state {
        Value::Object(mut fields) => {
            fields.retain(|k, _| !OUTSIDE.contains(&k.as_str()));
            Value::Object(fields)
        }
        _ => Value::Object(Map::new()),
    }
}

/// The patched part of a `state` message.
pub fn document(state: &Value) -> Value {
    into_document(state.clone())
}

/// The `state` message that `patch` (a `patch` message) makes of `base`, the state it
/// names as `from`: what a client does with a patch.
pub fn rebuild(base: &Value, patch: &Value) -> Result<Value, PatchError> {
    if base["state_id"] != patch["from"] || base["game"] != patch["game"] {
        return Err(format!(
            "the patch is from state {} of {}, the client holds state {} of {}",
            patch["from"], patch["game"], base["state_id"], base["game"]
        )
        .into());
    }
    let mut doc = document(base);
    let ops = patch["patch"].as_array().ok_or("a patch has operations")?;
    apply(&mut doc, ops)?;
    let Value::Object(mut state) = doc else {
        return Err("the patched document is no object".into());
    };
    state.insert("type".into(), "state".into());
    for k in ["game", "state_id", "event", "clock"] {
        state.insert(k.into(), patch[k].clone());
    }
    state.insert("missed".into(), Value::Array(Vec::new()));
    Ok(Value::Object(state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn applied(old: &Value, ops: &Value) -> Value {
        let mut doc = old.clone();
        apply(&mut doc, ops.as_array().expect("a list of operations")).expect("it applies");
        doc
    }

    #[test]
    fn a_patch_rebuilds_the_new_document() {
        let cases = [
            (
                json!({"a": [1, 2, 3], "b": {"c": 1}}),
                json!({"a": [1, 5], "b": {"c": 1, "d/~": null}}),
            ),
            (
                json!({"a": [1]}),
                json!({"a": [1, 2, {"x": [true]}], "e": "f"}),
            ),
            (
                json!({"a": {"b": {"c": [1, 2]}}, "gone": 1}),
                json!({"a": {"b": {"c": []}}}),
            ),
            (
                json!({"big": [[1, 2, 3], [4, 5, 6]]}),
                json!({"big": [[7, 8, 9], [10, 11, 12]]}),
            ),
            (json!({"n": null}), json!({"n": {"now": 1}})),
            (
                json!({"q\"uo\\te\n": {"é": 1}}),
                json!({"q\"uo\\te\n": {"é": 2}}),
            ),
        ];
        for (old, new) in cases {
            let ops = diff(&old, &new);
            assert_eq!(applied(&old, &ops), new, "{ops}");
        }
    }

    /// Random documents and random edits of them (a seeded generator: the same cases on every
    /// run): the patch always rebuilds the new document, the members a state message carries
    /// outside its document are never patched, and equal documents give no operation.
    #[test]
    fn patches_of_random_edits_rebuild_the_new_document() {
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        fn random(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Value {
            match next(if depth > 3 { 4 } else { 6 }) {
                0 => Value::Null,
                1 => json!(next(100)),
                2 => json!(["a", "b/c", "d~e", "f\"g"][next(4) as usize]),
                3 => json!(next(2) == 0),
                4 => Value::Array((0..next(5)).map(|_| random(next, depth + 1)).collect()),
                _ => Value::Object(
                    (0..next(5))
                        .map(|_| {
                            let key = ["k", "l", "m/n", "o~p", "q\"", "r"][next(6) as usize];
                            (key.to_string(), random(next, depth + 1))
                        })
                        .collect(),
                ),
            }
        }
        fn edit(next: &mut dyn FnMut(u64) -> u64, v: &Value, depth: u32) -> Value {
            match v {
                Value::Object(m) if next(4) > 0 => {
                    let mut out = Map::new();
                    for (k, x) in m {
                        if next(8) > 0 {
                            out.insert(k.clone(), edit(next, x, depth + 1));
                        }
                    }
                    if next(4) == 0 {
                        out.insert("new".to_string(), random(next, depth));
                    }
                    Value::Object(out)
                }
                Value::Array(a) if next(4) > 0 => {
                    let mut out = Vec::new();
                    for x in a {
                        if next(8) > 0 {
                            out.push(edit(next, x, depth + 1));
                        }
                    }
                    if next(4) == 0 {
                        out.push(random(next, depth));
                    }
                    Value::Array(out)
                }
                _ if next(3) == 0 => random(next, depth),
                _ => v.clone(),
            }
        }
        for _ in 0..3_000 {
            let Value::Object(mut old) = random(&mut next, 0) else {
                continue;
            };
            let Value::Object(mut new) = edit(&mut next, &Value::Object(old.clone()), 0) else {
                continue;
            };
            let ops = diff(&Value::Object(old.clone()), &Value::Object(new.clone()));
            assert_eq!(
                applied(&Value::Object(old.clone()), &ops),
                Value::Object(new.clone())
            );
            assert_eq!(
                diff(&Value::Object(new.clone()), &Value::Object(new.clone())),
                json!([])
            );
            // A state's own members (its id, its clock…) are outside the document.
            old.insert("clock".into(), json!({"left": [next(9)]}));
            new.insert("clock".into(), json!({"left": [next(9) + 10]}));
            new.insert("state_id".into(), json!(next(9)));
            let ops = diff(&Value::Object(old.clone()), &Value::Object(new.clone()));
            for op in ops.as_array().unwrap() {
                let path = op[0].as_str().unwrap();
                assert!(
                    !path.starts_with("/clock") && !path.starts_with("/state_id"),
                    "{op}"
                );
            }
        }
    }

    #[test]
    fn many_changes_inside_a_member_set_it_whole() {
        let ops = diff(
            &json!({"g": [0, 0, 0, 0, 0, 0]}),
            &json!({"g": [1, 1, 1, 0, 1, 1]}),
        );
        assert_eq!(ops, json!([["/g", [1, 1, 1, 0, 1, 1]]]));
        let ops = diff(
            &json!({"g": [0, 0, 0, 0, 0, 0]}),
            &json!({"g": [0, 0, 7, 0, 0, 0]}),
        );
        assert_eq!(ops, json!([["/g/2", 7]]));
    }

    /// The diff weighs operations by a count of their bytes: it must be their text's length.
    #[test]
    fn an_operations_counted_size_is_its_texts() {
        for (path, value) in [
            ("/a", Some(json!([1, "x\"y", {"k": null}]))),
            ("/d~1~0", Some(json!("é\u{1}"))),
            ("/q\"\\\n\t\u{7}\u{1f}é", Some(json!(1))),
            ("", Some(json!({"view": {"n": 1.5}}))),
            ("/gone/3", None),
        ] {
            let text = match &value {
                Some(v) => serde_json::to_string(&(path, v)).unwrap(),
                None => serde_json::to_string(&[path]).unwrap(),
            };
            let value = value.map(|v| v.to_string());
            assert_eq!(
                op_size(path, value.as_deref().map(str::as_bytes)),
                text.len() + 1,
                "{text}"
            );
        }
    }

    /// What the room sends: a `state` message's text against the document last shown.
    #[test]
    fn a_state_is_patched_against_the_document_last_shown() {
        let old = json!({"type": "state", "game": "g", "state_id": 3, "event": 3, "missed": [],
                         "clock": {"a": 1}, "view": {"n": 1, "list": [1, 2]}, "legal": []});
        let new = json!({"type": "state", "game": "g", "state_id": 4, "event": 4, "missed": [],
                         "clock": {"a": 2}, "view": {"n": 2, "list": [1, 2]}, "legal": [{"m": 1}]});
        let (old_text, new_text) = (old.to_string(), new.to_string());
        let old_spans = Spans::parse(old_text.as_bytes()).unwrap();
        let doc = document_text(old_spans.root());
        assert_eq!(
            serde_json::from_slice::<Value>(&doc).unwrap(),
            document(&old),
            "the stored document is the state less its outside members"
        );
        let doc = Spans::parse(&doc).unwrap();
        let new_spans = Spans::parse(new_text.as_bytes()).unwrap();
        let ops = diff_spans(doc.root(), new_spans.root()).unwrap();
        let ops: Value = serde_json::from_str(ops.get()).unwrap();
        assert_eq!(ops, json!([["/legal/0", {"m": 1}], ["/view/n", 2]]));
        let patch = json!({"type": "patch", "game": "g", "state_id": 4, "event": 4, "from": 3,
                           "clock": {"a": 2}, "patch": ops});
        assert_eq!(rebuild(&old, &patch).unwrap(), new);
    }

    #[test]
    fn a_patch_of_another_state_is_refused() {
        let base = json!({"type": "state", "game": "g", "state_id": 3, "view": {}});
        let patch = json!({"type": "patch", "game": "g", "state_id": 5, "from": 4, "patch": []});
        assert!(rebuild(&base, &patch).is_err());
        let bad = json!({"type": "patch", "game": "g", "state_id": 4, "from": 3, "patch": [["/view/x/y", 1]]});
        assert!(rebuild(&base, &bad).is_err());
    }
}
