/**
 * Span query → Weight → per-segment SpanScorer, as Lucene 7.7's SpanWeight: the query is
 * rewritten (wrapped multi-term queries expand to span terms), clauses only match, and the top
 * query scores by BM25 with the sum of the idfs of every term under it and the sloppy frequency
 * of its matches (1 / (width + 1) summed over the doc's spans).
 */
import { EsError } from '../../../common/errors.js';
import type { LiveSegment } from '../../index/live-segment.js';
import { positionOffsets } from '../../index/postings-extras.js';
import { seekCeil, type InvertedField, type Segment } from '../../index/segment.js';
import { termOrd } from '../../index/term-lookup.js';
import { Bm25, idfExplanation } from '../bm25.js';
import { expl, noMatch, type Explanation } from '../explanation.js';
import { fuzzyCandidates } from '../fuzzy.js';
import { matchingTerms } from '../rewrites.js';
import type { Scorer } from '../scorer.js';
import type { FieldStats } from '../stats.js';
import type { Weight, WeightContext } from '../weights.js';
import { spanToString } from './describe.js';
import { ContainingSpans, NearOrderedSpans, NearUnorderedSpans, WithinSpans } from './near.js';
import {
  FilterSpans,
  firstAccept,
  GapSpans,
  NO_MORE_POSITIONS,
  notAccept,
  OrSpans,
  TermSpans,
  type Spans,
} from './spans.js';
import { spanField, type SpanMultiTermInner, type SpanQuery } from './types.js';

const f = Math.fround;

type Of<K extends SpanQuery['kind']> = Extract<SpanQuery, { kind: K }>;

function inverted(seg: Segment, field: string): InvertedField | null {
  return field === '_field_names' ? seg.fieldNames : (seg.fields.get(field)?.inverted ?? null);
}

// ---- rewrite ---------------------------------------------------------------------------------

/** Terms a wrapped multi-term query accepts, each with its boost (1 but for fuzzy terms). */
function candidates(
  q: SpanMultiTermInner,
  ctx: WeightContext,
): Array<{ term: string; boost: number }> {
  const dl = ctx.deadline ?? null;
  switch (q.kind) {
    case 'MultiTerm':
      return matchingTerms(ctx.stats, q.field, q.matcher, dl).map((term) => ({ term, boost: 1 }));
    case 'Fuzzy':
      return fuzzyCandidates(q, ctx.stats, dl);
    case 'TermRange': {
      const terms = ctx.stats.terms(q.field);
      const out: Array<{ term: string; boost: number }> = [];
      let i = q.lo === null ? 0 : seekCeil(terms, q.lo);
      if (q.lo !== null && !q.includeLo && terms[i] === q.lo) i++;
      for (; i < terms.length; i++) {
        const t = terms[i]!;
        if (q.hi !== null && (t > q.hi || (!q.includeHi && t === q.hi))) break;
        out.push({ term: t, boost: 1 });
      }
      return out;
    }
  }
}

const byTerm = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** SpanMultiTermQueryWrapper.rewrite with the wrapper's span rewrite method. */
function expand(q: Of<'SpanMultiTerm'>, ctx: WeightContext): SpanQuery {
  const cands = candidates(q.inner, ctx);
  const field = q.inner.field;
  const term = (t: string): SpanQuery => ({ kind: 'SpanTerm', field, term: t, boost: 1 });
  if (q.expansion.kind === 'top_terms') {
    // TopTermsSpanBooleanQueryRewrite: the best terms by boost (ties: smaller term), in term order
    const top = [...cands]
      .sort((a, b) => b.boost - a.boost || byTerm(a.term, b.term))
      .slice(0, q.expansion.size)
      .map((c) => c.term)
      .sort(byTerm);
    return { kind: 'SpanOr', clauses: top.map(term), boost: q.boost };
  }
  // ES SpanBooleanQueryRewriteWithMaxClause (hard limit)
  const max = q.expansion.max;
  if (cands.length > max) {
    throw new EsError(
      'runtime_exception',
      `[${q.display} ] exceeds maxClauseCount [ Boolean maxClauseCount is set to ${max}]`,
      500,
    );
  }
  const terms = cands.map((c) => c.term).sort(byTerm);
  if (terms.length === 0) {
    return {
      kind: 'SpanNone',
      field,
      reason: `no expansion found for ${q.display}`,
      boost: q.boost,
    };
  }
  if (terms.length === 1) return { kind: 'SpanTerm', field, term: terms[0]!, boost: q.boost };
  return { kind: 'SpanOr', clauses: terms.map(term), boost: q.boost };
}

/** IndexSearcher.rewrite of a span query: wrapped multi-term queries become span terms. */
export function rewrite(q: SpanQuery, ctx: WeightContext): SpanQuery {
  const r = (c: SpanQuery) => rewrite(c, ctx);
  switch (q.kind) {
    case 'SpanMultiTerm':
      return expand(q, ctx);
    case 'SpanNear':
      return { ...q, clauses: q.clauses.map(r) };
    case 'SpanOr':
      return { ...q, clauses: q.clauses.map(r) };
    case 'SpanNot':
      return { ...q, include: r(q.include), exclude: r(q.exclude) };
    case 'SpanFirst':
      return { ...q, match: r(q.match) };
    case 'SpanContaining':
    case 'SpanWithin':
      return { ...q, big: r(q.big), little: r(q.little) };
    case 'SpanMask':
      return { ...q, inner: r(q.inner) };
    default:
      return q;
  }
}

// ---- statistics ------------------------------------------------------------------------------

/** A term a span query's similarity counts: of a field, or of an `_index_prefix` field. */
type ScoringTerm = Of<'SpanTerm'> | Of<'SpanPrefixTerm'>;

/** SpanWeight.extractTermContexts: the terms under a clause (span_not: its include only). */
function extractTerms(q: SpanQuery, out: Map<string, ScoringTerm>): void {
  switch (q.kind) {
    case 'SpanTerm':
      out.set(`${q.field}\u0000${q.term}`, q);
      return;
    case 'SpanPrefixTerm':
      out.set(`${q.field}\u0000${q.prefix}`, q);
      return;
    case 'SpanNear':
    case 'SpanOr':
      for (const c of q.clauses) extractTerms(c, out);
      return;
    case 'SpanNot':
      extractTerms(q.include, out);
      return;
    case 'SpanFirst':
      extractTerms(q.match, out);
      return;
    case 'SpanContaining':
    case 'SpanWithin':
      extractTerms(q.big, out);
      extractTerms(q.little, out);
      return;
    case 'SpanMask':
      extractTerms(q.inner, out);
      return;
    case 'SpanGap':
    case 'SpanNone':
    case 'SpanMultiTerm':
      return;
  }
}

/** The terms the top query's similarity is built from (SpanNotQuery: include and exclude). */
function scoringTerms(q: SpanQuery): ScoringTerm[] {
  const out = new Map<string, ScoringTerm>();
  if (q.kind === 'SpanNot') {
    extractTerms(q.include, out);
    extractTerms(q.exclude, out);
  } else extractTerms(q, out);
  return [...out.values()];
}

interface Similarity {
  readonly bm25: Bm25;
  readonly idf: Explanation;
  /** The top query's field has norms (the `_index_prefix` field omits them). */
  readonly norms: boolean;
}

/** SpanWeight.buildSimWeight: BM25 over the top field with the summed idf of every term. */
function similarity(top: SpanQuery, boost: number, ctx: WeightContext): Similarity | null {
  const terms = scoringTerms(top);
  const field = spanField(top);
  if (terms.length === 0 || field === null) return null;
  const stats = ctx.stats;
  let fs: FieldStats;
  let norms = true;
  if (top.kind === 'SpanPrefixTerm') {
    const docCount = stats.prefixDocCount?.(top.source, top.minChars) ?? 0;
    fs = { docCount, sumTotalTermFreq: 0, sumDocFreq: 0 };
    norms = false;
  } else fs = stats.field(field);
  const docCount = fs.docCount > 0 ? fs.docCount : stats.maxDoc;
  const parts = terms.map((t) => {
    const df =
      t.kind === 'SpanTerm'
        ? stats.term(t.field, t.term).docFreq
        : (stats.prefixTerm?.(t.source, t.prefix).docFreq ?? 0);
    return idfExplanation(df, docCount);
  });
  // BM25Similarity.idfExplain(stats, TermStatistics[]): summed in double, then a float
  let sum = 0;
  for (const p of parts) sum += p.value;
  const idfE = parts.length === 1 ? parts[0]! : expl(f(sum), 'idf(), sum of:', parts);
  const bm25 = new Bm25(boost, fs, { docFreq: 0, totalTermFreq: 0 }, stats.maxDoc, idfE.value);
  return { bm25, idf: idfE, norms };
}

// ---- spans -----------------------------------------------------------------------------------

function termSpans(seg: Segment, field: string, term: string): Spans | null {
  const inv = inverted(seg, field);
  if (!inv) return null;
  const ord = termOrd(inv, term);
  if (ord < 0) return null;
  const off = positionOffsets(inv);
  if (off === null) {
    throw new EsError(
      'illegal_state_exception',
      `field "${field}" was indexed without position data; cannot run SpanTermQuery (term=${term})`,
      500,
    );
  }
  return new TermSpans(inv, ord, off);
}

/** The `_index_prefix` term's postings: the source terms starting with the prefix, merged. */
function prefixSpans(seg: Segment, q: Of<'SpanPrefixTerm'>): Spans | null {
  const inv = inverted(seg, q.source);
  const off = inv ? positionOffsets(inv) : null;
  if (!inv || off === null) return null;
  const subs: Spans[] = [];
  for (let t = seekCeil(inv.terms, q.prefix); t < inv.terms.length; t++) {
    if (!inv.terms[t]!.startsWith(q.prefix)) break;
    subs.push(new TermSpans(inv, t, off));
  }
  return subs.length === 0 ? null : subs.length === 1 ? subs[0]! : new OrSpans(subs);
}

/** SpanWeight.getSpans of a rewritten span query: null when nothing can match in the segment. */
export function getSpans(q: SpanQuery, seg: Segment): Spans | null {
  switch (q.kind) {
    case 'SpanTerm':
      return termSpans(seg, q.field, q.term);
    case 'SpanPrefixTerm':
      return prefixSpans(seg, q);
    case 'SpanNear': {
      if (q.field === null || !inverted(seg, q.field)) return null;
      const subs: Spans[] = [];
      for (const c of q.clauses) {
        const s = c.kind === 'SpanGap' ? new GapSpans(c.width) : getSpans(c, seg);
        if (!s) return null;
        subs.push(s);
      }
      if (subs.every((s) => s instanceof GapSpans)) return null;
      if (subs.length === 1) return subs[0]!;
      return q.inOrder ? new NearOrderedSpans(subs, q.slop) : new NearUnorderedSpans(subs, q.slop);
    }
    case 'SpanOr': {
      const subs: Spans[] = [];
      for (const c of q.clauses) {
        const s = getSpans(c, seg);
        if (s) subs.push(s);
      }
      return subs.length === 0 ? null : subs.length === 1 ? subs[0]! : new OrSpans(subs);
    }
    case 'SpanNot': {
      const include = getSpans(q.include, seg);
      if (!include) return null;
      const exclude = getSpans(q.exclude, seg);
      return exclude ? new FilterSpans(include, notAccept(exclude, q.pre, q.post)) : include;
    }
    case 'SpanFirst': {
      const m = getSpans(q.match, seg);
      return m ? new FilterSpans(m, firstAccept(q.end)) : null;
    }
    case 'SpanContaining':
    case 'SpanWithin': {
      const big = getSpans(q.big, seg);
      const little = big ? getSpans(q.little, seg) : null;
      if (!big || !little) return null;
      return q.kind === 'SpanContaining'
        ? new ContainingSpans(big, little)
        : new WithinSpans(big, little);
    }
    case 'SpanMask':
      return getSpans(q.inner, seg);
    case 'SpanGap':
    case 'SpanNone':
    case 'SpanMultiTerm':
      return null;
  }
}

/** Lucene SpanScorer: a doc's score from the sloppy frequency of its spans. */
export class SpanScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private freqDoc = -1;
  private freq = 0;
  constructor(
    private readonly spans: Spans,
    private readonly bm25: Bm25 | null,
    private readonly norms: Uint8Array | null,
    private readonly constant: number,
  ) {
    this.cost = spans.cost;
  }
  next(): number {
    return (this.doc = this.spans.nextDoc());
  }
  advance(target: number): number {
    return (this.doc = this.spans.advance(target));
  }
  /** SpanScorer.setFreqCurrentDoc: 1 / (width + 1) per match, summed in float. */
  sloppyFreq(): number {
    if (this.freqDoc !== this.doc) {
      const spans = this.spans;
      let freq = 0;
      while (spans.nextStartPosition() !== NO_MORE_POSITIONS) {
        freq = f(freq + f(1 / (spans.width() + 1)));
      }
      this.freq = freq;
      this.freqDoc = this.doc;
    }
    return this.freq;
  }
  score(): number {
    if (this.bm25 === null) return this.constant;
    const norms = this.norms;
    return this.bm25.score(this.sloppyFreq(), norms === null ? -1 : norms[this.doc]!);
  }
}

/** createWeight of a span query (the top one: it alone scores). */
export function spanWeight(q: SpanQuery, ctx: WeightContext, boost: number): Weight {
  let top = rewrite(q, ctx);
  // FieldMaskingSpanQuery.createWeight is the masked query's weight (its boost included)
  while (top.kind === 'SpanMask') {
    top = top.inner;
    boost = f(boost * top.boost);
  }
  const scoring = top;
  const sim = ctx.needsScores ? similarity(scoring, boost, ctx) : null;
  const field = spanField(scoring);
  const normsOf = (seg: Segment): Uint8Array | null =>
    sim !== null && sim.norms && field !== null ? (inverted(seg, field)?.norms ?? null) : null;
  const scorer = (ls: LiveSegment): SpanScorer | null => {
    const spans = getSpans(scoring, ls.segment);
    return spans ? new SpanScorer(spans, sim?.bm25 ?? null, normsOf(ls.segment), boost) : null;
  };
  return {
    scorer,
    explain(ls, doc) {
      const s = scorer(ls);
      if (!s || (s.doc < doc ? s.advance(doc) : s.doc) !== doc) return noMatch('no matching term');
      const desc = `weight(${spanToString(scoring)} in ${doc}) [PerFieldSimilarity], result of:`;
      if (sim === null) return expl(boost, desc);
      const norms = normsOf(ls.segment);
      const inner = sim.bm25.explain(doc, s.sloppyFreq(), norms === null ? -1 : norms[doc]!, 0, {
        freq: 'phraseFreq',
        idf: sim.idf,
      });
      return expl(inner.value, desc, [inner]);
    },
  };
}
