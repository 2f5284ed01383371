/**
 * A script parameter that is a Java Double whatever its value (ES SQL sends `2.0` as a Double: a
 * division by it is a double division even though the JSON number is integral). Requests that
 * cross nodes carry it marked, since structured cloning keeps no class.
 */
export class ScriptDouble {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
}

const MARK = '\u0000double';

/** `v` with every ScriptDouble replaced by a plain marked object (for the wire). */
export function markScriptDoubles<T>(v: T): T {
  return walk(v, (x) => (x instanceof ScriptDouble ? { [MARK]: x.value } : undefined)) as T;
}

/** The inverse of markScriptDoubles. */
export function unmarkScriptDoubles<T>(v: T): T {
  return walk(v, (x) => {
    const o = x as Record<string, unknown>;
    return typeof o[MARK] === 'number' ? new ScriptDouble(o[MARK]) : undefined;
  }) as T;
}

/** Rebuilds plain objects and arrays only where `swap` replaced something below them. */
function walk(v: unknown, swap: (o: object) => unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  const swapped = swap(v);
  if (swapped !== undefined) return swapped;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    v.forEach((x, i) => {
      const y = walk(x, swap);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  let out: Record<string, unknown> | null = null;
  for (const [k, x] of Object.entries(v)) {
    const y = walk(x, swap);
    if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
  }
  return out ?? v;
}
