/**
 * Plans shared by statements that differ only in some literals (no ES counterpart: ES plans every
 * statement). A dashboard sends `... WHERE section = 'libs'`, then `'net'`: the second
 * statement's plan is the first one's with the literal swapped, so it needs no parse or analysis.
 *
 * Only literals whose value the planner passes through untouched are lifted: the string compared
 * by `column = '…'` / `column != '…'`, MATCH's query text and QUERY's query string; in the WHERE
 * clause of a single SELECT, the integer compared by `column <op> n` or bounding
 * `column BETWEEN n AND m`; and a trailing `OFFSET n`. A statement of a new shape is planned once
 * more with a sentinel in place of each lifted literal; the sentinel plan becomes the shape's
 * template only when it gives back the statement's own plan, each sentinel appears in its
 * optimized part as a whole value and otherwise only inside source text, and nothing in it could
 * hide one (class instances, closures). A literal the planner folded, parsed or transformed fails
 * that check and the shape is planned as usual. Whitespace and comments after the last token are
 * no part of a shape (statements differing there share a template, never a cached plan).
 *
 * Sentinels differ in length from the literals they stand for (private-use strings one character
 * longer, 10-digit integers), so substitution moves the columns of what follows a literal on its
 * line, and a plan that depends on a literal's length or position in some other way fails the
 * check. A shape records the order of its lifted integers and which lifted values are equal, and
 * integer sentinels keep that order (equal values share one), so a planner decision comparing
 * two of them (a repeated bound dropped) is the same for every statement of the shape. Zero is
 * never lifted (LIMIT 0 / OFFSET 0 plan differently), nor integers with leading zeros (their text
 * is not their value's) or beyond 9 digits (LONG).
 */
import type { ILexingResult, IToken } from 'chevrotain';
import { tokenizeSql } from '../../../grammar/sql/lexer.js';

/** Private-use characters: the sentinels are made of these, never found in the statements lifted. */
const FIRST = 0xe000;
const FILL = '\ue100';
const PRIVATE = /[\ue000-\ue1ff]/;
const MAX_LIFTED = 64;
/** Integer sentinels: 10 digits (longer than any lifted integer), INTEGER values. */
const INT_SENTINEL = 2_000_000_000;

/** A lifted literal of a statement. */
export interface Literal {
  readonly value: string | number;
  /** Its text as written. */
  readonly image: string;
  /** Offsets of its text in the statement. */
  readonly start: number;
  readonly end: number;
}

/** A statement with its liftable literals found. */
export interface Lifted {
  /** The statement with each lifted literal replaced by a marker. */
  readonly shape: string;
  readonly literals: readonly Literal[];
  /** The integer sentinels of the literals (null for strings), in order. */
  readonly intSentinels: ReadonlyArray<number | null>;
  /** The statement's tokens (the parser takes them instead of lexing again). */
  readonly tokens: IToken[];
  readonly text: string;
}

/** A lifted literal's sentinel, where it stands in the sentinel statement, and its value. */
export interface Substitution {
  readonly sentinel: string | number;
  /** The sentinel's text in the sentinel statement (quoted for strings). */
  readonly sentinelImage: string;
  /** Where the sentinel starts in the sentinel statement (1-based line and column). */
  readonly line: number;
  readonly column: number;
  /** The statement's literal: its value and its text as written. */
  readonly value: string | number;
  readonly image: string;
}

const name = (t: IToken | undefined): string | undefined => t?.tokenType.name;
const isColumn = (t: IToken | undefined) =>
  name(t) === 'Identifier' || name(t) === 'QuotedIdentifier';
/** What may follow a lifted comparison: the end of its condition. */
const CONDITION_END = new Set(['And', 'Or', 'RightParen', 'Order', 'Group', 'Limit', 'Having']);
const COMPARISON = new Set(['Eq', 'Neq', 'Lt', 'Lte', 'Gt', 'Gte']);
/** Tokens that end a WHERE clause. */
const AFTER_WHERE = new Set(['Group', 'Having', 'Order', 'Limit', 'Offset', 'Fetch', 'Union']);

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

/** An integer literal that may be lifted: its token count and value. */
interface IntUnit {
  readonly count: 1 | 2;
  readonly value: number;
  readonly image: string;
}

/** `n` or `-n` (the minus right before the digits) at token `i`, when its value may be lifted. */
function intUnit(tokens: readonly IToken[], i: number): IntUnit | null {
  const t = tokens[i];
  if (t === undefined) return null;
  let digits = t;
  let count: 1 | 2 = 1;
  if (name(t) === 'Minus') {
    const d = tokens[i + 1];
    if (d === undefined || d.startOffset !== t.startOffset + 1) return null;
    digits = d;
    count = 2;
  }
  if (name(digits) !== 'IntegerValue') return null;
  const img = digits.image;
  if (img.length > 9 || img.charCodeAt(0) === 48 /* 0: zero or a leading zero */) return null;
  const image = count === 2 ? `-${img}` : img;
  return { count, value: Number(image), image };
}

/** The comparison `column <op> n` / `column [NOT] BETWEEN n AND m` whose integer starts at `i`. */
function comparedInt(tokens: readonly IToken[], i: number): IntUnit | null {
  const u = intUnit(tokens, i);
  if (u === null) return null;
  const next = name(tokens[i + u.count]);
  const ends = next === undefined || CONDITION_END.has(next) || next === 'Offset';
  const p1 = name(tokens[i - 1]);
  if (COMPARISON.has(p1 ?? '') && isColumn(tokens[i - 2])) return ends ? u : null;
  const between = (j: number) =>
    name(tokens[j]) === 'Between' &&
    (isColumn(tokens[j - 1]) || (name(tokens[j - 1]) === 'Not' && isColumn(tokens[j - 2])));
  // the lower bound, followed by AND
  if (p1 === 'Between' && between(i - 1)) return next === 'And' ? u : null;
  // the upper bound, after `BETWEEN <lower> AND`
  if (p1 === 'And' && ends) {
    const lo = name(tokens[i - 2]) === 'IntegerValue' ? i - 2 : -1;
    const start = lo >= 1 && name(tokens[lo - 1]) === 'Minus' ? lo - 1 : lo;
    if (start >= 1 && intUnit(tokens, start) !== null && between(start - 1)) return u;
  }
  return null;
}

/**
 * The statement's liftable literals, or null when it has none (or cannot take sentinels).
 * `lexed`: the text's tokens when the caller lexed it already (the parser takes the same ones).
 */
export function liftLiterals(text: string, lexed?: ILexingResult): Lifted | null {
  if (PRIVATE.test(text)) return null;
  const { tokens, errors } = lexed ?? tokenizeSql(text);
  if (errors.length > 0) return null;
  // integers: in the WHERE clause of a statement with one SELECT; OFFSET when last, over no
  // inner LIMIT (TOP) it would be compared with
  let selects = 0;
  let limits = 0;
  let tops = 0;
  for (const t of tokens) {
    const n = name(t);
    if (n === 'Select') selects++;
    else if (n === 'Limit' || n === 'Fetch') limits++;
    else if (n === 'Top') tops++;
  }
  const numeric = selects === 1;
  const found: Array<{ start: number; count: number; int: IntUnit | null; offset: boolean }> = [];
  let inWhere = false;
  for (let i = 0; i < tokens.length && found.length < MAX_LIFTED; i++) {
    const n = name(tokens[i]);
    if (n === 'Where') inWhere = true;
    else if (AFTER_WHERE.has(n!)) inWhere = false;
    if (liftable(tokens, i)) {
      found.push({ start: i, count: 1, int: null, offset: false });
      continue;
    }
    if (!numeric) continue;
    if (inWhere) {
      const u = comparedInt(tokens, i);
      if (u !== null) {
        found.push({ start: i, count: u.count, int: u, offset: false });
        i += u.count - 1;
      }
    } else if (n === 'Offset' && limits <= 1 && tops === 0) {
      const u = intUnit(tokens, i + 1);
      if (u !== null && u.value > 0 && i + 1 + u.count === tokens.length) {
        found.push({ start: i + 1, count: u.count, int: u, offset: true });
        break;
      }
    }
  }
  if (found.length === 0) return null;
  // the order of the lifted integers (equal ones share a rank) and which strings are equal are
  // part of the shape
  const ints = found.filter((f) => f.int !== null && !f.offset).map((f) => f.int!.value);
  const distinct = [...new Set(ints)].sort((a, b) => a - b);
  const rank = new Map(distinct.map((v, r) => [v, r]));
  const negatives = distinct.filter((v) => v < 0).length;
  /** Sentinels increase with the rank and have the value's sign. */
  const sentinelOf = (r: number) =>
    r < negatives ? -(INT_SENTINEL + negatives - r) : INT_SENTINEL + r - negatives;
  const firstOf = new Map<string, number>();
  const literals: Literal[] = [];
  const intSentinels: Array<number | null> = [];
  let shape = '';
  let from = 0;
  for (const f of found) {
    const first = tokens[f.start]!;
    const last = tokens[f.start + f.count - 1]!;
    const start = first.startOffset;
    const end = last.startOffset + last.image.length;
    shape += text.slice(from, start);
    from = end;
    if (f.int === null) {
      const value = first.image.slice(1, -1).replace(/''/g, "'");
      if (!firstOf.has(value)) firstOf.set(value, literals.length);
      shape += `\u0000${firstOf.get(value)}\u0000`;
      literals.push({ value, image: first.image, start, end });
      intSentinels.push(null);
    } else {
      const u = f.int;
      const r = f.offset ? distinct.length : rank.get(u.value)!;
      shape += f.offset ? '\u0001o\u0001' : `\u0001${u.value < 0 ? '-' : '+'}${r}\u0001`;
      literals.push({ value: u.value, image: u.image, start, end });
      intSentinels.push(sentinelOf(r));
    }
  }
  // what follows the last token (whitespace, comments) is no part of the shape: it moves no
  // position and no plan reads it, so `… = 'a'` and `… = 'b' ` share a template
  const lastToken = tokens[tokens.length - 1]!;
  shape += text.slice(from, Math.max(from, lastToken.startOffset + lastToken.image.length));
  // a sentinel written elsewhere in the statement would be taken for the literal
  if (intSentinels.some((s) => s !== null && shape.includes(String(Math.abs(s))))) return null;
  return { shape, literals, intSentinels, tokens, text };
}

/**
 * The sentinel statement of a lifted statement and the substitutions that turn its plan into the
 * statement's plan (see the module comment).
 */
export function sentinelStatement(lifted: Lifted): {
  readonly text: string;
  readonly subs: readonly Substitution[];
} {
  const { text, literals } = lifted;
  let out = '';
  let from = 0;
  let line = 1;
  let lineStart = 0;
  const subs: Substitution[] = [];
  literals.forEach((lit, i) => {
    const before = text.slice(from, lit.start);
    for (let j = before.indexOf('\n'); j >= 0; j = before.indexOf('\n', j + 1)) {
      line++;
      lineStart = out.length + j + 1;
    }
    out += before;
    const column = out.length - lineStart + 1;
    const int = lifted.intSentinels[i];
    let sentinel: string | number;
    let sentinelImage: string;
    if (int === null || int === undefined) {
      // one character longer than the literal's value
      const inner = lit.image.length - 2;
      sentinel = String.fromCharCode(FIRST + i) + FILL.repeat(inner);
      sentinelImage = `'${sentinel}'`;
    } else {
      sentinel = int;
      sentinelImage = String(int);
    }
    out += sentinelImage;
    from = lit.end;
    subs.push({ sentinel, sentinelImage, line, column, value: lit.value, image: lit.image });
  });
  return { text: out + text.slice(from), subs };
}

/** A template's substitutions with another statement's literals (of the template's shape). */
export function bindLiterals(
  subs: readonly Substitution[],
  lifted: Lifted,
): readonly Substitution[] {
  return subs.map((s, i) => ({
    ...s,
    value: lifted.literals[i]!.value,
    image: lifted.literals[i]!.image,
  }));
}

/** The key of a query plan's analyzed (not yet optimized) plan. */
const ANALYZED = 'analyzed';

/** Keys of plan numbers that are positions or internal ids, never a literal's value. */
const STRUCTURAL = new Set(['id', 'line', 'column', 'mask', 'minPageSize']);

class Unsafe extends Error {}

/**
 * Where a template's plan holds its sentinels: per object, the keys (array indices) whose value
 * holds one or a position that moves.
 */
export type HotSites = ReadonlyMap<object, ReadonlyArray<string | number>>;

/**
 * The plan for `subs`' literals from a sentinel plan, or null when the sentinel plan cannot be
 * trusted as a template (see the module comment). Unchanged parts are shared with `plan`.
 * Without `hot`, the whole plan is checked and where it holds a sentinel or a position that
 * moves is added to `record`; with it (a template's recorded sites), only those keys of those
 * objects are visited.
 */
export function substitute<P>(
  plan: P,
  subs: readonly Substitution[],
  hot: HotSites | null = null,
  record: Map<object, Array<string | number>> | null = null,
): P | null {
  const seen = new Set<string | number>();
  const memo = new Map<object, unknown>();
  let numbers: Map<number, number> | null = null;
  let images: RegExp | null = null;
  const imageOf = new Map<string, string>();
  let moves = false;
  for (const sub of subs) {
    if (sub.image.length !== sub.sentinelImage.length) moves = true;
    if (typeof sub.sentinel !== 'number') continue;
    (numbers ??= new Map()).set(sub.sentinel, sub.value as number);
    imageOf.set(sub.sentinelImage, sub.image);
  }
  if (numbers !== null) {
    // a sentinel's text as a whole number in source text (not a part of another number or name)
    const alt = [...imageOf.keys()].sort((a, b) => b.length - a.length).join('|');
    images = new RegExp(`(?<![\\w.\\-])(?:${alt})(?![\\w.])`, 'g');
  }
  /** How far a position of the sentinel statement moves in the statement. */
  const shift = (line: number, column: number): number => {
    let d = 0;
    for (const s of subs)
      if (s.line === line && s.column < column) d += s.image.length - s.sentinelImage.length;
    return d;
  };
  const distinct = new Set(subs.map((s) => s.sentinel)).size;
  let counting = true;
  const str = (s: string): string => {
    const priv = PRIVATE.test(s);
    if (!priv && images === null) return s;
    let out = s;
    if (priv) {
      for (const sub of subs) {
        if (s === sub.sentinel) {
          if (counting) seen.add(sub.sentinel);
          return sub.value as string;
        }
      }
      for (const sub of subs)
        if (typeof sub.sentinel === 'string') out = out.split(sub.sentinelImage).join(sub.image);
      if (PRIVATE.test(out)) throw new Unsafe();
    }
    if (images !== null) {
      images.lastIndex = 0;
      if (images.test(out)) {
        images.lastIndex = 0;
        out = out.replace(images, (m) => imageOf.get(m)!);
      }
    }
    return out;
  };
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') return str(v);
    if (typeof v === 'number') {
      if (numbers === null || STRUCTURAL.has(key)) return v;
      const x = numbers.get(v);
      if (x === undefined) return v;
      if (counting) seen.add(v);
      return x;
    }
    // closures could hold a sentinel out of sight; function definitions (`def`) hold none
    if (typeof v === 'function') {
      if (key === 'def') return v;
      throw new Unsafe();
    }
    if (v === null || typeof v !== 'object') return v;
    let sites: ReadonlyArray<string | number> | undefined;
    if (hot !== null) {
      sites = hot.get(v);
      if (sites === undefined) return v;
    }
    if (memo.has(v)) return memo.get(v);
    const changed: Array<string | number> = [];
    let out: unknown = v;
    if (Array.isArray(v)) {
      let copy: unknown[] | null = null;
      const at = (i: number) => {
        const x = walk(v[i], key);
        if (x === v[i]) return;
        (copy ??= v.slice())[i] = x;
        changed.push(i);
      };
      if (sites !== undefined) for (const i of sites) at(i as number);
      else for (let i = 0; i < v.length; i++) at(i);
      if (copy) out = copy;
    } else if (v instanceof Map) {
      let any = false;
      const entries: Array<[unknown, unknown]> = [];
      for (const [k, x] of v) {
        const k2 = walk(k, key);
        const x2 = walk(x, key);
        if (k2 !== k || x2 !== x) any = true;
        entries.push([k2, x2]);
      }
      if (any) out = new Map(entries);
    } else {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new Unsafe();
      const o = v as Record<string, unknown>;
      if (key === 'def') {
        // a function definition (a shared registry object): kept as it is, if it is sentinel-free
        for (const k of Object.keys(o)) if (typeof o[k] !== 'function') walk(o[k], k);
      } else {
        let copy: Record<string, unknown> | null = null;
        for (const k of (sites ?? Object.keys(o)) as string[]) {
          if (k === ANALYZED) continue;
          const x = walk(o[k], k);
          if (x === o[k]) continue;
          (copy ??= { ...o })[k] = x;
          changed.push(k);
        }
        if (sites !== undefined ? sites.includes(ANALYZED) : ANALYZED in o) {
          // the analyzed plan keeps literals the optimizer folded away: a sentinel seen only
          // there decided something, so it does not count as seen (its parts shared with the
          // optimized plan are walked from there first)
          const was = counting;
          counting = false;
          const x = walk(o[ANALYZED], ANALYZED);
          counting = was;
          if (x !== o[ANALYZED]) {
            (copy ??= { ...o })[ANALYZED] = x;
            changed.push(ANALYZED);
          }
        }
        // a source position after a literal moves with the literal's length
        if (moves && typeof o.line === 'number' && typeof o.column === 'number') {
          const d = shift(o.line, o.column);
          if (d !== 0) {
            (copy ??= { ...o }).column = o.column + d;
            changed.push('column');
          }
        }
        if (copy) out = copy;
      }
    }
    memo.set(v, out);
    if (out !== v && record !== null) record.set(v, v instanceof Map ? [] : changed);
    return out;
  };
  try {
    const out = walk(plan, '') as P;
    // a sentinel missing from the plan was folded away: its value decided something
    return seen.size === distinct ? out : null;
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
