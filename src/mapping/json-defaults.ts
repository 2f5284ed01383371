/**
 * ES XContentHelper.mergeDefaults: applies the `_default_` mapping to a type's mapping (missing
 * keys copied, objects merged recursively, lists of single-key objects merged by key).
 */
import { isMap } from './parse-field.js';

const mapsOfOne = (l: unknown[]) => l.every((x) => isMap(x) && Object.keys(x).length === 1);

export function mergeJsonDefaults(
  content: Record<string, unknown>,
  defaults: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...content };
  for (const [k, dv] of Object.entries(defaults)) {
    if (!(k in out)) {
      out[k] = dv;
      continue;
    }
    const cv = out[k];
    if (isMap(cv) && isMap(dv)) out[k] = mergeJsonDefaults(cv, dv);
    else if (Array.isArray(cv) && Array.isArray(dv)) {
      if (mapsOfOne(cv) && mapsOfOne(dv)) {
        const byKey = new Map<string, Record<string, unknown>>();
        for (const m of cv as Record<string, unknown>[]) byKey.set(Object.keys(m)[0]!, m);
        for (const m of dv as Record<string, unknown>[]) {
          const key = Object.keys(m)[0]!;
          const cur = byKey.get(key);
          byKey.set(key, cur ? mergeJsonDefaults(cur, m) : m);
        }
        out[k] = [...byKey.values()];
      } else {
        const merged: unknown[] = [...dv];
        for (const x of cv)
          if (!merged.some((y) => JSON.stringify(y) === JSON.stringify(x))) merged.push(x);
        out[k] = merged;
      }
    }
  }
  return out;
}
