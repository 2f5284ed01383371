/**
 * The stash (ES: test/rest/yaml/Stash): values saved by `set` (and the last response as `body`),
 * looked up by `$name` (whole value, `$name.path` walks into it) or `${name}` embedded in a string,
 * in request params, headers, bodies (values and keys), assertion fields and expected values.
 */
import { javaToString } from './java-format.js';
import { evaluatePath, type PartResolver } from './object-path.js';

const EXTENDED_KEY = /\$\{([^}]+)\}/g;
const PATH_KEY = /\$_path/g;

export class StashError extends Error {}

export class Stash implements PartResolver {
  private readonly values: Record<string, unknown> = {};

  set(key: string, value: unknown): void {
    this.values[key] = value;
  }

  clear(): void {
    for (const k of Object.keys(this.values)) delete this.values[k];
  }

  /** Stash.containsStashedValue: a string starting with `$` or holding a `${...}`. */
  isStashed(key: unknown): key is string {
    if (typeof key !== 'string' || key.length === 0) return false;
    if (key.startsWith('$')) return true;
    EXTENDED_KEY.lastIndex = 0;
    return EXTENDED_KEY.test(key);
  }

  /** Stash.getValue: `$x` gives the stored object, `${x}` pieces are spliced as text. */
  resolve(key: string): unknown {
    if (key.startsWith('$') && key[1] !== '{') {
      if (key.length === 1) throw new StashError(`stashed value not found for key []`);
      return this.unstash(key.slice(1));
    }
    let found = false;
    const out = key.replace(EXTENDED_KEY, (_m, name: string) => {
      found = true;
      return javaToString(this.unstash(name));
    });
    if (!found) throw new StashError(`Doesn't contain any stash keys [${key}]`);
    return out;
  }

  private unstash(key: string): unknown {
    const v = evaluatePath(this.values, key);
    if (v === null || v === undefined)
      throw new StashError(`stashed value not found for key [${key}]`);
    return v;
  }

  /** Stash.replaceStashedValues: deep copy with stashed keys and values replaced. */
  replaceStashedValues<T>(value: T): T {
    return this.unstashObject([], value) as T;
  }

  private unstashObject(path: (string | number)[], obj: unknown): unknown {
    if (Array.isArray(obj)) {
      return obj.map((o, i) => {
        path.push(i);
        try {
          return this.isStashed(o) ? this.resolveAt(path, o) : this.unstashObject(path, o);
        } finally {
          path.pop();
        }
      });
    }
    if (
      obj !== null &&
      typeof obj === 'object' &&
      Object.getPrototypeOf(obj) === Object.prototype
    ) {
      const out: Record<string, unknown> = {};
      for (const [rawKey, v] of Object.entries(obj as Record<string, unknown>)) {
        const key = this.isStashed(rawKey) ? javaToString(this.resolve(rawKey)) : rawKey;
        path.push(key);
        let value: unknown;
        try {
          value = this.isStashed(v) ? this.resolveAt(path, v) : this.unstashObject(path, v);
        } finally {
          path.pop();
        }
        if (Object.hasOwn(out, key)) {
          throw new StashError(
            `Unstashing has caused a key conflict! The map is [${javaToString(out)}] and the key is [${rawKey}] which unstashes to [${key}]`,
          );
        }
        out[key] = value;
      }
      return out;
    }
    return obj;
  }

  /** `$_path` expands to the location being unstashed (dots in keys escaped). */
  private resolveAt(path: (string | number)[], key: string): unknown {
    PATH_KEY.lastIndex = 0;
    if (!PATH_KEY.test(key)) return this.resolve(key);
    const built = path.map((p) => String(p).replaceAll('.', '\\.')).join('.');
    return this.resolve(key.replace(PATH_KEY, () => built));
  }

  /** A snapshot for failure messages. */
  snapshot(): Record<string, unknown> {
    return { ...this.values };
  }
}
