/** Reading ES component settings (values may arrive as strings, numbers or booleans). */
import { illegalArgument } from '../../common/errors.js';

export type Params = Record<string, unknown>;

export function intParam(p: Params, key: string, def: number): number {
  const v = p[key];
  if (v === undefined || v === null) return def;
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isInteger(n)) {
    throw illegalArgument(`Failed to parse value [${String(v)}] for setting [${key}]`);
  }
  return n;
}

export function boolParam(p: Params, key: string, def: boolean): boolean {
  const v = p[key];
  if (v === undefined || v === null) return def;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw illegalArgument(
    `Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`,
  );
}

export function strParam(p: Params, key: string, def: string): string;
export function strParam(p: Params, key: string, def?: string): string | undefined;
export function strParam(p: Params, key: string, def?: string): string | undefined {
  const v = p[key];
  if (v === undefined || v === null) return def;
  return String(v);
}

/** A list setting: array, or comma-separated string. */
export function listParam(p: Params, key: string): string[] | undefined {
  const v = p[key];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map((x) => String(x));
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Compiles a Java regex for the JS engine; ES reports bad patterns as illegal arguments. */
export function compileJavaRegex(source: string, flags: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (e) {
    throw illegalArgument(`Invalid regex [${source}]: ${(e as Error).message}`);
  }
}
