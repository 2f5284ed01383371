/**
 * Intersection of a prefix automaton with a sorted term list (the stand-in for Lucene's
 * FSTUtil.intersectPrefixPaths over the suggester's FST). Each term's key is its text up to
 * `end` (a separator); the walk steps the automaton along a key, keeping the states of the
 * current path, so the next term resumes after the prefix it shares with the last one. A prefix
 * the automaton accepts matches every term under it at once, and a prefix it rejects skips
 * every term under it: both are a binary search to the prefix's successor, so the work follows
 * the live paths rather than the number of terms.
 */
import type { PrefixAutomaton } from './prefix-automata.js';

export interface PrefixMatch {
  /** Terms [from, to) match. */
  readonly from: number;
  readonly to: number;
  /** The automaton's boost for the accepted prefix. */
  readonly boost: number;
}

/** First index in `terms` at or after `from` not below `key` (JS string order). */
function seekFrom(terms: readonly string[], key: string, from: number): number {
  let lo = from;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index past every term starting with `prefix`. */
function pastPrefix(terms: readonly string[], prefix: string, from: number): number {
  let end = prefix.length;
  while (end > 0 && prefix.charCodeAt(end - 1) === 0xffff) end--;
  if (end === 0) return terms.length;
  const next = prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1);
  return seekFrom(terms, next, from);
}

/** The terms starting with `prefix`, as a range. */
export function prefixRange(terms: readonly string[], prefix: string, boost = 0): PrefixMatch {
  const from = seekFrom(terms, prefix, 0);
  return { from, to: prefix === '' ? terms.length : pastPrefix(terms, prefix, from), boost };
}

/**
 * The ranges of `terms` (sorted, from `from`) whose key, the text before the first `sep`, has a
 * prefix `a` accepts, in term order.
 */
export function walkPrefixes<S>(
  terms: readonly string[],
  a: PrefixAutomaton<S>,
  sep = '\u0000',
  from = 0,
): PrefixMatch[] {
  const out: PrefixMatch[] = [];
  const startBoost = a.accept(a.start);
  if (startBoost >= 0) {
    if (from < terms.length) out.push({ from, to: terms.length, boost: startBoost });
    return out;
  }
  // the current path: states[d] after the first offsets[d] UTF-16 units of `path`
  const states: S[] = [a.start];
  const offsets: number[] = [0];
  let path = '';
  let i = from;
  while (i < terms.length) {
    const term = terms[i]!;
    let keyEnd = term.indexOf(sep);
    if (keyEnd < 0) keyEnd = term.length;
    // resume after the prefix shared with the last path
    const limit = Math.min(offsets[offsets.length - 1]!, keyEnd);
    let common = 0;
    while (common < limit && term.charCodeAt(common) === path.charCodeAt(common)) common++;
    while (offsets[offsets.length - 1]! > common) {
      offsets.pop();
      states.pop();
    }
    path = term;
    let pos = offsets[offsets.length - 1]!;
    let s: S = states[states.length - 1] as S;
    let next = -1;
    while (next < 0) {
      if (pos >= keyEnd) {
        // the key ended before the automaton accepted: skip the terms with this exact key
        next = seekFrom(terms, term.slice(0, keyEnd) + String.fromCharCode(sep.charCodeAt(0) + 1), i + 1); // prettier-ignore
        break;
      }
      const cp = term.codePointAt(pos)!;
      const width = cp > 0xffff ? 2 : 1;
      const t = a.step(s, cp);
      if (t === null) {
        next = pastPrefix(terms, term.slice(0, pos + width), i + 1);
        break;
      }
      pos += width;
      s = t;
      states.push(t);
      offsets.push(pos);
      const boost = a.accept(t);
      if (boost >= 0) {
        next = pastPrefix(terms, term.slice(0, pos), i + 1);
        out.push({ from: i, to: next, boost });
      }
    }
    i = Math.max(next, i + 1);
  }
  return out;
}
