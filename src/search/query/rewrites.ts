/**
 * Queries that Lucene rewrites against the index before scoring, rewritten here against the
 * searcher's statistics: multi-term rewrite methods (scoring_boolean, top_terms_N, ...), ES
 * MultiPhrasePrefixQuery, ES BlendedTermQuery (cross_fields) and Lucene CommonTermsQuery.
 */
import { tooManyClauses } from '../../common/errors.js';
import { seekCeil } from '../index/segment.js';
import { FUZZY_CHECK_MASK, TERMS_CHECK_MASK, type Deadline } from '../deadline.js';
import { editDistance } from './fuzzy.js';
import type { MultiTermRewrite, Query, TermMatcher } from './query.js';
import type { SearchStats } from './stats.js';

const f = Math.fround;

type Extract2<K extends Query['kind']> = Extract<Query, { kind: K }>;

const boolOf = (parts: Partial<Omit<Extract2<'Bool'>, 'kind'>>): Query => ({
  kind: 'Bool',
  must: parts.must ?? [],
  should: parts.should ?? [],
  mustNot: parts.mustNot ?? [],
  filter: parts.filter ?? [],
  minShouldMatch: parts.minShouldMatch ?? 0,
  boost: parts.boost ?? 1,
});

/** Terms of `field` accepted by `matcher`, in dictionary order. */
export function matchingTerms(
  stats: SearchStats,
  field: string,
  matcher: TermMatcher,
  dl: Deadline | null = null,
): string[] {
  const terms = stats.terms(field);
  const out: string[] = [];
  const start = matcher.prefix ? seekCeil(terms, matcher.prefix) : 0;
  for (let i = start; i < terms.length; i++) {
    if (dl !== null && ((i - start) & TERMS_CHECK_MASK) === TERMS_CHECK_MASK) dl.check();
    const t = terms[i]!;
    if (matcher.prefix && !t.startsWith(matcher.prefix)) break;
    if (matcher.test(t)) out.push(t);
  }
  return out;
}

/**
 * Applies a MultiTermQuery rewrite method to candidate terms (with per-term boosts, 1 except for
 * fuzzy terms). `boost` is the multi-term query's own boost.
 */
export function rewriteTerms(
  field: string,
  candidates: ReadonlyArray<{ term: string; boost: number }>,
  rewrite: MultiTermRewrite,
  boost: number,
  stats: SearchStats,
): Query {
  const limit = rewrite.maxClauseCount;
  const termQuery = (term: string, b: number, st?: Extract2<'Term'>['stats']): Query =>
    st
      ? { kind: 'Term', field, term, boost: b, stats: st }
      : { kind: 'Term', field, term, boost: b };
  switch (rewrite.method) {
    case 'constant_score':
    case 'constant_score_boolean': {
      if (rewrite.method === 'constant_score_boolean' && candidates.length > limit) {
        throw tooManyClauses(limit);
      }
      const should = candidates.map((c) => termQuery(c.term, 1));
      return { kind: 'ConstantScore', inner: boolOf({ should }), boost };
    }
    case 'scoring_boolean': {
      if (candidates.length > limit) throw tooManyClauses(limit);
      return boolOf({ should: candidates.map((c) => termQuery(c.term, c.boost)), boost });
    }
    default: {
      // TopTermsRewrite: the best `size` terms by boost, ties to the smaller term
      const size = Math.min(rewrite.size ?? limit, limit);
      const top = [...candidates]
        .sort((a, b) => b.boost - a.boost || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
        .slice(0, size)
        .sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
      if (rewrite.method === 'top_terms') {
        return boolOf({ should: top.map((c) => termQuery(c.term, c.boost)), boost });
      }
      if (rewrite.method === 'top_terms_boost') {
        return boolOf({
          should: top.map((c) => ({
            kind: 'ConstantScore',
            inner: termQuery(c.term, 1),
            boost: c.boost,
          })),
          boost,
        });
      }
      // top_terms_blended_freqs: every term scored with the largest df / ttf
      let df = 0;
      let ttf = 0;
      for (const c of top) {
        const ts = stats.term(field, c.term);
        df = Math.max(df, ts.docFreq);
        ttf = Math.max(ttf, ts.totalTermFreq);
      }
      return boolOf({
        should: top.map((c) => termQuery(c.term, c.boost, { docFreq: df, totalTermFreq: ttf })),
        boost,
      });
    }
  }
}

/** ES MultiPhrasePrefixQuery.rewrite (then Lucene MultiPhraseQuery.rewrite). */
export function rewritePhrasePrefix(q: Extract2<'PhrasePrefix'>, stats: SearchStats): Query {
  if (q.terms.length === 0) return { kind: 'MatchNone' };
  const last = q.terms.length - 1;
  const all = stats.terms(q.field);
  const expanded: string[] = [];
  const seen = new Set<string>();
  outer: for (const prefix of q.terms[last]!) {
    for (let i = seekCeil(all, prefix); i < all.length; i++) {
      const t = all[i]!;
      if (!t.startsWith(prefix)) break;
      if (!seen.has(t)) {
        seen.add(t);
        expanded.push(t);
      }
      if (expanded.length >= q.maxExpansions) break outer;
    }
  }
  if (expanded.length === 0) return { kind: 'MatchNone' };
  if (q.terms.length === 1) {
    // MultiPhraseQuery with a single position: a disjunction of term queries
    return boolOf({
      should: expanded.map((term) => ({ kind: 'Term', field: q.field, term, boost: 1 }) as Query),
      boost: q.boost,
    });
  }
  return {
    kind: 'Phrase',
    field: q.field,
    terms: [...q.terms.slice(0, last).map((t) => [...t]), expanded],
    positions: [...q.positions],
    slop: q.slop,
    boost: q.boost,
  };
}

/** ES BlendedTermQuery.rewrite: blended doc frequencies, then dis_max or common-terms shape. */
export function rewriteBlended(q: Extract2<'Blended'>, stats: SearchStats): Query {
  const n = q.terms.length;
  const df = q.terms.map((t) => stats.term(t.field, t.term).docFreq);
  const ttf = q.terms.map((t) => (t.omitTf ? -1 : stats.term(t.field, t.term).totalTermFreq));
  const origDf = [...df];
  if (n > 1) blend(q, stats, df, ttf);
  const termQ = (i: number): Query => {
    const t = q.terms[i]!;
    const base: Query =
      df[i]! > 0
        ? {
            kind: 'Term',
            field: t.field,
            term: t.term,
            boost: t.boost,
            stats: { docFreq: df[i]!, totalTermFreq: Math.max(ttf[i]!, 0) },
          }
        : { kind: 'Term', field: t.field, term: t.term, boost: t.boost };
    return base;
  };
  if (q.cutoff === null) {
    return {
      kind: 'DisMax',
      queries: q.terms.map((_, i) => termQ(i)),
      tieBreaker: q.tieBreaker,
      boost: q.boost,
    };
  }
  // commonTermsBlendedQuery
  const cutoff = q.cutoff;
  const maxDoc = stats.maxDoc;
  const high: Query[] = [];
  const low: Query[] = [];
  for (let i = 0; i < n; i++) {
    const d = origDf[i]!;
    if ((cutoff >= 1 && d > cutoff) || d > Math.ceil(f(cutoff * maxDoc))) high.push(termQ(i));
    else low.push(termQ(i));
  }
  if (low.length === 0) return boolOf({ must: high, boost: q.boost });
  if (high.length === 0) return boolOf({ should: low, boost: q.boost });
  return boolOf({
    should: [boolOf({ should: high })],
    must: [boolOf({ should: low })],
    boost: q.boost,
  });
}

function blend(q: Extract2<'Blended'>, stats: SearchStats, df: number[], ttf: number[]): void {
  let maxDoc = stats.maxDoc;
  let max = 0;
  let minSumTTF = Number.MAX_SAFE_INTEGER;
  for (let i = 0; i < df.length; i++) {
    max = Math.max(df[i]!, max);
    if (minSumTTF !== -1 && ttf[i] !== -1) {
      minSumTTF = Math.min(minSumTTF, stats.field(q.terms[i]!.field).sumTotalTermFreq);
    } else {
      minSumTTF = -1;
    }
  }
  if (minSumTTF !== -1 && maxDoc > minSumTTF) maxDoc = minSumTTF;
  if (max === 0) return;
  let sumTTF = minSumTTF === -1 ? -1 : 0;
  // stable sort by docFreq, descending (InPlaceMergeSorter)
  const order = df.map((_, i) => i).sort((a, b) => df[b]! - df[a]! || a - b);
  let prev = df[order[0]!]!;
  let actualDf = Math.min(maxDoc, max);
  for (const i of order) {
    const current = df[i]!;
    if (current === 0) break;
    if (prev > current) actualDf++;
    const newDf = Math.min(maxDoc, actualDf);
    ttf[i] = ttf[i]! < 0 ? -1 : Math.max(ttf[i]!, newDf);
    df[i] = newDf;
    prev = current;
    if (sumTTF >= 0 && ttf[i]! >= 0) sumTTF += ttf[i]!;
    else sumTTF = -1;
  }
  sumTTF = Math.min(sumTTF, minSumTTF);
  for (let i = 0; i < df.length; i++) {
    if (df[i] === 0) continue;
    ttf[i] = sumTTF;
  }
}

/** Lucene CommonTermsQuery.rewrite (ES ExtendedCommonTermsQuery: msm from specs). */
export function rewriteCommonTerms(q: Extract2<'CommonTerms'>, stats: SearchStats): Query {
  if (q.terms.length === 0) return { kind: 'MatchNone' };
  const term = (t: string): Query => ({ kind: 'Term', field: q.field, term: t, boost: 1 });
  if (q.terms.length === 1) return { ...(term(q.terms[0]!) as Extract2<'Term'>), boost: q.boost };
  const maxDoc = stats.maxDoc;
  const low: Query[] = [];
  const high: Query[] = [];
  for (const t of q.terms) {
    const d = stats.term(q.field, t).docFreq;
    if (d > 0 && ((q.cutoff >= 1 && d > q.cutoff) || d > Math.ceil(f(q.cutoff * maxDoc)))) {
      high.push(term(t));
    } else {
      low.push(term(t));
    }
  }
  const lowOccur = q.lowFreqOccur;
  let highOccur = q.highFreqOccur;
  let lowMsm = 0;
  let highMsm = 0;
  if (lowOccur === 'should' && low.length > 0) lowMsm = q.lowFreqMinShouldMatch(low.length);
  if (highOccur === 'should' && high.length > 0) highMsm = q.highFreqMinShouldMatch(high.length);
  // no low-frequency terms: the high-frequency ones become a conjunction
  if (low.length === 0 && highMsm === 0 && highOccur !== 'must') highOccur = 'must';
  const clauses = (qs: Query[], occur: 'must' | 'should', msm: number): Query =>
    occur === 'must'
      ? boolOf({ must: qs, minShouldMatch: msm })
      : boolOf({ should: qs, minShouldMatch: msm });
  const must: Query[] = [];
  const should: Query[] = [];
  if (low.length > 0) must.push(clauses(low, lowOccur, lowMsm));
  if (high.length > 0) should.push(clauses(high, highOccur, highMsm));
  return boolOf({ must, should, boost: q.boost });
}

/** Fuzzy terms within `maxEdits` (all of them, with Lucene's boosts) for non-default rewrites. */
export function rewriteFuzzy(
  q: Extract2<'Fuzzy'>,
  stats: SearchStats,
  dl: Deadline | null = null,
): Query {
  const target = Array.from(q.term, (c) => c.codePointAt(0)!);
  const prefix = String.fromCodePoint(...target.slice(0, q.prefixLength));
  const candidates: Array<{ term: string; boost: number }> = [];
  let seen = 0;
  for (const t of stats.terms(q.field)) {
    if (dl !== null && (++seen & FUZZY_CHECK_MASK) === 0) dl.check();
    if (prefix && !t.startsWith(prefix)) continue;
    const cp = Array.from(t, (c) => c.codePointAt(0)!);
    const ed = editDistance(target, cp, q.maxEdits, q.transpositions);
    if (ed > q.maxEdits) continue;
    const minLen = Math.min(cp.length, target.length);
    candidates.push({ term: t, boost: ed === 0 ? 1 : f(1 - f(ed / minLen)) });
  }
  return rewriteTerms(q.field, candidates, q.rewrite!, q.boost, stats);
}

/** Expands a MultiTerm query with a non-default rewrite method. */
export function rewriteMultiTerm(
  q: Extract2<'MultiTerm'>,
  stats: SearchStats,
  dl: Deadline | null = null,
): Query {
  const terms = matchingTerms(stats, q.field, q.matcher, dl);
  return rewriteTerms(
    q.field,
    terms.map((term) => ({ term, boost: 1 })),
    q.rewrite!,
    q.boost,
    stats,
  );
}
