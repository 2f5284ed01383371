/**
 * The first problem Jackson 2.8 (ES 6.8's JSON parser, strict duplicate detection on) finds in a
 * JSON text, with its message and where its parser stands: syntax errors in ParserMinimalBase /
 * UTF8StreamJsonParser wording, and `Duplicate field 'name'` (JsonReadContext). Only run once
 * JSON.parse has failed, or once `hasDuplicateKeys` says a parsed text has a repeated key.
 * Comments are white space, as ES enables Jackson's ALLOW_COMMENTS (`blankComments`).
 */

export interface JsonProblem {
  /** The parser's position: just after the character it read last. */
  at: number;
  message: string;
  /** A JsonEOFException (`json_e_o_f_exception`) rather than a JsonParseException. */
  eof: boolean;
}

/** ParserMinimalBase._getCharDesc. */
export function charDesc(c: number): string {
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return `(CTRL-CHAR, code ${c})`;
  const ch = String.fromCharCode(c);
  return c > 255 ? `'${ch}' (code ${c} / 0x${c.toString(16)})` : `'${ch}' (code ${c})`;
}

const IDENT_START = /[\p{L}\p{Nl}\p{Sc}\p{Pc}]/u;
const IDENT_PART =
  /[\p{L}\p{Nl}\p{Sc}\p{Pc}\p{Nd}\p{Mn}\p{Mc}\u0000-\u0008\u000e-\u001b\u007f-\u009f]/u;
const VALID = "expected a valid value (number, String, array, object, 'true', 'false' or 'null')";
const LITERAL = "'null', 'true', 'false' or NaN";
const MINUS = 'expected digit (0-9) to follow minus sign, for valid numeric value';
const nonStandard = (t: string) =>
  `Non-standard token '${t}': enable JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS to allow`;

interface Container {
  array: boolean;
  line: number;
  column: number;
  keys: Set<string> | null;
}

class Problem {
  constructor(readonly p: JsonProblem) {}
}

/** Scans `text`; null when Jackson would read it without complaint. */
export function findJsonProblem(text: string): JsonProblem | null {
  try {
    scan(text);
    return null;
  } catch (e) {
    if (e instanceof Problem) return e.p;
    throw e;
  }
}

function scan(text: string): void {
  const len = text.length;
  const stack: Container[] = [];
  let i = 0;
  let line = 1;
  let rowStart = 0;
  const fail = (at: number, message: string): never => {
    throw new Problem({ at: Math.min(at, len), message, eof: false });
  };
  const eof = (message: string): never => {
    throw new Problem({ at: len, message: `Unexpected end-of-input${message}`, eof: true });
  };
  const where = (c: Container) =>
    `[Source: org.elasticsearch.common.bytes.BytesReference$MarkSupportStream; line: ${c.line}, column: ${c.column}]`;
  const desc = (c: Container | undefined) => (c ? (c.array ? 'Array' : 'Object') : 'root');
  /** Skips white space; the code of the next character, or -1 at the end. */
  const ws = (): number => {
    for (; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
      if (c === 0x0a) {
        line++;
        rowStart = i + 1;
        continue;
      }
      if (c < 0x20)
        fail(i + 1, `Illegal character (${charDesc(c)}): only regular white space (\\r, \\n, \\t) is allowed between tokens`); // prettier-ignore
      if (c !== 0x2f) return c;
      i = comment() - 1;
    }
    return -1;
  };
  /** A comment from the slash at i (ES turns ALLOW_COMMENTS on); the index just after it. */
  const comment = (): number => {
    if (i + 1 >= len) eof(' in a comment');
    const kind = text.charCodeAt(i + 1);
    if (kind === 0x2f) {
      let j = i + 2;
      while (j < len && text.charCodeAt(j) !== 0x0a && text.charCodeAt(j) !== 0x0d) j++;
      return j;
    }
    if (kind !== 0x2a)
      fail(i + 2, `Unexpected character (${charDesc(kind)}): was expecting either '*' or '/' for a comment`); // prettier-ignore
    const end = text.indexOf('*/', i + 2);
    if (end < 0) eof(' in a comment');
    for (let j = text.indexOf('\n', i + 2); j >= 0 && j < end; j = text.indexOf('\n', j + 1)) {
      line++;
      rowStart = j + 1;
    }
    return end + 2;
  };
  /** The identifier-like token at `from` (Jackson's _reportInvalidToken heuristic). */
  const token = (from: number, first: number): [string, number] => {
    let j = from + first;
    while (j < len && j - from < 256 && IDENT_PART.test(text[j]!)) j++;
    return [text.slice(from, j) + (j - from >= 256 ? '...' : ''), j < len ? j + 1 : len];
  };
  /** A string from the quote at i; returns its content (escapes resolved only for keys). */
  const string = (name: boolean): string => {
    let j = i + 1;
    let out = '';
    let plain = j;
    for (;;) {
      if (j >= len) eof(name ? `: was expecting closing '"' for name` : ' in VALUE_STRING');
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c < 0x20)
        fail(j + 1, `Illegal unquoted character (${charDesc(c)}): has to be escaped using backslash to be included in ${name ? 'name' : 'string value'}`); // prettier-ignore
      if (c !== 0x5c) {
        j++;
        continue;
      }
      out += text.slice(plain, j);
      if (j + 1 >= len) eof(' in character escape sequence');
      const e = text[j + 1]!;
      const simple = '"\\/bfnrt'.indexOf(e);
      if (simple >= 0) {
        out += '"\\/\b\f\n\r\t'[simple];
        j += 2;
      } else if (e === 'u') {
        for (let k = 2; k < 6; k++) {
          if (j + k >= len) eof(' in character escape sequence');
          if (!/[0-9a-fA-F]/.test(text[j + k]!))
            fail(j + k + 1, `Unexpected character (${charDesc(text.charCodeAt(j + k))}): expected a hex-digit for character escape sequence`); // prettier-ignore
        }
        out += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
        j += 6;
      } else fail(j + 2, `Unrecognized character escape ${charDesc(e.charCodeAt(0))}`);
      plain = j;
    }
    out += text.slice(plain, j);
    i = j + 1;
    return out;
  };
  const number = (): void => {
    let j = i;
    if (text[j] === '-') {
      j++;
      if (j >= len) eof(' in a Number value');
      if (text.startsWith('Infinity', j)) fail(j + 8, nonStandard('-Infinity'));
      if (!/[0-9]/.test(text[j]!)) fail(j + 1, `Unexpected character (${charDesc(text.charCodeAt(j))}) in numeric value: ${MINUS}`); // prettier-ignore
    }
    if (text[j] === '0' && /[0-9]/.test(text[j + 1] ?? '')) fail(j + 1, 'Invalid numeric value: Leading zeroes not allowed'); // prettier-ignore
    while (/[0-9]/.test(text[j] ?? '')) j++;
    for (const [mark, what] of [
      ['.', 'Decimal point'],
      ['eE', 'Exponent indicator'],
    ] as const) {
      if (j >= len || !mark.includes(text[j]!)) continue;
      j++;
      if (mark !== '.' && (text[j] === '+' || text[j] === '-')) j++;
      if (j >= len) eof(' in a Number value');
      if (!/[0-9]/.test(text[j]!)) fail(j + 1, `Unexpected character (${charDesc(text.charCodeAt(j))}) in numeric value: ${what} not followed by a digit`); // prettier-ignore
      while (/[0-9]/.test(text[j] ?? '')) j++;
    }
    i = j;
  };
  /** One value starting with character code c at i (containers are opened, not read). */
  const value = (c: number): void => {
    const top = stack[stack.length - 1];
    if (c === 0x22) return void string(false);
    if (c === 0x7b || c === 0x5b) {
      stack.push({ array: c === 0x5b, line, column: i - rowStart + 1, keys: c === 0x7b ? new Set() : null }); // prettier-ignore
      i++;
      return;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number();
    for (const word of ['true', 'false', 'null', 'NaN', 'Infinity']) {
      if (c !== word.charCodeAt(0)) continue;
      const [t, at] = token(i, 1);
      if (t === word && (word === 'NaN' || word === 'Infinity')) fail(i + t.length, nonStandard(t));
      if (t !== word) fail(at, `Unrecognized token '${t}': was expecting ${LITERAL}`);
      i += word.length;
      return;
    }
    if (c === 0x2b) {
      if (i + 1 >= len) eof(' in a Number value');
      fail(i + 2, `Unexpected character (${charDesc(text.charCodeAt(i + 1))}) in numeric value: ${MINUS}`); // prettier-ignore
    }
    if (c === 0x5d || c === 0x7d || c === 0x2c) {
      if (c !== 0x5d || top?.array) fail(i + 1, `Unexpected character (${charDesc(c)}): expected a value`); // prettier-ignore
    }
    if (IDENT_START.test(text[i]!)) {
      const [t, at] = token(i, 1);
      fail(at, `Unrecognized token '${t}': was expecting ('true', 'false' or 'null')`);
    }
    fail(i + 1, `Unexpected character (${charDesc(c)}): ${VALID}`);
  };

  let first = true; // just after an opening marker (or at the start)
  let done = false; // the root value is complete
  for (;;) {
    let c = ws();
    const top = stack[stack.length - 1];
    if (c < 0) {
      if (top) eof(`: expected close marker for ${desc(top)} (start marker at ${where(top)})`);
      if (!done) eof('');
      return;
    }
    if (done && !top) fail(i + 1, `Unexpected character (${charDesc(c)}): expected end-of-input`);
    // ES closes a scope before it looks for a comma (UTF8StreamJsonParser.nextToken)
    if (c === 0x5d || c === 0x7d) {
      const array = c === 0x5d;
      if (!top || top.array !== array) {
        const root: Container = { array: false, line: 1, column: 0, keys: null };
        fail(i + 1, `Unexpected close marker '${text[i]}': expected '${array ? '}' : ']'}' (for ${desc(top)} starting at ${where(top ?? root)})`); // prettier-ignore
      }
      stack.pop();
      i++;
      first = false;
      done = stack.length === 0;
      continue;
    }
    if (top && !first) {
      if (c !== 0x2c) fail(i + 1, `Unexpected character (${charDesc(c)}): was expecting comma to separate ${desc(top)} entries`); // prettier-ignore
      i++;
      c = ws();
      if (c < 0) eof(` within/between ${desc(top)} entries`);
    }
    first = false;
    if (top && !top.array) {
      if (c !== 0x22) fail(i + 1, `Unexpected character (${charDesc(c)}): was expecting double-quote to start field name`); // prettier-ignore
      const key = string(true);
      if (top.keys!.has(key)) fail(i, `Duplicate field '${key}'`);
      top.keys!.add(key);
      c = ws();
      if (c < 0) eof(` within/between ${desc(top)} entries`);
      if (c !== 0x3a) fail(i + 1, `Unexpected character (${charDesc(c)}): was expecting a colon to separate field name and value`); // prettier-ignore
      i++;
      c = ws();
      if (c < 0) eof(` within/between ${desc(top)} entries`);
    }
    const depth = stack.length;
    value(c);
    if (stack.length > depth) first = true;
    else done = stack.length === 0;
  }
}

/**
 * Whether a text JSON.parse accepted repeats a key within one object: JSON.parse keeps the last
 * value silently, so the parsed value has fewer keys than the text names. Counts both; cheap
 * next to the parse itself.
 */
export function hasDuplicateKeys(text: string, parsed: unknown): boolean {
  if (parsed === null || typeof parsed !== 'object') return false;
  return countKeysInText(text) !== countKeys(parsed);
}

/** Strings followed by a colon, in text that is valid JSON. */
function countKeysInText(t: string): number {
  let n = 0;
  for (let q = t.indexOf('"'); q >= 0; q = t.indexOf('"', q + 1)) {
    let e = t.indexOf('"', q + 1);
    for (;;) {
      let b = e - 1;
      while (t.charCodeAt(b) === 0x5c) b--;
      if ((e - 1 - b) % 2 === 0) break;
      e = t.indexOf('"', e + 1);
    }
    let j = e + 1;
    let c = t.charCodeAt(j);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = t.charCodeAt(++j);
    if (c === 0x3a) n++;
    q = e;
  }
  return n;
}

function countKeys(v: object): number {
  let n = 0;
  const stack: object[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const y: unknown = x[i];
        if (typeof y === 'object' && y !== null) stack.push(y);
      }
      continue;
    }
    for (const k in x) {
      n++;
      const y: unknown = (x as Record<string, unknown>)[k];
      if (typeof y === 'object' && y !== null) stack.push(y);
    }
  }
  return n;
}

/**
 * `text` with its `/* *\/` and `//` comments overwritten by spaces (line breaks kept), which
 * JSON.parse then reads as Jackson with ALLOW_COMMENTS does. For text `findJsonProblem` accepts.
 */
export function blankComments(text: string): string {
  const len = text.length;
  let out = '';
  let from = 0;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < len && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c !== 0x2f) continue;
    let end: number;
    if (text.charCodeAt(i + 1) === 0x2f) {
      end = i + 2;
      while (end < len && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
    } else {
      end = text.indexOf('*/', i + 2);
      end = end < 0 ? len : end + 2;
    }
    out += text.slice(from, i) + text.slice(i, end).replace(/[^\n\r]/g, ' ');
    from = end;
    i = end - 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
