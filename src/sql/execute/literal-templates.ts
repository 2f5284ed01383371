/**
 * Plans shared by statements that differ only in some string literals (no ES counterpart: ES plans
 * every statement). A dashboard sends `... WHERE section = 'libs'`, then `'net'`: the second
 * statement's plan is the first one's with the literal swapped, so it needs no parse or analysis.
 *
 * Only literals whose text the planner passes through untouched are lifted: the value compared
 * by `column = '…'` / `column != '…'`, MATCH's query text and QUERY's query string. A statement
 * of a new shape is planned once more with a sentinel in place of each lifted literal, of the
 * same length so every source position in the plan stays the same; the sentinel plan becomes the
 * shape's template only when each sentinel appears in it as a whole value and otherwise only
 * inside source text, and nothing in it could hide one (class instances, closures). A literal
 * the planner folded, parsed or transformed fails that check and the shape is planned as usual.
 */
import type { IToken } from 'chevrotain';
import { tokenizeSql } from '../../../grammar/sql/lexer.js';

/** Private-use characters: the sentinels are made of these, never found in the statements lifted. */
const FIRST = 0xe000;
const FILL = '\ue100';
const PRIVATE = /[\ue000-\ue1ff]/;
const MAX_LIFTED = 64;

interface Substitution {
  /** The sentinel's value and its text in the sentinel statement (quoted). */
  readonly sentinel: string;
  readonly sentinelImage: string;
  /** The statement's literal: its value and its text as written. */
  readonly value: string;
  readonly image: string;
}

/** A statement with its liftable literals found. */
export interface Lifted {
  /** The statement with each lifted literal replaced by a marker and its length. */
  readonly shape: string;
  /** The statement with the sentinels in place of the lifted literals. */
  readonly sentinelText: string;
  readonly subs: readonly Substitution[];
}

const name = (t: IToken | undefined): string | undefined => t?.tokenType.name;
const isColumn = (t: IToken | undefined) =>
  name(t) === 'Identifier' || name(t) === 'QuotedIdentifier';
/** What may follow a lifted comparison: the end of its condition. */
const CONDITION_END = new Set(['And', 'Or', 'RightParen', 'Order', 'Group', 'Limit', 'Having']);

function liftable(tokens: readonly IToken[], i: number): boolean {
  const tok = tokens[i]!;
  if (name(tok) !== 'StringLiteral' || tok.image.length < 3) return false;
  if (/[\r\n]/.test(tok.image)) return false;
  const next = name(tokens[i + 1]);
  const p1 = name(tokens[i - 1]);
  // column = 'value'
  if ((p1 === 'Eq' || p1 === 'Neq') && isColumn(tokens[i - 2]))
    return next === undefined || CONDITION_END.has(next);
  const argEnd = next === 'RightParen' || next === 'Comma';
  // MATCH(column, 'text' ...)
  if (
    p1 === 'Comma' &&
    isColumn(tokens[i - 2]) &&
    name(tokens[i - 3]) === 'LeftParen' &&
    name(tokens[i - 4]) === 'Match'
  )
    return argEnd;
  // QUERY('query string' ...)
  if (p1 === 'LeftParen' && name(tokens[i - 2]) === 'Query') return argEnd;
  return false;
}

/** The statement's liftable literals, or null when it has none (or cannot take sentinels). */
export function liftLiterals(text: string): Lifted | null {
  if (PRIVATE.test(text)) return null;
  const { tokens, errors } = tokenizeSql(text);
  if (errors.length > 0) return null;
  const subs: Substitution[] = [];
  let shape = '';
  let sentinelText = '';
  let from = 0;
  for (let i = 0; i < tokens.length && subs.length < MAX_LIFTED; i++) {
    if (!liftable(tokens, i)) continue;
    const tok = tokens[i]!;
    const inner = tok.image.length - 2;
    const sentinel = String.fromCharCode(FIRST + subs.length) + FILL.repeat(inner - 1);
    const sentinelImage = `'${sentinel}'`;
    subs.push({
      sentinel,
      sentinelImage,
      value: tok.image.slice(1, -1).replace(/''/g, "'"),
      image: tok.image,
    });
    const before = text.slice(from, tok.startOffset);
    shape += `${before}\u0000${inner}\u0000`;
    sentinelText += before + sentinelImage;
    from = tok.startOffset + tok.image.length;
  }
  if (subs.length === 0) return null;
  return { shape: shape + text.slice(from), sentinelText: sentinelText + text.slice(from), subs };
}

class Unsafe extends Error {}

/**
 * The plan for `subs`' literals from a sentinel plan, or null when the sentinel plan cannot be
 * trusted as a template (see the module comment). Unchanged parts are shared with `plan`.
 * Without `hot`, the whole plan is checked and the objects holding a sentinel are added to
 * `record`; with it (a template's recorded set), only those objects are visited.
 */
export function substitute<P>(
  plan: P,
  subs: readonly Substitution[],
  hot: ReadonlySet<object> | null = null,
  record: Set<object> | null = null,
): P | null {
  const seen = new Set<string>();
  const memo = new Map<object, unknown>();
  const str = (s: string): string => {
    if (!PRIVATE.test(s)) return s;
    for (const sub of subs) {
      if (s === sub.sentinel) {
        seen.add(sub.sentinel);
        return sub.value;
      }
    }
    let out = s;
    for (const sub of subs) out = out.split(sub.sentinelImage).join(sub.image);
    if (PRIVATE.test(out)) throw new Unsafe();
    return out;
  };
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') return str(v);
    // closures could hold a sentinel out of sight; function definitions (`def`) hold none
    if (typeof v === 'function') {
      if (key === 'def') return v;
      throw new Unsafe();
    }
    if (v === null || typeof v !== 'object') return v;
    if (hot !== null && !hot.has(v)) return v;
    if (memo.has(v)) return memo.get(v);
    let out: unknown = v;
    if (Array.isArray(v)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const x = walk(v[i], key);
        if (x !== v[i]) (copy ??= v.slice())[i] = x;
      }
      if (copy) out = copy;
    } else if (v instanceof Map) {
      let changed = false;
      const entries: Array<[unknown, unknown]> = [];
      for (const [k, x] of v) {
        const k2 = walk(k, key);
        const x2 = walk(x, key);
        if (k2 !== k || x2 !== x) changed = true;
        entries.push([k2, x2]);
      }
      if (changed) out = new Map(entries);
    } else {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new Unsafe();
      const o = v as Record<string, unknown>;
      if (key === 'def') {
        // a function definition (a shared registry object): kept as it is, if it is sentinel-free
        for (const k of Object.keys(o)) if (typeof o[k] !== 'function') walk(o[k], k);
      } else {
        let copy: Record<string, unknown> | null = null;
        for (const k of Object.keys(o)) {
          const x = walk(o[k], k);
          if (x !== o[k]) (copy ??= { ...o })[k] = x;
        }
        if (copy) out = copy;
      }
    }
    memo.set(v, out);
    if (out !== v) record?.add(v);
    return out;
  };
  try {
    const out = walk(plan, '') as P;
    // a sentinel missing from the plan was folded away: its value decided something
    return seen.size === subs.length ? out : null;
  } catch (e) {
    if (e instanceof Unsafe) return null;
    throw e;
  }
}

/** Structural equality of two plans (functions by identity, Maps in order). */
export function samePlan(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Map) {
    const m = b as Map<unknown, unknown>;
    if (a.size !== m.size) return false;
    const xs = [...a];
    const ys = [...m];
    return xs.every(([k, v], i) => samePlan(k, ys[i]![0]) && samePlan(v, ys[i]![1]));
  }
  if (Array.isArray(a)) {
    const ys = b as unknown[];
    return a.length === ys.length && a.every((x, i) => samePlan(x, ys[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  const oa = a as Record<string, unknown>;
  return ka.every((k, i) => kb[i] === k && samePlan(oa[k], ob[k]));
}
