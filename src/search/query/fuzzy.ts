/**
 * Fuzzy query rewrite as Lucene 7's FuzzyQuery with TopTermsBlendedFreqScoringRewrite: expand to
 * the `maxExpansions` terms closest by edit distance, each boosted by 1 - edits / min(length),
 * scored as a disjunction of term queries sharing the largest docFreq (blended frequencies).
 */
import { boolQuery, type Query } from './query.js';
import type { SearchStats } from './stats.js';
import { FUZZY_CHECK_MASK, type Deadline } from '../deadline.js';

/** Optimal string alignment distance (Damerau with adjacent transpositions), bounded by `max`. */
export function editDistance(
  a: number[],
  b: number[],
  max: number,
  transpositions: boolean,
): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2: Int32Array | null = null;
  let prev = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    const cur = new Int32Array(m + 1);
    cur[0] = i;
    let rowMin = cur[0]!;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (
        transpositions &&
        prev2 &&
        i > 1 &&
        j > 1 &&
        a[i - 1] === b[j - 2] &&
        a[i - 2] === b[j - 1]
      ) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[m]!;
}

const codePoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);

/**
 * The terms of the index within the fuzzy query's edit distance (FuzzyTermsEnum), each with its
 * boost 1 - edits / min(length), best first (ties: the smaller term first).
 */
export function fuzzyCandidates(
  q: Extract<Query, { kind: 'Fuzzy' }>,
  stats: SearchStats,
  dl: Deadline | null = null,
): Array<{ term: string; boost: number }> {
  const target = codePoints(q.term);
  const prefix = String.fromCodePoint(...target.slice(0, q.prefixLength));
  const cands: Array<{ term: string; boost: number }> = [];
  let seen = 0;
  for (const t of stats.terms(q.field)) {
    if (dl !== null && (++seen & FUZZY_CHECK_MASK) === 0) dl.check();
    if (prefix && !t.startsWith(prefix)) continue;
    const cp = codePoints(t);
    const ed = editDistance(target, cp, q.maxEdits, q.transpositions);
    if (ed > q.maxEdits) continue;
    const minLen = Math.min(cp.length, target.length);
    // Lucene 7.7 FuzzyTermsEnum accepts every term within maxEdits, boost 1 - ed / minLen in
    // float math (0 or negative for very short terms)
    const boost = ed === 0 ? 1 : Math.fround(1 - Math.fround(ed / minLen));
    cands.push({ term: t, boost });
  }
  cands.sort((a, b) => b.boost - a.boost || (a.term < b.term ? -1 : 1));
  return cands;
}

export function expandFuzzy(
  q: Extract<Query, { kind: 'Fuzzy' }>,
  stats: SearchStats,
  dl: Deadline | null = null,
): Query {
  const top = fuzzyCandidates(q, stats, dl).slice(0, Math.max(1, q.maxExpansions));
  if (!top.length) return { kind: 'MatchNone' };
  let maxDf = 0;
  let maxTtf = 0;
  for (const c of top) {
    const ts = stats.term(q.field, c.term);
    maxDf = Math.max(maxDf, ts.docFreq);
    maxTtf = Math.max(maxTtf, ts.totalTermFreq);
  }
  const should: Query[] = top.map((c) => ({
    kind: 'Term',
    field: q.field,
    term: c.term,
    boost: c.boost,
    stats: { docFreq: maxDf, totalTermFreq: maxTtf },
  }));
  if (should.length === 1)
    return {
      ...should[0]!,
      boost: Math.fround((should[0] as { boost: number }).boost * q.boost),
    } as Query;
  return boolQuery({ should, boost: q.boost });
}
