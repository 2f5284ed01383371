/**
 * Brute-force references for the automata property tests: a set-of-end-positions interpreter of
 * the Lucene RegExp tree, a backtracking glob matcher, and a plain full-matrix edit distance
 * (Levenshtein or optimal string alignment). All work on code point arrays.
 */
import type { Re } from '../../../../src/search/automata/regexp-syntax.js';

export const cps = (s: string): number[] => [...s].map((c) => c.codePointAt(0)!);

/** Does `re` match all of `s`? Evaluates every end position reachable from each start. */
export function refRegexp(re: Re, s: string): boolean {
  const t = cps(s);
  const memo = new Map<Re, Map<number, Set<number>>>();
  const ends = (r: Re, i: number): Set<number> => {
    let byStart = memo.get(r);
    if (!byStart) memo.set(r, (byStart = new Map()));
    const hit = byStart.get(i);
    if (hit) return hit;
    const out = new Set<number>();
    byStart.set(i, out);
    const all = (f: (j: number) => boolean) => {
      for (let j = i; j <= t.length; j++) if (f(j)) out.add(j);
    };
    switch (r.t) {
      case 'range':
        if (i < t.length && t[i]! >= r.from && t[i]! <= r.to) out.add(i + 1);
        break;
      case 'any':
        if (i < t.length) out.add(i + 1);
        break;
      case 'none':
        break;
      case 'anyString':
        all(() => true);
        break;
      case 'string':
        if (r.cps.every((c, k) => t[i + k] === c)) out.add(i + r.cps.length);
        break;
      case 'concat':
        for (const j of ends(r.a, i)) for (const k of ends(r.b, j)) out.add(k);
        break;
      case 'union':
        for (const j of ends(r.a, i)) out.add(j);
        for (const j of ends(r.b, i)) out.add(j);
        break;
      case 'inter': {
        const b = ends(r.b, i);
        for (const j of ends(r.a, i)) if (b.has(j)) out.add(j);
        break;
      }
      case 'compl': {
        const a = ends(r.a, i);
        all((j) => !a.has(j));
        break;
      }
      case 'opt':
        out.add(i);
        for (const j of ends(r.a, i)) out.add(j);
        break;
      case 'star':
        repeat(r.a, i, 0, -1, out);
        break;
      case 'repeat':
        repeat(r.a, i, r.min, r.max, out);
        break;
      case 'interval':
        all((j) => {
          const d = t.slice(i, j);
          if (d.length === 0 || d.some((c) => c < 48 || c > 57)) return false;
          if (r.digits > 0 && d.length !== r.digits) return false;
          const v = Number(String.fromCodePoint(...d));
          return v >= r.min && v <= r.max;
        });
        break;
      case 'automaton':
        throw new Error('named automata are not supported');
    }
    return out;
  };
  const step = (a: Re, from: Set<number>): Set<number> => {
    const next = new Set<number>();
    for (const j of from) for (const k of ends(a, j)) next.add(k);
    return next;
  };
  const repeat = (a: Re, i: number, min: number, max: number, out: Set<number>) => {
    if (max >= 0 && min > max) return;
    let frontier = new Set([i]);
    for (let n = 0; n < min; n++) frontier = step(a, frontier);
    if (max < 0) {
      const queue = [...frontier];
      while (queue.length > 0) {
        const j = queue.pop()!;
        if (out.has(j)) continue;
        out.add(j);
        for (const k of ends(a, j)) queue.push(k);
      }
      return;
    }
    for (let n = min; n <= max; n++) {
      for (const j of frontier) out.add(j);
      if (n < max) frontier = step(a, frontier);
    }
  };
  return ends(re, 0).has(t.length);
}

/** Backtracking glob: `*`, `?`, `\` escape (trailing `\` literal). */
export function refWildcard(pattern: string, s: string): boolean {
  const p: Array<number | '*' | '?'> = [];
  const pc = cps(pattern);
  for (let i = 0; i < pc.length; i++) {
    const c = pc[i]!;
    if (c === 42) p.push('*');
    else if (c === 63) p.push('?');
    else if (c === 92 && i + 1 < pc.length) p.push(pc[++i]!);
    else p.push(c);
  }
  const t = cps(s);
  const go = (i: number, j: number): boolean => {
    if (i === p.length) return j === t.length;
    const x = p[i]!;
    if (x === '*') {
      for (let k = j; k <= t.length; k++) if (go(i + 1, k)) return true;
      return false;
    }
    if (j >= t.length) return false;
    return (x === '?' || x === t[j]) && go(i + 1, j + 1);
  };
  return go(0, 0);
}

/** Full-matrix edit distance; with `transpositions`, optimal string alignment. */
export function refDistance(a: number[], b: number[], transpositions: boolean): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++)
    d.push(Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + cost);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/** Lucene fuzzy acceptance: same prefix, suffix within k; returns the distance or -1. */
export function refFuzzy(
  term: string,
  cand: string,
  k: number,
  prefixLength: number,
  tr: boolean,
): number {
  const t = cps(term);
  const c = cps(cand);
  const p = Math.min(prefixLength, t.length);
  if (c.length < p) return -1;
  for (let i = 0; i < p; i++) if (c[i] !== t[i]) return -1;
  const d = refDistance(t.slice(p), c.slice(p), tr);
  return d <= k ? d : -1;
}
