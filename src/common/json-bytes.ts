/**
 * Request bodies from bytes to JSON text as ES 6.8's JSON parser (Jackson 2.8's
 * UTF8StreamJsonParser) reads them: a leading UTF-8 byte order mark is skipped
 * (ByteSourceJsonBootstrapper), a byte that cannot start or continue a UTF-8 sequence inside a
 * string or key is a `json_parse_exception`, and sequences are decoded by their lead byte alone
 * (overlong forms and encoded surrogates are accepted, as Jackson accepts them).
 */
import { isUtf8 } from 'node:buffer';
import { jsonLocation } from './json-location.js';
import { jsonParse } from './errors.js';

/** True when `bytes[from..to)` starts with the UTF-8 byte order mark. */
export const hasBom = (bytes: Buffer, from = 0, to = bytes.length): boolean =>
  to - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf;

/** The JSON text of `bytes[from..to)`; throws Jackson's UTF-8 errors (see the module doc). */
export function decodeJson(bytes: Buffer, from = 0, to = bytes.length): string {
  if (hasBom(bytes, from, to)) from += 3;
  const whole = from === 0 && to === bytes.length;
  if (whole ? isUtf8(bytes) : isUtf8(bytes.subarray(from, to))) return bytes.toString('utf8', from, to); // prettier-ignore
  return decodeLeniently(bytes, from, to);
}

/** Jackson's `_reportInvalidInitial` / `_reportInvalidOther`, located after the bad byte. */
function invalid(bytes: Buffer, from: number, at: number, what: 'start' | 'middle'): never {
  const hex = bytes[at]!.toString(16);
  throw jsonParse(`Invalid UTF-8 ${what} byte 0x${hex}\n at ${jsonLocation(bytes, from, at + 1)}`);
}

/** Chars Jackson decodes inside a string that JSON text must escape to keep them there. */
function inStringChar(c: number): string {
  if (c === 0x22) return '\\"';
  if (c === 0x5c) return '\\\\';
  if (c < 0x20) return `\\u${c.toString(16).padStart(4, '0')}`;
  return String.fromCharCode(c);
}

/**
 * The slow path, for bodies that are not valid UTF-8. Outside strings every byte from 0x80 up
 * is a syntax error for Jackson; it is kept as the Latin-1 character of that byte (what Jackson
 * names in its `Unexpected character` message) for the JSON parser to reject.
 */
function decodeLeniently(bytes: Buffer, from: number, to: number): string {
  let out = '';
  let plain = from; // start of the run of bytes copied as they are
  let inString = false;
  const flush = (end: number) => {
    if (end > plain) out += bytes.toString('latin1', plain, end);
  };
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0x22) inString = !inString;
      else if (b === 0x5c && inString) i++; // the escaped byte is part of the escape
      continue;
    }
    flush(i);
    if (!inString) {
      out += String.fromCharCode(b);
      plain = i + 1;
      continue;
    }
    // Jackson's CharTypes: 110xxxxx, 1110xxxx and 11110xxx lead 2-, 3- and 4-byte sequences
    const need = (b & 0xe0) === 0xc0 ? 1 : (b & 0xf0) === 0xe0 ? 2 : (b & 0xf8) === 0xf0 ? 3 : 0;
    if (need === 0) invalid(bytes, from, i, 'start');
    let c = need === 1 ? b & 0x1f : need === 2 ? b & 0x0f : b & 0x07;
    let k = 1;
    for (; k <= need && i + k < to; k++) {
      const d = bytes[i + k]!;
      if ((d & 0xc0) !== 0x80) invalid(bytes, from, i + k, 'middle');
      c = (c << 6) | (d & 0x3f);
    }
    if (k <= need) {
      // cut short by the end of the input: the string is unterminated, as the parser will say
      plain = to;
      break;
    }
    if (need === 3) {
      const v = c - 0x10000;
      out += String.fromCharCode((0xd800 | (v >> 10)) & 0xffff, 0xdc00 | (v & 0x3ff));
    } else out += inStringChar(c);
    i += need;
    plain = i + 1;
  }
  flush(to);
  return out;
}
