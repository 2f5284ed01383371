/**
 * Code point access for term matching: Lucene's automata and edit distances count Unicode code
 * points, not UTF-16 units. A reusable buffer decodes candidate terms without allocating.
 */

/** Code points of `s` (a lone surrogate counts as one, as Java's codePointAt does). */
export function codePoints(s: string): Int32Array {
  const out = new Int32Array(s.length);
  return out.subarray(0, decodeInto(s, out));
}

/** Decodes `s` into `buf` (which must hold `s.length` entries); returns the code point count. */
export function decodeInto(s: string, buf: Int32Array): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    buf[n++] = c;
  }
  return n;
}

/** Number of code points in `s` (Java `String.codePointCount`). */
export function codePointCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** A growable scratch buffer for decoding candidates one after another. */
export class CodePointBuffer {
  buf = new Int32Array(64);

  /** Decodes `s`, growing the buffer when needed; returns the count (data in `this.buf`). */
  load(s: string): number {
    if (s.length > this.buf.length)
      this.buf = new Int32Array(Math.max(s.length, this.buf.length * 2));
    return decodeInto(s, this.buf);
  }
}

export function fromCodePoints(cps: ArrayLike<number>, start = 0, end = cps.length): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCodePoint(cps[i]!);
  return s;
}
