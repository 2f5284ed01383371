/**
 * Tokenizer for the Painless subset (PainlessLexer.g4): numbers with Java suffixes, strings in
 * single or double quotes (only `\\` and the quote may be escaped, as in Painless), identifiers,
 * keywords and operators. Errors carry the source offset for the `script_stack` snippet.
 */
import { ScriptCompileError } from './errors.js';

export type TokenKind = 'num' | 'str' | 'id' | 'kw' | 'op' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** Source text (string literals: the decoded value). */
  readonly text: string;
  readonly start: number;
  /** Numbers: the Java type of the literal. */
  readonly numType?: 'int' | 'long' | 'float' | 'double';
  readonly value?: number;
  /** Source text when it differs from `text` (string literals keep their quotes here). */
  readonly raw?: string;
}

const KEYWORDS = new Set([
  'if',
  'else',
  'while',
  'do',
  'for',
  'in',
  'continue',
  'break',
  'return',
  'new',
  'try',
  'catch',
  'throw',
  'this',
  'instanceof',
  'true',
  'false',
  'null',
]);

// Longest first so that `>>>=` wins over `>>>` and `>`.
const OPERATORS = [
  '>>>=',
  '===',
  '!==',
  '>>>',
  '<<=',
  '>>=',
  '?.',
  '?:',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '->',
  '::',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '=',
  '!',
  '~',
  '&',
  '|',
  '^',
  '?',
  ':',
  '.',
  ',',
  ';',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
];

const isIdStart = (c: string) => /[A-Za-z_]/.test(c);
const isIdPart = (c: string) => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      const tok = readNumber(src, i);
      out.push(tok);
      i += tok.text.length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let val = '';
      for (;;) {
        if (j >= n) throw badChar(src, start);
        const d = src[j]!;
        if (d === c) break;
        if (d === '\\') {
          const e = src[j + 1];
          if (e === '\\' || e === c) {
            val += e;
            j += 2;
            continue;
          }
          throw badChar(src, start, j + 2);
        }
        val += d;
        j++;
      }
      out.push({ kind: 'str', text: val, start, raw: src.slice(start, j + 1) });
      i = j + 1;
      continue;
    }
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(src[j]!)) j++;
      const word = src.slice(i, j);
      out.push({ kind: KEYWORDS.has(word) ? 'kw' : 'id', text: word, start });
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw badChar(src, start, start + 1);
    out.push({ kind: 'op', text: op, start });
    i += op.length;
  }
  out.push({ kind: 'eof', text: '<EOF>', start: n });
  return out;
}

function readNumber(src: string, i: number): Token {
  const start = i;
  const rest = src.slice(i);
  const hex = /^0[xX][0-9a-fA-F]+[lL]?/.exec(rest);
  if (hex) {
    const t = hex[0];
    const isLong = /[lL]$/.test(t);
    return {
      kind: 'num',
      text: t,
      start,
      numType: isLong ? 'long' : 'int',
      value: parseInt(t.replace(/[lL]$/, '').slice(2), 16),
    };
  }
  const m = /^(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[lLfFdD]?/.exec(rest)!;
  const t = m[0];
  const suffix = /[lLfFdD]$/.test(t) ? t[t.length - 1]!.toLowerCase() : '';
  const body = suffix ? t.slice(0, -1) : t;
  const isDecimal = /[.eE]/.test(body);
  let numType: Token['numType'];
  if (suffix === 'l') numType = 'long';
  else if (suffix === 'f') numType = 'float';
  else if (suffix === 'd' || isDecimal) numType = 'double';
  else numType = 'int';
  // Java octal literals: a leading 0 followed by digits.
  let value = !isDecimal && body.length > 1 && body[0] === '0' ? parseInt(body, 8) : Number(body);
  if (numType === 'float') value = Math.fround(value);
  return { kind: 'num', text: t, start, numType, value };
}

function badChar(src: string, start: number, end = start + 1): ScriptCompileError {
  const text = src.slice(start, Math.min(end, src.length));
  let msg = `unexpected character [${text}].`;
  const first = text[0];
  if ((first === "'" || first === '"') && text.length > 2 && text[text.length - 2] === '\\') {
    msg += ` The only valid escape sequences in strings starting with [${first}] are [\\\\] and [\\${first}].`;
  }
  return new ScriptCompileError(msg, start);
}
