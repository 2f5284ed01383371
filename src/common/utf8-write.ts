/**
 * UTF-8 encoding of short strings (ids, field names, keyword values) into a buffer. Short ASCII
 * strings are copied by a plain loop: Buffer#write and Buffer.byteLength each cross into C++,
 * which costs more than the copy itself for the few dozen bytes of an id. Other strings take
 * Buffer#write.
 */

/** Longest string the loop copies; past it Buffer#write is cheaper than the loop. */
const LOOP_MAX = 64;

/**
 * Writes `s` as UTF-8 at `at` and returns the bytes written. The caller leaves room for
 * `s.length * 3` bytes (the most one UTF-16 unit takes).
 */
export function writeUtf8(buf: Buffer, s: string, at: number): number {
  const n = s.length;
  if (n <= LOOP_MAX) {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[at + i] = c;
    }
    if (i === n) return n;
    // not ASCII: the rest is encoded natively after the ASCII run already copied
    return i + buf.write(s.slice(i), at + i, 'utf8');
  }
  return buf.write(s, at, 'utf8');
}

/** The UTF-8 byte length of `s`. */
export function utf8Length(s: string): number {
  const n = s.length;
  if (n <= LOOP_MAX) {
    let i = 0;
    while (i < n && s.charCodeAt(i) < 0x80) i++;
    if (i === n) return n;
  }
  return Buffer.byteLength(s, 'utf8');
}
