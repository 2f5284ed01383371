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
  /** Per segment: its text when it has no `?` (native string search applies), else null. */
  private readonly literal: Array<string | null>;
  private readonly hasAny: boolean;
  /** Astral pattern chars: UTF-16 positions and code points differ, use the code point path. */
  private readonly astral: boolean;

  constructor(
    readonly prefix: string,
    private readonly segments: number[][],
  ) {
    this.literal = segments.map((s) => (s.includes(ANY) ? null : String.fromCodePoint(...s)));
    this.hasAny = this.literal.includes(null);
    this.astral = segments.some((s) => s.some((c) => c > 0xffff || (c >= 0xd800 && c <= 0xdfff)));
  }

  test(term: string): boolean {
    if (!term.startsWith(this.prefix)) return false;
    // `?` is one code point: only a surrogate-free term can be matched unit by unit
    if (this.astral || (this.hasAny && hasSurrogate(term))) return this.testCodePoints(term);
    const segs = this.segments;
    const lits = this.literal;
    const n = term.length;
    const first = segs[0]!;
    if (segs.length === 1) return n === first.length && matchUnits(term, 0, first);
    const last = segs[segs.length - 1]!;
    if (first.length + last.length > n) return false;
    if (!matchUnits(term, 0, first) || !matchUnits(term, n - last.length, last)) return false;
    let pos = first.length;
    const end = n - last.length;
    for (let s = 1; s < segs.length - 1; s++) {
      const seg = segs[s]!;
      const lit = lits[s];
      let found = -1;
      if (lit != null) {
        found = term.indexOf(lit, pos);
        if (found + seg.length > end) found = -1;
      } else {
        for (let i = pos; i + seg.length <= end; i++) {
          if (matchUnits(term, i, seg)) {
            found = i;
            break;
          }
        }
      }
      if (found < 0) return false;
      pos = found + seg.length;
    }
    return true;
  }

  private testCodePoints(term: string): boolean {
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

function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdfff) return true;
  }
  return false;
}

function matchUnits(t: string, at: number, seg: number[]): boolean {
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c !== ANY && t.charCodeAt(at + i) !== c) return false;
  }
  return true;
}

function matchAt(t: Int32Array, at: number, seg: number[]): boolean {
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c !== ANY && t[at + i] !== c) return false;
  }
  return true;
}
