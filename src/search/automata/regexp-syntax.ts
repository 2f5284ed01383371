/**
 * Parser for Lucene 7.7 `RegExp` syntax (the `regexp` query and `/.../` in query_string), which
 * is not Java regex: `. ? * + {n,m} | ( ) [ ] [^ ] "literal" \`, plus the optional operators
 * `&` `~` `#` `@` `<n-m>` `<name>` enabled by flags. Positions in error messages are UTF-16
 * offsets, and the messages are Lucene's `IllegalArgumentException` texts.
 */
import { illegalArgument } from '../../common/errors.js';
import { javaParseInt } from '../../common/java-parse-number.js';

/** RegExp syntax flags (Lucene `RegExp` constants). */
export const REGEXP_FLAGS = {
  INTERSECTION: 0x0001,
  COMPLEMENT: 0x0002,
  EMPTY: 0x0004,
  ANYSTRING: 0x0008,
  AUTOMATON: 0x0010,
  INTERVAL: 0x0020,
  ALL: 0xffff,
  NONE: 0x0000,
} as const;

export type Re =
  | { readonly t: 'union'; readonly a: Re; readonly b: Re }
  | { readonly t: 'concat'; readonly a: Re; readonly b: Re }
  | { readonly t: 'inter'; readonly a: Re; readonly b: Re }
  | { readonly t: 'opt'; readonly a: Re }
  | { readonly t: 'star'; readonly a: Re }
  | { readonly t: 'repeat'; readonly a: Re; readonly min: number; readonly max: number }
  | { readonly t: 'compl'; readonly a: Re }
  | { readonly t: 'range'; readonly from: number; readonly to: number }
  | { readonly t: 'any' }
  | { readonly t: 'none' }
  | { readonly t: 'string'; readonly cps: readonly number[] }
  | { readonly t: 'anyString' }
  | { readonly t: 'automaton'; readonly name: string }
  | { readonly t: 'interval'; readonly min: number; readonly max: number; readonly digits: number };

/** ES `RegexpFlag.resolveValue`: `"INTERSECTION|COMPLEMENT"`, empty means ALL. */
export function resolveRegexpFlags(flags: string): number {
  if (flags.length === 0) return REGEXP_FLAGS.ALL;
  let magic = REGEXP_FLAGS.NONE as number;
  for (const s of flags.split('|')) {
    if (s.length === 0) continue;
    const name = s.toUpperCase();
    if (name === 'AUTOMATON' || !Object.hasOwn(REGEXP_FLAGS, name)) {
      throw illegalArgument(`Unknown regexp flag [${s}]`);
    }
    if (name === 'NONE') continue;
    if (name === 'ALL') return REGEXP_FLAGS.ALL;
    magic |= REGEXP_FLAGS[name as keyof typeof REGEXP_FLAGS];
  }
  return magic;
}

const ch = (c: number): Re => ({ t: 'range', from: c, to: c });

/** Parses `source` with the given syntax `flags` (Lucene `new RegExp(s, flags)`). */
export function parseRegExp(source: string, flags: number): Re {
  let pos = 0;
  const len = source.length;
  const check = (f: number): boolean => (flags & f) !== 0;
  const more = (): boolean => pos < len;
  const peek = (s: string): boolean =>
    more() && s.includes(String.fromCodePoint(source.codePointAt(pos)!));
  const match = (c: string): boolean => {
    if (pos < len && source.codePointAt(pos) === c.codePointAt(0)) {
      pos += c.length;
      return true;
    }
    return false;
  };
  const next = (): number => {
    if (!more()) throw illegalArgument('unexpected end-of-string');
    const c = source.codePointAt(pos)!;
    pos += c > 0xffff ? 2 : 1;
    return c;
  };
  const fail = (what: string): never => {
    throw illegalArgument(`${what} at position ${pos}`);
  };

  const unionExp = (): Re => {
    const e = interExp();
    return match('|') ? { t: 'union', a: e, b: unionExp() } : e;
  };
  const interExp = (): Re => {
    const e = concatExp();
    return check(REGEXP_FLAGS.INTERSECTION) && match('&') ? { t: 'inter', a: e, b: interExp() } : e;
  };
  const concatExp = (): Re => {
    const e = repeatExp();
    if (more() && !peek(')|') && (!check(REGEXP_FLAGS.INTERSECTION) || !peek('&'))) {
      return { t: 'concat', a: e, b: concatExp() };
    }
    return e;
  };
  const digits = (): string => {
    const start = pos;
    while (peek('0123456789')) next();
    return source.slice(start, pos);
  };
  const repeatExp = (): Re => {
    let e = complExp();
    while (peek('?*+{')) {
      if (match('?')) e = { t: 'opt', a: e };
      else if (match('*')) e = { t: 'star', a: e };
      else if (match('+')) e = { t: 'repeat', a: e, min: 1, max: -1 };
      else if (match('{')) {
        const sn = digits();
        if (sn.length === 0) fail('integer expected');
        const n = javaParseInt(sn);
        let m = -1;
        if (match(',')) {
          const sm = digits();
          if (sm.length > 0) m = javaParseInt(sm);
        } else m = n;
        if (!match('}')) fail("expected '}'");
        e = { t: 'repeat', a: e, min: n, max: m };
      }
    }
    return e;
  };
  const complExp = (): Re =>
    check(REGEXP_FLAGS.COMPLEMENT) && match('~') ? { t: 'compl', a: complExp() } : charClassExp();
  const charClassExp = (): Re => {
    if (!match('[')) return simpleExp();
    const negate = match('^');
    let e = charClass();
    while (more() && !peek(']')) e = { t: 'union', a: e, b: charClass() };
    if (negate) e = { t: 'inter', a: { t: 'any' }, b: { t: 'compl', a: e } };
    if (!match(']')) fail("expected ']'");
    return e;
  };
  const charExp = (): number => {
    match('\\');
    return next();
  };
  const charClass = (): Re => {
    const c = charExp();
    if (!match('-')) return ch(c);
    const to = charExp();
    if (c > to) throw illegalArgument(`invalid range: from (${c}) cannot be > to (${to})`);
    return { t: 'range', from: c, to };
  };
  const simpleExp = (): Re => {
    if (match('.')) return { t: 'any' };
    if (check(REGEXP_FLAGS.EMPTY) && match('#')) return { t: 'none' };
    if (check(REGEXP_FLAGS.ANYSTRING) && match('@')) return { t: 'anyString' };
    if (match('"')) {
      const start = pos;
      while (more() && !peek('"')) next();
      if (!match('"')) fail(`expected '"'`);
      return { t: 'string', cps: [...source.slice(start, pos - 1)].map((s) => s.codePointAt(0)!) };
    }
    if (match('(')) {
      if (match(')')) return { t: 'string', cps: [] };
      const e = unionExp();
      if (!match(')')) fail("expected ')'");
      return e;
    }
    if ((check(REGEXP_FLAGS.AUTOMATON) || check(REGEXP_FLAGS.INTERVAL)) && match('<')) {
      const start = pos;
      while (more() && !peek('>')) next();
      if (!match('>')) fail("expected '>'");
      const s = source.slice(start, pos - 1);
      const i = s.indexOf('-');
      if (i === -1) {
        if (!check(REGEXP_FLAGS.AUTOMATON)) {
          throw illegalArgument(`interval syntax error at position ${pos - 1}`);
        }
        return { t: 'automaton', name: s };
      }
      if (!check(REGEXP_FLAGS.INTERVAL)) {
        throw illegalArgument(`illegal identifier at position ${pos - 1}`);
      }
      return interval(s, i, pos - 1);
    }
    return ch(charExp());
  };

  if (len === 0) return { t: 'string', cps: [] };
  const e = unionExp();
  if (pos < len) throw illegalArgument(`end-of-string expected at position ${pos}`);
  return e;
}

/** `<n-m>`: decimal interval; equal-length bounds fix the number of digits. */
function interval(s: string, dash: number, at: number): Re {
  const bad = () => illegalArgument(`interval syntax error at position ${at}`);
  if (dash === 0 || dash === s.length - 1 || dash !== s.lastIndexOf('-')) throw bad();
  const smin = s.slice(0, dash);
  const smax = s.slice(dash + 1);
  let min: number;
  let max: number;
  try {
    min = javaParseInt(smin);
    max = javaParseInt(smax);
  } catch {
    throw bad();
  }
  const digits = smin.length === smax.length ? smin.length : 0;
  if (min > max) [min, max] = [max, min];
  return { t: 'interval', min, max, digits };
}
