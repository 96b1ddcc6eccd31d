// @ts-check
// The `patch` message (docs/protocol.md, "Patches"): after a subscription's whole `state`,
// the server sends each further state as operations on the state this page last got (its
// fields but `type`, `game`, `state_id`, `event`, `missed` and `clock`, which come whole).
// This makes the `state` message again, so the page draws exactly what a whole state would
// show. Nothing here knows a game's rules.

const OUTSIDE = ['type', 'game', 'state_id', 'event', 'missed', 'clock'];

// One operation: [path, value] sets an object's member or an array's element (at its length:
// appended); [path] removes one. `path` is a JSON Pointer (RFC 6901).
function applyOp(doc, [path, ...value]) {
  const keys = path
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (!keys.length) {
    if (!value.length) throw new Error('cannot remove the whole state');
    return value[0];
  }
  let parent = doc;
  for (const k of keys.slice(0, -1)) {
    parent = parent[Array.isArray(parent) ? Number(k) : k];
    if (parent === null || typeof parent !== 'object') throw new Error(`no ${path}`);
  }
  const last = keys[keys.length - 1];
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new Error(`bad index in ${path}`);
    if (value.length) parent[i] = value[0];
    else if (i < parent.length) parent.splice(i, 1);
    else throw new Error(`no ${path}`);
  } else if (value.length) {
    parent[last] = value[0];
  } else {
    delete parent[last];
  }
  return doc;
}

// The `state` that `patch` makes of `base` (the last state of the same game), or null when
// it does not follow on from it (a gap: the caller subscribes again from its last event).
export function applyPatch(base, patch) {
  if (!base || base.state_id !== patch.from) return null;
  let doc = {};
  for (const [k, v] of Object.entries(base)) if (!OUTSIDE.includes(k)) doc[k] = v;
  doc = structuredClone(doc);
  try {
    for (const op of patch.patch) doc = applyOp(doc, op);
  } catch (e) {
    console.error(e);
    return null;
  }
  return { ...doc, type: 'state', game: patch.game, state_id: patch.state_id, event: patch.event, clock: patch.clock, missed: [] };
}
