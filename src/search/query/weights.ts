/**
 * Query → Weight → per-segment Scorer (Lucene's createWeight). Boosts propagate down as in
 * Lucene 7 (BoostQuery multiplies into the clauses' weights); filter clauses and constant-score
 * queries never compute BM25.
 */
import { nestedBlockAt } from '../index/nested-path.js';
import type { LiveSegment } from '../index/live-segment.js';
import { lookupId, seekCeil, type InvertedField, type Segment } from '../index/segment.js';
import { termOrd } from '../index/term-lookup.js';
import { rangeDocs } from '../index/range-keys.js';
import { rewriteMoreLikeThis } from './more-like-this.js';
import { Bm25 } from './bm25.js';
import {
  ConjunctionScorer,
  DisjunctionScorer,
  EmptyScorer,
  ReqExclScorer,
  ReqOptScorer,
} from './boolean-scorers.js';
import { expl, noMatch, type Explanation } from './explanation.js';
import type { Query } from './query.js';
import {
  AllDocsScorer,
  ArrayScorer,
  ConstantScorer,
  NO_MORE_DOCS,
  PredicateScorer,
  type Scorer,
} from './scorer.js';
import type { SearchStats, TermStats } from './stats.js';
import { countLive, unionCount, type DocList } from './doc-counts.js';
import { MaxScoreScorer } from './max-score.js';
import {
  disjunctionBulk,
  exactPhraseBulk,
  filteredBulk,
  termBulk,
  type BulkScorer,
  type BulkTerm,
  type RangeCheck,
} from './bulk-scorers.js';
import {
  countSlice,
  NumericRangeScorer,
  pointsFrom,
  pointsSlice,
  pointsTo,
  sliceDocs,
} from './range-scorer.js';
import { PhraseScorer, TermScorer } from './term-scorers.js';
import { FunctionScoreScorer, NestedScorer, BoostingScorer } from './compound-scorers.js';
import { expandFuzzy } from './fuzzy.js';
import { joinWeight } from './join.js';
import { isSpanQuery } from './spans/types.js';
import { spanWeight } from './spans/weight.js';
import { TERMS_CHECK_MASK, type Deadline } from '../deadline.js';
import {
  rewriteBlended,
  rewriteCommonTerms,
  rewriteFuzzy,
  rewriteMultiTerm,
  rewritePhrasePrefix,
} from './rewrites.js';

export interface Weight {
  scorer(ls: LiveSegment): Scorer | null;
  /**
   * Every match of the segment scored in bulk (collectors that take all hits with scores), or
   * null: iterate scorer() instead.
   */
  bulk?(ls: LiveSegment): BulkScorer | null;
  /** A scoring term's postings and BM25 weight in the segment (null: absent), for bulk sums. */
  bulkTerm?(ls: LiveSegment): BulkTerm | null;
  /** The filter as a check of single-valued numeric doc values, or null when it is not one. */
  rangeCheck?(ls: LiveSegment): RangeCheck | null;
  explain(ls: LiveSegment, doc: number): Explanation;
  /** Exact number of live matching docs when it is cheap to know without scoring, else -1. */
  count?(ls: LiveSegment): number;
  /** The matching docs as one sorted list (terms, materialised doc sets), for counting unions. */
  docList?(ls: LiveSegment): DocList | null;
}

export interface WeightContext {
  stats: SearchStats;
  needsScores: boolean;
  /** The search `timeout`, checked while multi-term queries expand (deadline.ts). */
  deadline?: Deadline | null;
  /** Every segment of the shard searched: join queries (parent-join) read them all. */
  segments?: readonly LiveSegment[];
}

const f = Math.fround;

function inverted(seg: Segment, field: string): InvertedField | null {
  return field === '_field_names' ? seg.fieldNames : (seg.fields.get(field)?.inverted ?? null);
}

function advanceTo(s: Scorer, doc: number): boolean {
  return (s.doc < doc ? s.advance(doc) : s.doc) === doc;
}

/** Explains by re-running the scorer up to `doc`. */
function explainByScoring(
  w: Weight,
  ls: LiveSegment,
  doc: number,
  desc: (score: number) => string,
): Explanation {
  const s = w.scorer(ls);
  if (!s || !advanceTo(s, doc)) return noMatch('no matching term');
  const v = s.score();
  return expl(v, desc(v));
}

export function createWeight(q: Query, ctx: WeightContext, boost = 1): Weight {
  if (isSpanQuery(q)) return spanWeight(q, ctx, f(q.boost * boost));
  switch (q.kind) {
    case 'MatchAll': {
      const b = f(q.boost * boost);
      return {
        scorer: (ls) => new AllDocsScorer(ls.segment.maxDoc, b),
        explain: (_ls, _d) => expl(b, '*:*'),
        count: (ls) => ls.segment.maxDoc - (ls.live === null ? 0 : ls.deleted),
      };
    }
    case 'MatchNone':
      return {
        scorer: () => null,
        explain: () => noMatch('MatchNoDocsQuery("")'),
        count: () => 0,
      };
    case 'Term':
      return termWeight(q.field, q.term, f(q.boost * boost), ctx, q.stats);
    case 'Synonym':
      return synonymWeight(q.field, q.terms, f(q.boost * boost), ctx);
    case 'Phrase':
      return phraseWeight(q, f(q.boost * boost), ctx);
    case 'NumericRange':
      return numericRangeWeight(q, f(q.boost * boost));
    case 'NumericSet': {
      const b = f(q.boost * boost);
      return docSetWeight(
        b,
        () => `${q.field}:{${q.values.join(' ')}}`,
        (ls) =>
          unionDocs(q.values.map((v) => numericRangeDocs(ls.segment, q.field, v, v, true, true))),
      );
    }
    case 'RangeField': {
      const b = f(q.boost * boost);
      const cache = new WeakMap<LiveSegment, Int32Array | null>();
      return docSetWeight(
        b,
        () => `${q.field}:<ranges:[${q.min} : ${q.max}]>`,
        (ls) => {
          let docs = cache.get(ls);
          if (docs === undefined) {
            const r = ls.segment.fields.get(q.field)?.ranges;
            docs = r ? rangeDocs(r, q.relation, q.min, q.max) : null;
            cache.set(ls, docs);
          }
          return docs;
        },
      );
    }
    case 'TermRange': {
      const b = f(q.boost * boost);
      return docSetWeight(
        b,
        () => `${q.field}:[${q.lo ?? '*'} TO ${q.hi ?? '*'}]`,
        (ls) => termRangeDocs(ls.segment, q.field, q.lo, q.hi, q.includeLo, q.includeHi),
      );
    }
    case 'TermSet': {
      const b = f(q.boost * boost);
      const sorted = [...new Set(q.terms)].sort();
      return docSetWeight(
        b,
        () => `${q.field}:(${sorted.join(' ')})`,
        (ls) => {
          const inv = inverted(ls.segment, q.field);
          if (!inv) return null;
          const parts: Int32Array[] = [];
          for (const t of sorted) {
            const i = termOrd(inv, t);
            if (i >= 0) parts.push(inv.docs.subarray(inv.termStart[i]!, inv.termStart[i + 1]!));
          }
          return unionDocs(parts);
        },
      );
    }
    case 'MultiTerm': {
      const dl = ctx.deadline ?? null;
      if (q.rewrite && q.rewrite.method !== 'constant_score')
        return createWeight(rewriteMultiTerm(q, ctx.stats, dl), ctx, boost);
      const b = f(q.boost * boost);
      return docSetWeight(
        b,
        () => q.describe,
        (ls) => {
          const inv = inverted(ls.segment, q.field);
          if (!inv) return null;
          const parts: Int32Array[] = [];
          const start = q.matcher.prefix ? seekCeil(inv.terms, q.matcher.prefix) : 0;
          for (let t = start; t < inv.terms.length; t++) {
            // ES 7 ExitableTermsEnum: the timeout is checked while terms are enumerated
            if (dl !== null && ((t - start) & TERMS_CHECK_MASK) === TERMS_CHECK_MASK) dl.check();
            const term = inv.terms[t]!;
            if (q.matcher.prefix && !term.startsWith(q.matcher.prefix)) break;
            if (q.matcher.test(term))
              parts.push(inv.docs.subarray(inv.termStart[t]!, inv.termStart[t + 1]!));
          }
          return unionDocs(parts);
        },
      );
    }
    case 'Fuzzy':
      if (q.rewrite) return createWeight(rewriteFuzzy(q, ctx.stats, ctx.deadline), ctx, boost);
      return createWeight(expandFuzzy(q, ctx.stats, ctx.deadline), ctx, boost);
    case 'PhrasePrefix':
      return createWeight(rewritePhrasePrefix(q, ctx.stats), ctx, boost);
    case 'Blended':
      return createWeight(rewriteBlended(q, ctx.stats), ctx, boost);
    case 'CommonTerms':
      return createWeight(rewriteCommonTerms(q, ctx.stats), ctx, boost);
    case 'MoreLikeThis':
      return createWeight(rewriteMoreLikeThis(q.spec, ctx.stats), ctx, f(q.boost * boost));
    case 'Bool':
      return boolWeight(q, ctx, f(q.boost * boost));
    case 'ConstantScore': {
      const b = f(q.boost * boost);
      const inner = createWeight(q.inner, { ...ctx, needsScores: false });
      return {
        scorer: (ls) => {
          const s = inner.scorer(ls);
          return s ? new ConstantScorer(s, b) : null;
        },
        count: (ls) => (inner.count ? inner.count(ls) : -1),
        explain: (ls, d) => {
          const s = inner.scorer(ls);
          return s && advanceTo(s, d)
            ? expl(b, 'ConstantScore(' + 'query' + ')')
            : noMatch("ConstantScore doesn't match id " + d);
        },
      };
    }
    case 'DisMax': {
      const b = f(q.boost * boost);
      const ws = q.queries.map((x) => createWeight(x, ctx, b));
      return {
        scorer: (ls) => {
          const subs = ws.map((w) => w.scorer(ls)).filter((s): s is Scorer => s !== null);
          if (subs.length === 0) return null;
          if (subs.length === 1 && q.tieBreaker === 0) return subs[0]!;
          return new DisjunctionScorer(subs, 1, { tieBreaker: q.tieBreaker });
        },
        explain: (ls, d) => {
          const parts = ws
            .map((w) => w.explain(ls, d))
            .filter((e) => e.value > 0 || e.description.startsWith('weight'));
          const s = ws.length ? null : null;
          void s;
          const matched = parts.filter((e) => e.value > 0);
          if (!matched.length) return noMatch('No matching clause');
          const max = Math.max(...matched.map((e) => e.value));
          const sum = matched.reduce((a, e) => a + e.value, 0);
          return expl(
            max + (sum - max) * q.tieBreaker,
            q.tieBreaker === 0 ? 'max of:' : `max plus ${q.tieBreaker} times others of:`,
            matched,
          );
        },
      };
    }
    case 'Ids': {
      const b = f(q.boost * boost);
      return docSetWeight(
        b,
        () => `_id:(${q.ids.join(' ')})`,
        (ls) => {
          const docs: number[] = [];
          for (const id of q.ids) {
            const d = lookupId(ls.segment, id);
            if (d >= 0) docs.push(d);
          }
          return Int32Array.from(new Set(docs)).sort();
        },
      );
    }
    case 'Boosting': {
      const b = f(q.boost * boost);
      const pos = createWeight(q.positive, ctx, b);
      const neg = createWeight(q.negative, { ...ctx, needsScores: false });
      return {
        scorer: (ls) => {
          const p = pos.scorer(ls);
          if (!p) return null;
          return new BoostingScorer(p, neg.scorer(ls), q.negativeBoost);
        },
        explain: (ls, d) => explainByScoring(pos, ls, d, () => 'boosting'),
      };
    }
    case 'FunctionScore': {
      // Lucene FunctionScoreQuery.createWeight: the boost goes into the sub query's weight
      const b = f(q.boost * boost);
      const inner = createWeight(q.inner, ctx, b);
      const filters = q.functions.map((fn) =>
        fn.filter ? createWeight(fn.filter, { ...ctx, needsScores: false }) : null,
      );
      const w: Weight = {
        // function_score never drops docs unless it has a min_score
        count: (ls) => (q.minScore === null && inner.count ? inner.count(ls) : -1),
        scorer: (ls) => {
          const s = inner.scorer(ls);
          if (!s) return null;
          return new FunctionScoreScorer(
            s,
            q,
            ls,
            filters.map((fw) => (fw ? fw.scorer(ls) : null)),
            1,
          );
        },
        explain: (ls, d) => explainByScoring(w, ls, d, () => 'function score, product of:'),
      };
      return w;
    }
    case 'Nested': {
      // ToParentBlockJoinQuery: the boost goes into the child weight
      const b = f(q.boost * boost);
      const inner = createWeight(q.inner, ctx, b);
      const w: Weight = {
        scorer: (ls) => {
          const block = nestedBlockAt(ls.segment, q.path);
          if (!block) return null;
          const child: LiveSegment = { segment: block.segment, live: null, deleted: 0, docBase: 0 };
          const cs = inner.scorer(child);
          if (!cs) return null;
          return NestedScorer.build(cs, block.parentOf, q.scoreMode, 1);
        },
        explain: (ls, d) =>
          explainByScoring(w, ls, d, () => `Score based on ${q.scoreMode} child docs`),
      };
      return w;
    }
    case 'Join':
      return joinWeight(q, ctx, boost, (inner, c) => createWeight(inner, c));
    case 'Predicate': {
      const b = f(q.boost * boost);
      const scores = ctx.needsScores ? q.factory.scores : undefined;
      return {
        scorer: (ls) => {
          const test = q.factory.forSegment(ls);
          if (!test) return null;
          const s = new PredicateScorer(ls.segment.maxDoc, test, b);
          if (!scores) return s;
          const of = scores(ls);
          s.score = () => f(of(s.doc) * b);
          return s;
        },
        explain: (ls, d) => {
          const test = q.factory.forSegment(ls);
          return test && test(d) ? expl(b, q.factory.describe) : noMatch(q.factory.describe);
        },
      };
    }
  }
}

function numericRangeWeight(q: Extract<Query, { kind: 'NumericRange' }>, boost: number): Weight {
  // built only when explained: every count and search through a range would format both bounds
  const describe = () => `${q.field}:[${q.lo} TO ${q.hi}]`;
  const slice = (ls: LiveSegment) => {
    const sf = ls.segment.fields.get(q.field);
    const pts = sf?.points;
    if (!pts) return null;
    const [from, to] = pointsSlice(pts, q);
    if (to <= from) return null;
    const col = sf.docValues?.kind === 'numeric' ? sf.docValues : null;
    return { pts, from, to, col };
  };
  return {
    scorer(ls) {
      const r = slice(ls);
      if (!r) return null;
      return new NumericRangeScorer(r.pts, r.from, r.to, ls.segment.maxDoc, boost, q, r.col);
    },
    // per segment of every count and sorted page: the slice's bounds without the tuple
    count(ls) {
      const sf = ls.segment.fields.get(q.field);
      const pts = sf?.points;
      if (!pts) return 0;
      const from = pointsFrom(pts, q);
      const to = pointsTo(pts, q, from);
      if (to <= from) return 0;
      const single = sf.docValues?.kind === 'numeric' && sf.docValues.single !== null;
      return countSlice(pts, from, to, single, ls);
    },
    rangeCheck(ls) {
      const dv = ls.segment.fields.get(q.field)?.docValues;
      if (dv?.kind !== 'numeric' || dv.single === null) return null;
      return {
        values: dv.single,
        lo: q.lo,
        hi: q.hi,
        includeLo: q.includeLo,
        includeHi: q.includeHi,
      };
    },
    explain(ls, doc) {
      const r = slice(ls);
      if (r && binaryHas(sliceDocs(r.pts, r.from, r.to), doc)) return expl(boost, describe());
      return noMatch(`no match on ${describe()}`);
    },
  };
}

function docSetWeight(
  boost: number,
  /** The query as explanations name it (built only when one is asked for). */
  describe: () => string,
  docs: (ls: LiveSegment) => Int32Array | null,
): Weight {
  const list = (ls: LiveSegment): DocList | null => {
    const d = docs(ls);
    return d && d.length ? { docs: d, start: 0, end: d.length } : null;
  };
  return {
    scorer(ls) {
      const d = docs(ls);
      return d && d.length ? new ArrayScorer(d, boost) : null;
    },
    docList: list,
    count(ls) {
      const l = list(ls);
      return l ? countLive(l, ls.live) : 0;
    },
    explain(ls, doc) {
      const d = docs(ls);
      if (d && binaryHas(d, doc)) return expl(boost, describe());
      return noMatch(`no match on ${describe()}`);
    },
  };
}

function binaryHas(a: Int32Array, x: number): boolean {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >>> 1;
    if (a[m]! < x) lo = m + 1;
    else if (a[m]! > x) hi = m - 1;
    else return true;
  }
  return false;
}

function termWeight(
  field: string,
  term: string,
  boost: number,
  ctx: WeightContext,
  override?: { docFreq: number; totalTermFreq: number },
): Weight {
  let bm25: Bm25 | null = null;
  let df = 0;
  let known: TermStats | null = null;
  if (ctx.needsScores) {
    const ts = override ?? ctx.stats.term(field, term);
    df = ts.docFreq;
    bm25 = new Bm25(boost, ctx.stats.field(field), ts, ctx.stats.maxDoc);
    if (!override) known = ts;
  }
  // The term's ordinal in the last segment asked (count() then scorer() look it up once; the
  // statistics lookup has usually found it already).
  let lastSeg: Segment | null = null;
  let lastInv: InvertedField | null = null;
  let lastOrd = -1;
  const lookup = (seg: Segment): number => {
    if (seg !== lastSeg) {
      lastSeg = seg;
      lastInv = inverted(seg, field);
      lastOrd = lastInv ? (known?.ordIn?.(lastInv) ?? termOrd(lastInv, term)) : -1;
    }
    return lastOrd;
  };
  const list = (ls: LiveSegment): DocList | null => {
    const t = lookup(ls.segment);
    if (t < 0) return null;
    const inv = lastInv!;
    return { docs: inv.docs, start: inv.termStart[t]!, end: inv.termStart[t + 1]! };
  };
  const w: Weight = {
    scorer(ls) {
      const t = lookup(ls.segment);
      return t < 0 ? null : new TermScorer(lastInv!, t, bm25, boost);
    },
    bulkTerm(ls) {
      const t = lookup(ls.segment);
      return t < 0 || bm25 === null ? null : { inv: lastInv!, ord: t, bm25 };
    },
    bulk(ls) {
      const t = w.bulkTerm!(ls);
      return t ? termBulk(t) : null;
    },
    docList: list,
    count(ls) {
      const l = list(ls);
      return l ? countLive(l, ls.live) : 0;
    },
    explain(ls, doc) {
      const s = w.scorer(ls) as TermScorer | null;
      if (!s || !advanceTo(s, doc)) return noMatch(`no matching term`);
      if (!bm25) return expl(boost, `${field}:${term}`);
      const inv = inverted(ls.segment, field)!;
      const norm = inv.norms ? inv.norms[doc]! : -1;
      const inner = bm25.explain(doc, s.freq(), norm, df);
      return expl(
        inner.value,
        `weight(${field}:${term} in ${doc}) [PerFieldSimilarity], result of:`,
        [inner],
      );
    },
  };
  return w;
}

/** Lucene SynonymQuery: terms at one position scored as one term (df = max, freq = sum). */
function synonymWeight(field: string, terms: string[], boost: number, ctx: WeightContext): Weight {
  let bm25: Bm25 | null = null;
  if (ctx.needsScores) {
    let df = 0;
    let ttf = 0;
    for (const t of terms) {
      const ts = ctx.stats.term(field, t);
      df = Math.max(df, ts.docFreq);
      ttf += ts.totalTermFreq;
    }
    bm25 = new Bm25(
      boost,
      ctx.stats.field(field),
      { docFreq: df, totalTermFreq: ttf },
      ctx.stats.maxDoc,
    );
  }
  const w: Weight = {
    scorer(ls) {
      const inv = inverted(ls.segment, field);
      if (!inv) return null;
      const subs: TermScorer[] = [];
      for (const term of terms) {
        const t = termOrd(inv, term);
        if (t >= 0) subs.push(new TermScorer(inv, t, null, boost));
      }
      if (!subs.length) return null;
      const union = new DisjunctionScorer(subs);
      if (!bm25) return new ConstantScorer(union, boost);
      const b = bm25;
      return {
        get doc() {
          return union.doc;
        },
        set doc(_v: number) {},
        cost: union.cost,
        next: () => union.next(),
        advance: (t: number) => union.advance(t),
        score: () => {
          let freq = 0;
          for (const s of subs) if (s.doc === union.doc) freq += s.freq();
          return b.score(freq, inv.norms ? inv.norms[union.doc]! : -1);
        },
      };
    },
    explain: (ls, doc) =>
      explainByScoring(
        w,
        ls,
        doc,
        () =>
          `weight(Synonym(${terms.map((t) => `${field}:${t}`).join(' ')}) in ${doc}) [PerFieldSimilarity], result of:`,
      ),
  };
  return w;
}

function phraseWeight(
  q: Extract<Query, { kind: 'Phrase' }>,
  boost: number,
  ctx: WeightContext,
): Weight {
  let bm25: Bm25 | null = null;
  if (ctx.needsScores) {
    // Lucene: a phrase's idf is the sum of its terms' idfs (MultiPhraseQuery: per position, all terms).
    const fs = ctx.stats.field(q.field);
    let idfSum = 0;
    const docCount = fs.docCount > 0 ? fs.docCount : ctx.stats.maxDoc;
    for (const pos of q.terms) {
      for (const t of pos) {
        const ts = ctx.stats.term(q.field, t);
        idfSum += f(Math.log(1 + (docCount - ts.docFreq + 0.5) / (ts.docFreq + 0.5)));
      }
    }
    bm25 = new Bm25(boost, fs, { docFreq: 0, totalTermFreq: 0 }, ctx.stats.maxDoc);
    // Override idf with the summed idf (the Bm25 constructor computed one for df 0).
    const summed = f(idfSum);
    (bm25 as { idf: number }).idf = summed;
    (bm25 as { weightValue: number }).weightValue = f(f(boost * summed) * f(1.2 + 1));
  }
  const w: Weight = {
    scorer(ls) {
      const inv = inverted(ls.segment, q.field);
      if (!inv || !inv.positions) return null;
      const perPos: TermScorer[][] = [];
      for (const pos of q.terms) {
        const list: TermScorer[] = [];
        for (const term of pos) {
          const t = termOrd(inv, term);
          if (t >= 0) list.push(new TermScorer(inv, t, null, 1));
        }
        if (!list.length) return null;
        perPos.push(list);
      }
      // Approximation: docs containing every position; the same iterators then give positions.
      const approxParts: Scorer[] = perPos.map((list) =>
        list.length === 1 ? list[0]! : new DisjunctionScorer(list),
      );
      const approx =
        approxParts.length === 1 ? approxParts[0]! : new ConjunctionScorer(approxParts, []);
      return new PhraseScorer(approx, perPos, q.positions, q.slop, bm25, inv.norms, boost);
    },
    bulk(ls) {
      if (bm25 === null || q.slop !== 0 || q.terms.some((p) => p.length !== 1)) return null;
      const inv = inverted(ls.segment, q.field);
      if (!inv || !inv.positions || !inv.freqs) return null;
      const ords: number[] = [];
      for (const [term] of q.terms) {
        const t = termOrd(inv, term!);
        if (t < 0) return null;
        ords.push(t);
      }
      return exactPhraseBulk(inv, ords, q.positions, bm25);
    },
    explain(ls, doc) {
      const s = w.scorer(ls) as PhraseScorer | null;
      if (!s || !advanceTo(s, doc)) return noMatch('no matching term');
      const v = s.score();
      const desc = `weight(${q.field}:"${q.terms.map((t) => (t.length > 1 ? `(${t.join(' ')})` : t[0])).join(' ')}"${q.slop ? `~${q.slop}` : ''} in ${doc}) [PerFieldSimilarity], result of:`;
      return expl(
        v,
        desc,
        bm25
          ? [
              bm25.explain(
                doc,
                s.freq(),
                ls.segment.fields.get(q.field)?.inverted?.norms?.[doc] ?? -1,
                0,
              ),
            ]
          : [],
      );
    },
  };
  return w;
}

function boolWeight(
  q: Extract<Query, { kind: 'Bool' }>,
  ctx: WeightContext,
  boost: number,
): Weight {
  const must = q.must.map((c) => createWeight(c, ctx, boost));
  const filter = q.filter.map((c) => createWeight(c, { ...ctx, needsScores: false }, boost));
  const should = q.should.map((c) => createWeight(c, ctx, boost));
  const mustNot = q.mustNot.map((c) => createWeight(c, { ...ctx, needsScores: false }, boost));
  const msm = q.minShouldMatch;
  const required = [...must, ...filter];
  const w: Weight = {
    bulk(ls) {
      if (!ctx.needsScores || mustNot.length > 0) return null;
      if (must.length === 0 && filter.length === 0 && msm <= 1) {
        // A disjunction of terms (match with OR).
        const terms: BulkTerm[] = [];
        for (const c of should) {
          if (!c.bulkTerm) return null;
          const t = c.bulkTerm(ls);
          if (t) terms.push(t);
        }
        return terms.length > 0 ? disjunctionBulk(terms) : null;
      }
      if (must.length === 1 && should.length === 0 && msm === 0 && must[0]!.bulk) {
        // One scoring clause under range filters: the filters are doc-value checks.
        const checks: RangeCheck[] = [];
        for (const c of filter) {
          const r = c.rangeCheck ? c.rangeCheck(ls) : null;
          if (!r) return null;
          checks.push(r);
        }
        const inner = must[0]!.bulk(ls);
        return inner ? filteredBulk(inner, checks) : null;
      }
      return null;
    },
    count(ls) {
      if (mustNot.length > 0) return -1;
      if (required.length === 1 && msm === 0) {
        const r = required[0]!;
        return r.count ? r.count(ls) : -1;
      }
      if (required.length > 0 || msm > 1) return -1;
      if (should.length === 1) return should[0]!.count ? should[0]!.count(ls) : -1;
      const lists: DocList[] = [];
      for (const c of should) {
        if (!c.docList) return -1;
        const l = c.docList(ls);
        if (l) lists.push(l);
      }
      return unionCount(lists, ls.segment.maxDoc, ls.live);
    },
    scorer(ls) {
      const req: Scorer[] = [];
      const scoring: Scorer[] = [];
      for (const m of must) {
        const s = m.scorer(ls);
        if (!s) return null;
        req.push(s);
        scoring.push(s);
      }
      for (const m of filter) {
        const s = m.scorer(ls);
        if (!s) return null;
        req.push(ctx.needsScores ? new ConstantScorer(s, 0) : s);
      }
      const opt: Scorer[] = [];
      for (const m of should) {
        const s = m.scorer(ls);
        if (s) opt.push(s);
      }
      const excl: Scorer[] = [];
      for (const m of mustNot) {
        const s = m.scorer(ls);
        if (s) excl.push(s);
      }
      let main: Scorer | null;
      if (req.length === 0) {
        if (opt.length === 0 || opt.length < Math.max(1, msm)) return null;
        if (opt.length === 1) main = opt[0]!;
        else if (msm <= 1 && ctx.needsScores && opt.every((s) => s.maxScore !== undefined))
          main = new MaxScoreScorer(opt);
        else main = new DisjunctionScorer(opt, Math.max(1, msm));
      } else {
        if (msm > 0) {
          if (opt.length < msm) return null;
          const d = opt.length === 1 ? opt[0]! : new DisjunctionScorer(opt, msm);
          req.push(d);
          scoring.push(d);
        }
        main =
          req.length === 1
            ? scoring.length === 1
              ? req[0]!
              : ctx.needsScores
                ? new ConstantScorer(req[0]!, 0)
                : req[0]!
            : new ConjunctionScorer(req, scoring);
        if (msm === 0 && opt.length > 0 && ctx.needsScores) {
          main = new ReqOptScorer(main, opt.length === 1 ? opt[0]! : new DisjunctionScorer(opt));
        }
      }
      if (excl.length > 0)
        main = new ReqExclScorer(main, excl.length === 1 ? excl[0]! : new DisjunctionScorer(excl));
      return main;
    },
    explain(ls, doc) {
      const s = w.scorer(ls);
      if (!s || !advanceTo(s, doc)) return noMatch('no match on required clause');
      const details: Explanation[] = [];
      for (const m of must) details.push(m.explain(ls, doc));
      for (const m of should) {
        const e = m.explain(ls, doc);
        if (e.value > 0 || !e.description.startsWith('no')) details.push(e);
      }
      for (const m of filter) {
        const e = m.explain(ls, doc);
        details.push(expl(0, `match on required clause, product of:`, [expl(0, '# clause'), e]));
      }
      return expl(
        s.score(),
        'sum of:',
        details.filter((e) => e.value > 0 || e.description.startsWith('match on required')),
      );
    },
  };
  return w;
}

// ---- doc sets

export function numericRangeDocs(
  seg: Segment,
  field: string,
  lo: number,
  hi: number,
  includeLo: boolean,
  includeHi: boolean,
): Int32Array | null {
  const pts = seg.fields.get(field)?.points;
  if (!pts) return null;
  const [from, to] = pointsSlice(pts, { lo, hi, includeLo, includeHi });
  return to > from ? sliceDocs(pts, from, to) : null;
}

export function termRangeDocs(
  seg: Segment,
  field: string,
  lo: string | null,
  hi: string | null,
  incLo: boolean,
  incHi: boolean,
): Int32Array | null {
  const inv = inverted(seg, field);
  if (!inv) return null;
  let t = lo === null ? 0 : seekCeil(inv.terms, lo);
  if (lo !== null && !incLo && inv.terms[t] === lo) t++;
  const parts: Int32Array[] = [];
  for (; t < inv.terms.length; t++) {
    const term = inv.terms[t]!;
    if (hi !== null && (term > hi || (!incHi && term === hi))) break;
    parts.push(inv.docs.subarray(inv.termStart[t]!, inv.termStart[t + 1]!));
  }
  return unionDocs(parts);
}

export function unionDocs(parts: Array<Int32Array | null>): Int32Array | null {
  const ps = parts.filter((p): p is Int32Array => p !== null && p.length > 0);
  if (ps.length === 0) return null;
  if (ps.length === 1) return ps[0]!;
  let total = 0;
  for (const p of ps) total += p.length;
  const out = new Int32Array(total);
  let k = 0;
  for (const p of ps) {
    out.set(p, k);
    k += p.length;
  }
  out.sort();
  let w = 1;
  for (let r = 1; r < out.length; r++) if (out[r] !== out[w - 1]) out[w++] = out[r]!;
  return out.slice(0, w);
}

export const NO_MORE = NO_MORE_DOCS;
export const _empty = EmptyScorer;
