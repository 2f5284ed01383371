/**
 * Percent-decoding of path segments as ES RestUtils.decodeComponent does it: `%%` is a literal
 * `%`, bytes decode as UTF-8 (malformed sequences become U+FFFD instead of failing), and a bad
 * escape is an illegal_argument_exception with ES's wording. ES also reads `+` as a space.
 */
import { EsError } from '../common/errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: false });

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

const bad = (reason: string) => new EsError('illegal_argument_exception', reason, 400);

export function decodeComponent(s: string): string {
  if (s.indexOf('%') < 0 && s.indexOf('+') < 0) return s;
  const bytes: number[] = [];
  const text = Buffer.from(s, 'utf8');
  // work on the UTF-8 bytes of `s` so non-ASCII characters pass through unchanged
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === 43) bytes.push(32);
    else if (c !== 37) bytes.push(c);
    else {
      if (i === text.length - 1) throw bad(`unterminated escape sequence at end of string: ${s}`);
      const c1 = text[++i]!;
      if (c1 === 37) {
        bytes.push(37);
        continue;
      }
      if (i === text.length - 1) throw bad(`partial escape sequence at end of string: ${s}`);
      const c2 = text[++i]!;
      const hi = nibble(c1);
      const lo = nibble(c2);
      if (hi < 0 || lo < 0) {
        const esc = String.fromCharCode(c1) + String.fromCharCode(c2);
        throw bad(`invalid escape sequence \`%${esc}' at index ${i - 2} of: ${s}`);
      }
      bytes.push(hi * 16 + lo);
    }
  }
  return utf8.decode(Uint8Array.from(bytes));
}
