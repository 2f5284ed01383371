/**
 * ES CollectionUtils.ensureNoSelfReferences (6.8, no message hint): a map or list that contains
 * itself, directly or through its descendants, cannot be written as JSON, so the request fails
 * with an IllegalArgumentException instead.
 */
import { illegalArgument } from './errors.js';

export function ensureNoSelfReferences(value: unknown): void {
  walk(value, new Set());
}

function walk(value: unknown, ancestors: Set<object>): void {
  if (value === null || typeof value !== 'object') return;
  const children = childrenOf(value);
  if (children === null) return;
  if (ancestors.has(value)) throw illegalArgument('Iterable object is self-referencing itself');
  ancestors.add(value);
  for (const c of children) walk(c, ancestors);
  ancestors.delete(value);
}

/** Only plain containers (maps, lists, arrays) are walked; other objects are leaves. */
function childrenOf(value: object): Iterable<unknown> | null {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return [...value.keys(), ...value.values()];
  if (value instanceof Set) return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto === Object.prototype || proto === null) return Object.values(value);
  return null;
}
