/**
 * Partial-document merge of the update API (ES XContentHelper.update): objects merge
 * recursively, everything else (arrays included) is replaced. Reports whether anything changed,
 * for `detect_noop`.
 */

export function mergeForUpdate(
  source: Record<string, unknown>,
  changes: Record<string, unknown>,
): { merged: Record<string, unknown>; changed: boolean } {
  const merged: Record<string, unknown> = { ...source };
  let changed = false;
  for (const [k, v] of Object.entries(changes)) {
    const old = merged[k];
    if (isPlainObject(old) && isPlainObject(v)) {
      const r = mergeForUpdate(old, v);
      merged[k] = r.merged;
      changed ||= r.changed;
    } else {
      if (!(k in merged) || !deepEqual(old, v)) changed = true;
      merged[k] = v;
    }
  }
  return { merged, changed };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ak = Object.keys(a as object);
  const bk = Object.keys(b as object);
  if (ak.length !== bk.length) return false;
  return ak.every((k) =>
    deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
