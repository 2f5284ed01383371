/**
 * Index settings as the cluster state keeps them: flat strings, with a list kept as ES's flat
 * Settings keep one (`key.0`, `key.1`, ...), so that an element holding a comma (a synonym rule
 * such as `"atm,cash point"`) survives the trip through etcd instead of being split apart when
 * a node reads the list back. Pure.
 */
import type { SettingValue } from '../engine/index-settings.js';

/** A node's flat settings as cluster-state strings. */
export function toStateSettings(
  settings: Readonly<Record<string, SettingValue | null | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(settings)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x, i) => (out[`${k}.${i}`] = String(x)));
    else out[k] = String(v);
  }
  return out;
}

const LIST_ITEM = /^(.*)\.(0|[1-9]\d*)$/;

/** Cluster-state strings back as a node's flat settings: `key.0..key.n` become one list. */
export function fromStateSettings(
  settings: Readonly<Record<string, string>>,
): Record<string, string | string[]> {
  const lists = new Map<string, string[]>();
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(settings)) {
    const m = LIST_ITEM.exec(k);
    if (!m) {
      out[k] = v;
      continue;
    }
    const items = lists.get(m[1]!) ?? [];
    items[Number(m[2])] = v;
    lists.set(m[1]!, items);
  }
  for (const [k, items] of lists) {
    // only a whole 0..n run is a list; anything else stays as it was keyed
    if (isWholeRun(items) && !(k in out)) out[k] = items;
    else items.forEach((x, i) => x !== undefined && (out[`${k}.${i}`] = x));
  }
  return out;
}

/** Every index 0..n-1 set (`every` skips the holes of a sparse array). */
function isWholeRun(items: (string | undefined)[]): items is string[] {
  for (let i = 0; i < items.length; i++) if (items[i] === undefined) return false;
  return items.length > 0;
}

/** A setting's value as one string (lists joined with commas, as ES's getAsList reads both). */
export const settingText = (v: string | readonly string[]): string =>
  typeof v === 'string' ? v : v.join(',');
