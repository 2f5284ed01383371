/**
 * Dotted paths into a parsed response (ES: test/rest/yaml/ObjectPath). `a.b.0.c` walks maps by key
 * and lists by numeric index, `\.` escapes a dot inside a key, empty parts are dropped, `""` is the
 * whole value, and a part that is a stash reference (`$x`, `${x}`) is replaced by its value first.
 */
import { javaToString } from './java-format.js';

/** Resolves path parts that refer to the stash; null when none is needed (Stash.EMPTY). */
export interface PartResolver {
  isStashed(key: string): boolean;
  resolve(key: string): unknown;
}

export class PathError extends Error {}

/** ObjectPath.parsePath: a backslash sets an escape that only a following `.` consumes. */
export function parsePath(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  let escape = false;
  for (const c of path) {
    if (c === '\\') {
      escape = true;
      continue;
    }
    if (c === '.') {
      if (escape) {
        escape = false;
      } else {
        if (current.length > 0) parts.push(current);
        current = '';
        continue;
      }
    }
    current += c;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Evaluates `path` against `root`; undefined/null along the way yields null. */
export function evaluatePath(root: unknown, path: string, stash?: PartResolver): unknown {
  let obj: unknown = root;
  for (const part of parsePath(path)) {
    obj = step(part, obj, stash);
    if (obj === null || obj === undefined) return null;
  }
  return obj === undefined ? null : obj;
}

function step(rawKey: string, obj: unknown, stash?: PartResolver): unknown {
  const key = stash && stash.isStashed(rawKey) ? javaToString(stash.resolve(rawKey)) : rawKey;
  if (Array.isArray(obj)) {
    // Integer.valueOf: optional sign, decimal digits only.
    if (!/^[-+]?\d+$/.test(key)) {
      throw new PathError(`element was a list, but [${key}] was not numeric`);
    }
    const idx = Number(key);
    if (idx < 0 || idx >= obj.length) {
      throw new PathError(
        `element was a list with ${obj.length} elements, but [${key}] was out of bounds`,
      );
    }
    return obj[idx];
  }
  if (obj !== null && typeof obj === 'object') {
    const map = obj as Record<string, unknown>;
    if (key === '_arbitrary_key_') {
      const keys = Object.keys(map);
      if (keys.length === 0) throw new PathError(`requested [${key}] but the map was empty`);
      if (Object.hasOwn(map, key)) {
        throw new PathError(
          `requested meta-key [${key}] but the map unexpectedly contains this key`,
        );
      }
      return keys[0];
    }
    return Object.hasOwn(map, key) ? map[key] : null;
  }
  throw new PathError(`no object found for [${key}] within object of class [${javaClass(obj)}]`);
}

/** The Java class name upstream messages print for a parsed value. */
export function javaClass(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'class java.lang.String';
  if (typeof v === 'boolean') return 'class java.lang.Boolean';
  if (typeof v === 'number') {
    return Number.isInteger(v) ? 'class java.lang.Integer' : 'class java.lang.Double';
  }
  if (Array.isArray(v)) return 'class java.util.ArrayList';
  return 'class java.util.LinkedHashMap';
}
