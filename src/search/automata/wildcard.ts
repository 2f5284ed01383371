/**
 * Lucene `WildcardQuery` matching for term dictionaries: `*` any string, `?` any single code
 * point, `\` escapes the next code point (a trailing `\` is literal). The literal prefix lets
 * callers seek in a sorted dictionary. Segments between `*`s are matched left to right (greedy
 * leftmost placement is exact for glob patterns), with fast paths for plain and prefix patterns.
 */
import { CodePointBuffer, fromCodePoints } from './code-points.js';

export interface TermMatcher {
  /** Every matching term starts with this (seek here in a sorted dictionary). */
  readonly prefix: string;
  test(term: string): boolean;
}

const ANY = -1; // `?`

/** Compiles a WildcardQuery pattern (`WildcardQuery.toAutomaton` syntax). */
export function wildcardMatcher(pattern: string): TermMatcher {
  // segments of code points (ANY for `?`) separated by `*`
  const segments: number[][] = [[]];
  let hasWildcard = false;
  for (let i = 0; i < pattern.length;) {
    const c = pattern.codePointAt(i)!;
    let len = c > 0xffff ? 2 : 1;
    let item: number | null = c;
    if (c === 42) {
      segments.push([]);
      hasWildcard = true;
      item = null;
    } else if (c === 63) {
      item = ANY;
      hasWildcard = true;
    } else if (c === 92 && i + len < pattern.length) {
      item = pattern.codePointAt(i + len)!;
      len += item > 0xffff ? 2 : 1;
    }
    if (item !== null) segments[segments.length - 1]!.push(item);
    i += len;
  }
  const first = segments[0]!;
  const literalEnd = first.indexOf(ANY);
  const prefix = fromCodePoints(first, 0, literalEnd < 0 ? first.length : literalEnd);

  if (!hasWildcard) return { prefix, test: (t) => t === prefix };
  if (segments.length === 2 && literalEnd < 0 && segments[1]!.length === 0) {
    return { prefix, test: (t) => t.startsWith(prefix) };
  }
  return new GlobMatcher(prefix, segments);
}

class GlobMatcher implements TermMatcher {
  private readonly cps = new CodePointBuffer();
  constructor(
    readonly prefix: string,
    private readonly segments: number[][],
  ) {}

  test(term: string): boolean {
    if (!term.startsWith(this.prefix)) return false;
    const n = this.cps.load(term);
    const t = this.cps.buf;
    const segs = this.segments;
    const first = segs[0]!;
    if (segs.length === 1) return n === first.length && matchAt(t, 0, first);
    const last = segs[segs.length - 1]!;
    if (first.length + last.length > n) return false;
    if (!matchAt(t, 0, first) || !matchAt(t, n - last.length, last)) return false;
    let pos = first.length;
    const end = n - last.length;
    for (let s = 1; s < segs.length - 1; s++) {
      const seg = segs[s]!;
      let found = -1;
      for (let i = pos; i + seg.length <= end; i++) {
        if (matchAt(t, i, seg)) {
          found = i;
          break;
        }
      }
      if (found < 0) return false;
      pos = found + seg.length;
    }
    return true;
  }
}

function matchAt(t: Int32Array, at: number, seg: number[]): boolean {
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c !== ANY && t[at + i] !== c) return false;
  }
  return true;
}
