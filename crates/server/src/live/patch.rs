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
use serde_json::{Map, Value};

use crate::live::protocol::{PatchOp, ServerMsg};

/// The document last sent to each followed seat of a room, which the next state is diffed
/// against. One per seat: every subscriber of a seat gets the same states (but `clock`,
/// which the document leaves out). Kept packed with LZ4: a few KiB of JSON become about a
/// third (deflate made it a fifth, but packing and unpacking it on every move was a sixth
/// of a move's CPU: issue 52).
#[derive(Default)]
pub struct Shown(Vec<(Option<u8>, u64, Box<[u8]>)>);

impl Shown {
    /// `state` (a `state` message for `seat`), and the `patch` message that makes it of the
    /// state last shown to `seat` (with that state's id), if one was.
    pub fn publish(
        &mut self,
        seat: Option<u8>,
        state: ServerMsg,
    ) -> (ServerMsg, Option<(u64, ServerMsg)>) {
        let ServerMsg::State(whole) = &state else {
            return (state, None);
        };
        let Ok(value) = serde_json::to_value(whole) else {
            return (state, None);
        };
        let doc = into_document(value);
        let before = self.0.iter().position(|(s, _, _)| *s == seat);
        let patch = before.and_then(|i| {
            let (_, from, old) = &self.0[i];
            let old: Value = serde_json::from_slice(&unpack(old)?).ok()?;
            let msg = ServerMsg::Patch {
                game: whole.game.clone(),
                state_id: whole.state_id,
                event: whole.event,
                from: *from,
                clock: whole.clock.clone(),
                patch: diff(&old, &doc),
            };
            Some((*from, msg))
        });
        let entry = (seat, whole.state_id, pack(&doc));
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
        let Ok(value) = serde_json::to_value(whole) else {
            return;
        };
        let entry = (seat, whole.state_id, pack(&into_document(value)));
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

fn pack(doc: &Value) -> Box<[u8]> {
    lz4_flex::compress_prepend_size(doc.to_string().as_bytes()).into_boxed_slice()
}

fn unpack(packed: &[u8]) -> Option<Vec<u8>> {
    lz4_flex::decompress_size_prepended(packed).ok()
}

/// The operations turning `old` into `new`.
pub fn diff(old: &Value, new: &Value) -> Vec<PatchOp> {
    let mut ops = Vec::new();
    diff_at(old, new, &mut String::new(), &mut ops);
    ops.into_iter().map(|(op, _)| op).collect()
}

/// Counts the bytes written to it: an operation's size without building its text.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Bytes of the operation `[path, value]` (or `[path]`) once serialised, with its separator.
/// Why counted, not built: the diff weighs setting a whole member against the operations
/// inside it at every level it descends, and building each candidate's text (and cloning its
/// value) made the diff the largest part of a move's CPU (issue 52).
fn op_size(path: &str, value: Option<&Value>) -> usize {
    let mut count = Counter(0);
    let written = match value {
        Some(v) => serde_json::to_writer(&mut count, &(path, v)),
        None => serde_json::to_writer(&mut count, &[path]),
    };
    written.map_or(usize::MAX / 2, |()| count.0 + 1)
}

/// An operation and its size ([`op_size`]).
type Weighed = (PatchOp, usize);

fn set(path: &str, value: &Value) -> Weighed {
    (
        PatchOp::Set(path.to_string(), value.clone()),
        op_size(path, Some(value)),
    )
}

fn remove(path: &str) -> Weighed {
    (PatchOp::Remove([path.to_string()]), op_size(path, None))
}

fn diff_at(old: &Value, new: &Value, path: &mut String, ops: &mut Vec<Weighed>) {
    if old == new {
        return;
    }
    let mut inner = Vec::new();
    let len = path.len();
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in b {
                push_key(path, key);
                match a.get(key) {
                    Some(before) => diff_at(before, value, path, &mut inner),
                    None => inner.push(set(path, value)),
                }
                path.truncate(len);
            }
            for key in a.keys().filter(|k| !b.contains_key(*k)) {
                push_key(path, key);
                inner.push(remove(path));
                path.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, value) in b.iter().enumerate() {
                path.push('/');
                path.push_str(&i.to_string());
                match a.get(i) {
                    Some(before) => diff_at(before, value, path, &mut inner),
                    None => inner.push(set(path, value)),
                }
                path.truncate(len);
            }
            // From the last: each removal leaves the indices before it in place.
            for i in (b.len()..a.len()).rev() {
                path.push('/');
                path.push_str(&i.to_string());
                inner.push(remove(path));
                path.truncate(len);
            }
        }
        _ => {
            ops.push(set(path, new));
            return;
        }
    }
    // The document itself is never set whole by a patch worth sending (that is a `state`):
    // not weighing it saves serialising the whole document once more on every move.
    if path.is_empty() {
        ops.extend(inner);
        return;
    }
    let inner_size: usize = inner.iter().map(|(_, size)| size).sum();
    if inner_size > op_size(path, Some(new)) {
        ops.push(set(path, new));
    } else {
        ops.extend(inner);
    }
}

/// `/key`, escaped as RFC 6901 says.
fn push_key(path: &mut String, key: &str) {
    path.push('/');
    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
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
        ];
        for (old, new) in cases {
            let ops = diff(&old, &new);
            let sent = serde_json::to_value(&ops).unwrap();
            let mut doc = old.clone();
            apply(&mut doc, sent.as_array().unwrap()).unwrap();
            assert_eq!(doc, new, "{ops:?}");
        }
    }

    #[test]
    fn many_changes_inside_a_member_set_it_whole() {
        let ops = diff(
            &json!({"g": [0, 0, 0, 0, 0, 0]}),
            &json!({"g": [1, 1, 1, 0, 1, 1]}),
        );
        assert_eq!(
            serde_json::to_value(&ops).unwrap(),
            json!([["/g", [1, 1, 1, 0, 1, 1]]])
        );
        let ops = diff(
            &json!({"g": [0, 0, 0, 0, 0, 0]}),
            &json!({"g": [0, 0, 7, 0, 0, 0]}),
        );
        assert_eq!(serde_json::to_value(&ops).unwrap(), json!([["/g/2", 7]]));
    }

    /// The diff weighs operations by a count of their bytes: it must be their text's length.
    #[test]
    fn an_operations_counted_size_is_its_texts() {
        for (path, value) in [
            ("/a", Some(json!([1, "x\"y", {"k": null}]))),
            ("/d~1~0", Some(json!("é\u{1}"))),
            ("", Some(json!({"view": {"n": 1.5}}))),
            ("/gone/3", None),
        ] {
            let op = match &value {
                Some(v) => PatchOp::Set(path.into(), v.clone()),
                None => PatchOp::Remove([path.into()]),
            };
            let text = serde_json::to_string(&op).unwrap();
            assert_eq!(op_size(path, value.as_ref()), text.len() + 1, "{text}");
        }
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
