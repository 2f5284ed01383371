/**
 * Lexer for Lucene's classic query syntax, emulating the JavaCC token manager generated from
 * Lucene 7.7 `QueryParser.jj`: three lexical states (DEFAULT, Boost after `^`, Range inside
 * `[..]`/`{..}`), longest match with ties going to the earlier declaration, and JavaCC's
 * `TokenMgrError` wording (including its column arithmetic) when no token matches.
 */
import { createTokenInstance, type IToken, type TokenType } from '../chevrotain.js';
import { Kind, LexError, typeOfKind } from './tokens.js';

export interface LexicalError {
  /** Offset where the failed token starts (the `LexError` token sits there). */
  readonly offset: number;
  /** JavaCC `TokenMgrError.LexicalError` text. */
  readonly message: string;
}

export interface LexResult {
  readonly tokens: IToken[];
  readonly error: LexicalError | null;
}

const enum State {
  Default,
  Boost,
  Range,
}

// QueryParser.jj `_WHITESPACE`
const isWs = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 0x3000;

// Characters that may not start a term unescaped (QueryParser.jj `_TERM_START_CHAR`).
const NOT_TERM_START = new Uint8Array(128);
for (const c of ' \t\n\r+-!():^[]"{}~*?\\/') NOT_TERM_START[c.charCodeAt(0)] = 1;
const BACKSLASH = 92;

function isTermStart(c: number): boolean {
  return c < 128 ? NOT_TERM_START[c] === 0 : c !== 0x3000;
}
function isTermChar(c: number): boolean {
  return isTermStart(c) || c === 45 /* - */ || c === 43; /* + */
}

/** End of one `_TERM_START_CHAR` at `i` (an escape counts), or -1. */
function termStartEnd(t: string, i: number): number {
  if (i >= t.length) return -1;
  const c = t.charCodeAt(i);
  if (c === BACKSLASH) return i + 1 < t.length ? i + 2 : -1;
  return isTermStart(c) ? i + 1 : -1;
}

/** End of the longest `(_TERM_CHAR | [*?])*` run from `i` (`wild` admits `*` and `?`). */
function termRunEnd(t: string, i: number, wild: boolean): number {
  const n = t.length;
  while (i < n) {
    const c = t.charCodeAt(i);
    if (c === BACKSLASH) {
      if (i + 1 >= n) break;
      i += 2;
    } else if (isTermChar(c) || (wild && (c === 42 || c === 63))) {
      i++;
    } else break;
  }
  return i;
}

/**
 * `open (~[close] | "\\" close)* close` (REGEXPTERM) or the same with `+` (RANGE_QUOTED):
 * the longest match closes at the first `close` not preceded by a backslash, else at the last
 * escaped one.
 */
function delimitedLen(t: string, s: number, close: number, nonEmpty: boolean): number {
  let lastClose = -1;
  for (let i = s + 1; i < t.length; i++) {
    if (t.charCodeAt(i) !== close) continue;
    const escaped = i - 1 > s && t.charCodeAt(i - 1) === BACKSLASH;
    if (escaped) lastClose = i;
    else if (nonEmpty && i === s + 1) break;
    else return i + 1 - s;
  }
  return lastClose >= 0 ? lastClose + 1 - s : 0;
}

function quotedLen(t: string, s: number): number {
  for (let i = s + 1; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 34) return i + 1 - s;
    if (c === BACKSLASH) {
      if (i + 1 >= t.length) return 0;
      i++;
    }
  }
  return 0;
}

const startsAt = (t: string, s: number, lit: string): boolean => t.startsWith(lit, s);

/** Candidate lengths in DEFAULT state, in declaration order (index 0 is the SKIP rule). */
const DEFAULT_RULES: ReadonlyArray<[number, (t: string, s: number) => number]> = [
  [-1, (t, s) => (isWs(t.charCodeAt(s)) ? 1 : 0)],
  [Kind.AND, (t, s) => (startsAt(t, s, 'AND') ? 3 : startsAt(t, s, '&&') ? 2 : 0)],
  [Kind.OR, (t, s) => (startsAt(t, s, 'OR') || startsAt(t, s, '||') ? 2 : 0)],
  [Kind.NOT, (t, s) => (startsAt(t, s, 'NOT') ? 3 : startsAt(t, s, '!') ? 1 : 0)],
  [Kind.PLUS, (t, s) => (t.charCodeAt(s) === 43 ? 1 : 0)],
  [Kind.MINUS, (t, s) => (t.charCodeAt(s) === 45 ? 1 : 0)],
  [
    Kind.BAREOPER,
    (t, s) => {
      const c = t.charCodeAt(s);
      return (c === 43 || c === 45 || c === 33) && isWs(t.charCodeAt(s + 1)) ? 2 : 0;
    },
  ],
  [Kind.LPAREN, (t, s) => (t.charCodeAt(s) === 40 ? 1 : 0)],
  [Kind.RPAREN, (t, s) => (t.charCodeAt(s) === 41 ? 1 : 0)],
  [Kind.COLON, (t, s) => (t.charCodeAt(s) === 58 ? 1 : 0)],
  [Kind.STAR, (t, s) => (t.charCodeAt(s) === 42 ? 1 : 0)],
  [Kind.CARAT, (t, s) => (t.charCodeAt(s) === 94 ? 1 : 0)],
  [Kind.QUOTED, (t, s) => (t.charCodeAt(s) === 34 ? quotedLen(t, s) : 0)],
  [
    Kind.TERM,
    (t, s) => {
      const e = termStartEnd(t, s);
      return e < 0 ? 0 : termRunEnd(t, e, false) - s;
    },
  ],
  // FUZZY_SLOP: "~" followed by term chars (its digit alternative is a subset of those)
  [Kind.FUZZY_SLOP, (t, s) => (t.charCodeAt(s) === 126 ? termRunEnd(t, s + 1, false) - s : 0)],
  [
    Kind.PREFIXTERM,
    (t, s) => {
      const star = t.charCodeAt(s) === 42 ? 1 : 0;
      const e = termStartEnd(t, s);
      if (e < 0) return star;
      const r = termRunEnd(t, e, false);
      return t.charCodeAt(r) === 42 ? r + 1 - s : star;
    },
  ],
  [
    Kind.WILDTERM,
    (t, s) => {
      const c = t.charCodeAt(s);
      const e = c === 42 || c === 63 ? s + 1 : termStartEnd(t, s);
      return e < 0 ? 0 : termRunEnd(t, e, true) - s;
    },
  ],
  [Kind.REGEXPTERM, (t, s) => (t.charCodeAt(s) === 47 ? delimitedLen(t, s, 47, false) : 0)],
  [Kind.RANGEIN_START, (t, s) => (t.charCodeAt(s) === 91 ? 1 : 0)],
  [Kind.RANGEEX_START, (t, s) => (t.charCodeAt(s) === 123 ? 1 : 0)],
];

const BOOST_RULES: ReadonlyArray<[number, (t: string, s: number) => number]> = [
  [
    Kind.NUMBER,
    (t, s) => {
      let i = s;
      while (isDigit(t.charCodeAt(i))) i++;
      if (i === s) return 0;
      if (t.charCodeAt(i) === 46 && isDigit(t.charCodeAt(i + 1))) {
        i += 2;
        while (isDigit(t.charCodeAt(i))) i++;
      }
      return i - s;
    },
  ],
];

const RANGE_RULES: ReadonlyArray<[number, (t: string, s: number) => number]> = [
  [-1, (t, s) => (isWs(t.charCodeAt(s)) ? 1 : 0)],
  [Kind.RANGE_TO, (t, s) => (startsAt(t, s, 'TO') ? 2 : 0)],
  [Kind.RANGEIN_END, (t, s) => (t.charCodeAt(s) === 93 ? 1 : 0)],
  [Kind.RANGEEX_END, (t, s) => (t.charCodeAt(s) === 125 ? 1 : 0)],
  [Kind.RANGE_QUOTED, (t, s) => (t.charCodeAt(s) === 34 ? delimitedLen(t, s, 34, true) : 0)],
  [
    Kind.RANGE_GOOP,
    (t, s) => {
      let i = s;
      for (; i < t.length; i++) {
        const c = t.charCodeAt(i);
        if (c === 32 || c === 93 || c === 125) break;
      }
      return i - s;
    },
  ],
];

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

type Rule = readonly [number, (t: string, s: number) => number];

/** Which DEFAULT rules can match from a given first character (declaration order kept). */
const DEFAULT_FIRST: ReadonlyArray<(c: number) => boolean> = (() => {
  const one = (chars: string) => (c: number) => chars.includes(String.fromCharCode(c));
  const termish = (c: number) => c === BACKSLASH || isTermStart(c);
  return [
    isWs,
    one('A&'),
    one('O|'),
    one('N!'),
    one('+'),
    one('-'),
    one('+-!'),
    one('('),
    one(')'),
    one(':'),
    one('*'),
    one('^'),
    one('"'),
    termish,
    one('~'),
    (c) => c === 42 || termish(c),
    (c) => c === 42 || c === 63 || termish(c),
    one('/'),
    one('['),
    one('{'),
  ];
})();

/** DEFAULT rules by ASCII first char; index 128 serves every non-ASCII char but U+3000. */
const DEFAULT_BY_FIRST: ReadonlyArray<readonly Rule[]> = Array.from({ length: 129 }, (_, c) =>
  DEFAULT_RULES.filter((_, i) => DEFAULT_FIRST[i]!(c === 128 ? 0x4e00 : c)),
);
const WS_ONLY: readonly Rule[] = [DEFAULT_RULES[0]!];

function defaultRules(c: number): readonly Rule[] {
  if (c < 128) return DEFAULT_BY_FIRST[c]!;
  return c === 0x3000 ? WS_ONLY : DEFAULT_BY_FIRST[128]!;
}

/**
 * How many characters from `s` JavaCC's automaton stays alive for when no token matches
 * (its `curPos`): unterminated quotes and regexps run to the end, a trailing `\` is one char,
 * anything else dies on its first char.
 */
function viablePrefix(t: string, s: number, state: State): number {
  if (state !== State.Default) return 0;
  const c = t.charCodeAt(s);
  if (c === 34 || c === 47) return t.length - s;
  if (c === BACKSLASH) return 1;
  return 0;
}

/** `TokenMgrError.addEscapes` / `ParseException.add_escapes`. */
export function javaccEscape(str: string): string {
  let out = '';
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    switch (ch) {
      case 0:
        continue;
      case 8:
        out += '\\b';
        continue;
      case 9:
        out += '\\t';
        continue;
      case 10:
        out += '\\n';
        continue;
      case 12:
        out += '\\f';
        continue;
      case 13:
        out += '\\r';
        continue;
      case 34:
        out += '\\"';
        continue;
      case 39:
        out += "\\'";
        continue;
      case 92:
        out += '\\\\';
        continue;
      default:
        if (ch < 0x20 || ch > 0x7e) out += '\\u' + ch.toString(16).padStart(4, '0');
        else out += str[i];
    }
  }
  return out;
}

/** JavaCC's error path in `getNextToken` (columns are FastCharStream's 0-based offsets). */
function lexicalError(t: string, s: number, m: number): LexicalError {
  const n = t.length;
  let line = 1;
  let column: number;
  let eof: boolean;
  let after: string;
  let curChar: number;
  if (s + m >= n) {
    // alive until end of input: JavaCC saw EOF while still matching
    eof = true;
    curChar = t.charCodeAt(n - 1);
    after = m <= 1 ? '' : t.slice(s, n);
    column = n;
  } else {
    const end = s + m + 1; // the dead char has been read
    curChar = t.charCodeAt(s + m);
    column = end;
    eof = end >= n;
    after = m <= 1 ? '' : eof ? t.slice(s, end) : t.slice(s, s + m);
  }
  if (eof) {
    if (curChar === 10 || curChar === 13) {
      line++;
      column = 0;
    } else column++;
  }
  const encountered = eof
    ? '<EOF> '
    : `"${javaccEscape(String.fromCharCode(curChar))}" (${curChar}), `;
  return {
    offset: s,
    message: `Lexical error at line ${line}, column ${column}.  Encountered: ${encountered}after : "${javaccEscape(after)}"`,
  };
}

function make(type: TokenType, image: string, start: number): IToken {
  return createTokenInstance(type, image, start, start + image.length - 1, 1, 1, start, start);
}

/** Tokenizes the whole text; stops at the first lexical error (a `LexError` token marks it). */
export function tokenize(text: string): LexResult {
  const tokens: IToken[] = [];
  let state = State.Default;
  let s = 0;
  const n = text.length;
  while (s < n) {
    const rules =
      state === State.Default
        ? defaultRules(text.charCodeAt(s))
        : state === State.Boost
          ? BOOST_RULES
          : RANGE_RULES;
    let best = -2;
    let bestLen = 0;
    for (const [kind, len] of rules) {
      const l = len(text, s);
      if (l > bestLen) {
        bestLen = l;
        best = kind;
      }
    }
    if (bestLen === 0) {
      tokens.push(make(LexError, '', s));
      return { tokens, error: lexicalError(text, s, viablePrefix(text, s, state)) };
    }
    if (best >= 0) {
      tokens.push(make(typeOfKind(best), text.slice(s, s + bestLen), s));
      if (best === Kind.CARAT) state = State.Boost;
      else if (best === Kind.NUMBER) state = State.Default;
      else if (best === Kind.RANGEIN_START || best === Kind.RANGEEX_START) state = State.Range;
      else if (best === Kind.RANGEIN_END || best === Kind.RANGEEX_END) state = State.Default;
    }
    s += bestLen;
  }
  return { tokens, error: null };
}
