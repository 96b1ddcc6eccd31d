// The `patch` message (docs/protocol.md, "Patches"): after a subscription's whole `state`,
// the server sends each further state as RFC 6902 operations on the view this page last got,
// with the state's other fields whole. This makes the `state` message again, so the page
// draws exactly what a whole state would show. Nothing here knows a game's rules.

// "/a/b~1c" -> ["a", "b/c"]
function tokens(path) {
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function applyOp(doc, op) {
  const keys = tokens(op.path);
  if (!keys.length) {
    if (op.op === 'remove') throw new Error('cannot remove the whole view');
    return op.value;
  }
  let parent = doc;
  for (const k of keys.slice(0, -1)) {
    parent = parent[Array.isArray(parent) ? Number(k) : k];
    if (parent === null || typeof parent !== 'object') throw new Error(`no ${op.path}`);
  }
  const last = keys[keys.length - 1];
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new Error(`bad index in ${op.path}`);
    if (op.op === 'add') parent.splice(i, 0, op.value);
    else if (op.op === 'remove') parent.splice(i, 1);
    else if (op.op === 'replace') parent[i] = op.value;
    else throw new Error(`unknown op ${op.op}`);
  } else if (op.op === 'add' || op.op === 'replace') {
    parent[last] = op.value;
  } else if (op.op === 'remove') {
    delete parent[last];
  } else {
    throw new Error(`unknown op ${op.op}`);
  }
  return doc;
}

// The `state` that `patch` makes of `base` (the last state of the same game), or null when
// it does not follow on from it (a gap: the caller subscribes again from its last event).
export function applyPatch(base, patch) {
  if (!base || base.state_id !== patch.from) return null;
  let view = structuredClone(base.view);
  try {
    for (const op of patch.view_patch) view = applyOp(view, op);
  } catch (e) {
    console.error(e);
    return null;
  }
  const { from, view_patch, ...fields } = patch;
  return { ...fields, type: 'state', missed: [], view };
}
