/**
 * significant_terms (ES SignificantTermsAggregationBuilder / GlobalOrdinalsSignificantTerms-,
 * SignificantLongTermsAggregator, InternalSignificantTerms): terms collected as by `terms`
 * (subset = the docs of the owning bucket), scored against background frequencies
 * (superset = the whole shard, maxDoc including deleted docs, or the docs matching
 * `background_filter`) with a significance heuristic (jlh by default, mutual_information,
 * chi_square, gnd, percentage, script_heuristic). Shards keep the top `shard_size` by score
 * (default 2 × (size × 1.5 + 10)); the reduce sums subset/superset sizes and frequencies,
 * rescores, and keeps the top `size` with score > 0 and doc_count ≥ min_doc_count (default 3).
 * Background frequencies follow ES: indexed-term fields (keyword, text, boolean) count the docs
 * holding the term including deleted ones (Lucene docFreq); other fields count live docs.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import { isLive, type LiveSegment } from '../../../search/index/live-segment.js';
import { compileScript, parseScriptSpec, type ScriptSpec } from '../../script/index.js';
import { NO_SCORES, ROOT_ORDS, type AggregatorContext } from '../collect/aggregator.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { isObj, parseObject, tokenOf, toBoolean } from '../parse/object-parser.js';
import { emptyValuesSource, valuesSourceDecls } from '../parse/values-source-params.js';
import { countInnerBuckets } from '../reduce/property.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { bucketCountDecls } from '../parse/bucket-count-thresholds.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { formatToString, RAW, type DocFormat } from '../support/doc-format.js';
import { jnum } from '../support/json.js';
import { mergeIncludeExclude, parseExclude, parseInclude } from '../support/include-exclude.js';
import { DEFAULT_TERMS_ORDER } from '../support/order.js';
import { topN } from '../support/top-n.js';
import { columnOf, resolveValues, type ResolvedValues } from '../support/values-source.js';
import type { AggNode, InternalAgg, InternalBucket, ReduceContext } from '../types.js';
import { DocMatcher } from './single-bucket.js';
import { TermsAggregator, type Candidate, type TermsParams } from './terms.js';

// ---- heuristics ---------------------------------------------------------------------------------

export type Heuristic =
  | { kind: 'jlh' }
  | { kind: 'percentage' }
  | {
      kind: 'mutual_information' | 'chi_square';
      includeNegatives: boolean;
      backgroundIsSuperset: boolean;
    }
  | { kind: 'gnd'; backgroundIsSuperset: boolean }
  | { kind: 'script_heuristic'; script: ScriptSpec };

type ScriptMethods = Record<string, (...args: unknown[]) => unknown>;

const SCORE_ERROR_MESSAGE =
  ', does your background filter not include all documents in the bucket? If so and it is intentional, set "background_is_superset": false';

function checkFrequencyValidity(
  subsetFreq: number,
  subsetSize: number,
  supersetFreq: number,
  supersetSize: number,
  name: string,
): void {
  if (subsetFreq < 0 || subsetSize < 0 || supersetFreq < 0 || supersetSize < 0) {
    throw illegalArgument(
      `Frequencies of subset and superset must be positive in ${name}.getScore()`,
    );
  }
  if (subsetFreq > subsetSize) throw illegalArgument(`subsetFreq > subsetSize, in ${name}`);
  if (supersetFreq > supersetSize) throw illegalArgument(`supersetFreq > supersetSize, in ${name}`);
}

interface Frequencies {
  N00: number;
  N01: number;
  N10: number;
  N11: number;
  N0_: number;
  N1_: number;
  N_0: number;
  N_1: number;
  N: number;
}

/** NXYSignificanceHeuristic.computeNxys. */
function computeNxys(
  subsetFreq: number,
  subsetSize: number,
  supersetFreq: number,
  supersetSize: number,
  backgroundIsSuperset: boolean,
  name: string,
): Frequencies {
  checkFrequencyValidity(subsetFreq, subsetSize, supersetFreq, supersetSize, name);
  if (backgroundIsSuperset) {
    if (subsetFreq > supersetFreq) {
      throw illegalArgument(`subsetFreq > supersetFreq${SCORE_ERROR_MESSAGE}`);
    }
    if (subsetSize > supersetSize) {
      throw illegalArgument(`subsetSize > supersetSize${SCORE_ERROR_MESSAGE}`);
    }
    if (supersetFreq - subsetFreq > supersetSize - subsetSize) {
      throw illegalArgument(
        `supersetFreq - subsetFreq > supersetSize - subsetSize${SCORE_ERROR_MESSAGE}`,
      );
    }
    return {
      N00: supersetSize - supersetFreq - (subsetSize - subsetFreq),
      N01: subsetSize - subsetFreq,
      N10: supersetFreq - subsetFreq,
      N11: subsetFreq,
      N0_: supersetSize - supersetFreq,
      N1_: supersetFreq,
      N_0: supersetSize - subsetSize,
      N_1: subsetSize,
      N: supersetSize,
    };
  }
  return {
    N00: supersetSize - supersetFreq,
    N01: subsetSize - subsetFreq,
    N10: supersetFreq,
    N11: subsetFreq,
    N0_: supersetSize - supersetFreq + subsetSize - subsetFreq,
    N1_: supersetFreq + subsetFreq,
    N_0: supersetSize,
    N_1: subsetSize,
    N: supersetSize + subsetSize,
  };
}

function miTerm(Nxy: number, Nx_: number, N_y: number, N: number): number {
  const numerator = Math.abs(N * Nxy);
  const denominator = Math.abs(Nx_ * N_y);
  const factor = Math.abs(Nxy / N);
  if (numerator < 1e-7 && factor < 1e-7) return 0.0;
  return factor * Math.log(numerator / denominator);
}

const scriptCache = new WeakMap<ScriptSpec, (vars: Record<string, unknown>) => unknown>();

/** SignificanceHeuristic.getScore of each heuristic, as ES 6.8 computes it. */
export function significanceScore(
  h: Heuristic,
  subsetFreq: number,
  subsetSize: number,
  supersetFreq: number,
  supersetSize: number,
  methods?: ScriptMethods,
): number {
  switch (h.kind) {
    case 'jlh': {
      checkFrequencyValidity(subsetFreq, subsetSize, supersetFreq, supersetSize, 'JLHScore');
      if (subsetSize === 0 || supersetSize === 0) return 0;
      if (supersetFreq === 0) supersetFreq = 1;
      const subsetProbability = subsetFreq / subsetSize;
      const supersetProbability = supersetFreq / supersetSize;
      const absoluteProbabilityChange = subsetProbability - supersetProbability;
      if (absoluteProbabilityChange <= 0) return 0;
      const relativeProbabilityChange = subsetProbability / supersetProbability;
      return absoluteProbabilityChange * relativeProbabilityChange;
    }
    case 'percentage':
      checkFrequencyValidity(subsetFreq, subsetSize, supersetFreq, supersetSize, 'PercentageScore');
      if (supersetFreq === 0) return 0;
      return subsetFreq / supersetFreq;
    case 'mutual_information': {
      const f = computeNxys(
        subsetFreq,
        subsetSize,
        supersetFreq,
        supersetSize,
        h.backgroundIsSuperset,
        'MutualInformation',
      );
      let score =
        (miTerm(f.N00, f.N0_, f.N_0, f.N) +
          miTerm(f.N01, f.N0_, f.N_1, f.N) +
          miTerm(f.N10, f.N1_, f.N_0, f.N) +
          miTerm(f.N11, f.N1_, f.N_1, f.N)) /
        Math.log(2.0);
      if (Number.isNaN(score)) score = -Infinity;
      if (!h.includeNegatives && f.N11 / f.N_1 < f.N10 / f.N_0) score = -Infinity;
      return score;
    }
    case 'chi_square': {
      const f = computeNxys(
        subsetFreq,
        subsetSize,
        supersetFreq,
        supersetSize,
        h.backgroundIsSuperset,
        'ChiSquare',
      );
      if (!h.includeNegatives && f.N11 / f.N_1 < f.N10 / f.N_0) return -Infinity;
      return (f.N * Math.pow(f.N11 * f.N00 - f.N01 * f.N10, 2.0)) / (f.N_1 * f.N1_ * f.N0_ * f.N_0);
    }
    case 'gnd': {
      const f = computeNxys(
        subsetFreq,
        subsetSize,
        supersetFreq,
        supersetSize,
        h.backgroundIsSuperset,
        'GND',
      );
      const fx = f.N1_;
      const fy = f.N_1;
      const fxy = f.N11;
      const N = f.N;
      if (fxy === 0) return 0.0;
      if (fx === fy && fx === fxy) return 1.0;
      const score =
        (Math.max(Math.log(fx), Math.log(fy)) - Math.log(fxy)) /
        (Math.log(N) - Math.min(Math.log(fx), Math.log(fy)));
      return Math.exp(-1.0 * score);
    }
    case 'script_heuristic': {
      let run = scriptCache.get(h.script);
      if (!run) {
        const compiled = compileScript(h.script.source, {
          lang: h.script.lang,
          params: h.script.params,
          ...(methods ? { methods } : {}),
        });
        run = (vars) => compiled.evaluate(vars);
        scriptCache.set(h.script, run);
      }
      const v = run({
        params: {
          ...h.script.params,
          _subset_freq: subsetFreq,
          _subset_size: subsetSize,
          _superset_freq: supersetFreq,
          _superset_size: supersetSize,
        },
      });
      return typeof v === 'number' ? v : Number(v);
    }
  }
}

function heuristicParseError(message: string): EsError {
  return new EsError('parse_exception', message, 400);
}

function firstToken(o: Record<string, unknown>): string {
  return Object.keys(o).length > 0 ? 'FIELD_NAME' : 'END_OBJECT';
}

export function parseHeuristic(kind: Heuristic['kind'], v: unknown): Heuristic {
  const o = v as Record<string, unknown>;
  switch (kind) {
    case 'jlh':
      if (Object.keys(o).length > 0) {
        throw heuristicParseError(
          `failed to parse [jlh] significance heuristic. expected an empty object, but found [${firstToken(o)}] instead`,
        );
      }
      return { kind };
    case 'percentage':
      if (Object.keys(o).length > 0) {
        throw heuristicParseError(
          `failed to parse [percentage] significance heuristic. expected an empty object, but got [${firstToken(o)}] instead`,
        );
      }
      return { kind };
    case 'mutual_information':
    case 'chi_square':
    case 'gnd': {
      let includeNegatives = false;
      let backgroundIsSuperset = true;
      for (const [k, x] of Object.entries(o)) {
        if (k === 'include_negatives' && kind !== 'gnd') includeNegatives = toBoolean(x);
        else if (k === 'background_is_superset') backgroundIsSuperset = toBoolean(x);
        else {
          throw heuristicParseError(
            `failed to parse [${kind}] significance heuristic. unknown field [${k}]`,
          );
        }
      }
      return kind === 'gnd'
        ? { kind, backgroundIsSuperset }
        : { kind, includeNegatives, backgroundIsSuperset };
    }
    case 'script_heuristic': {
      let script: ScriptSpec | null = null;
      for (const [k, x] of Object.entries(o)) {
        if (k === 'script') script = parseScriptSpec(x);
        else {
          throw heuristicParseError(
            `failed to parse [script_heuristic] significance heuristic. unknown object [${k}]`,
          );
        }
      }
      if (!script) {
        throw heuristicParseError(
          'failed to parse [script_heuristic] significance heuristic. no script found in script_heuristic',
        );
      }
      return { kind, script };
    }
  }
}

// ---- parse --------------------------------------------------------------------------------------

interface SigParams extends TermsParams {
  heuristic: Heuristic;
  backgroundFilter: unknown;
}

export const HEURISTICS: Heuristic['kind'][] = [
  'jlh',
  'mutual_information',
  'chi_square',
  'gnd',
  'percentage',
  'script_heuristic',
];

function parseSignificantTerms(json: unknown, name: string): SigParams {
  const p: SigParams = {
    source: emptyValuesSource(),
    size: 10,
    shardSize: -1,
    minDocCount: 3,
    shardMinDocCount: 0,
    order: DEFAULT_TERMS_ORDER,
    includeExclude: null,
    showTermDocCountError: false,
    executionHint: null,
    heuristic: { kind: 'jlh' },
    backgroundFilter: null,
  };
  parseObject('significant_terms', json, [
    ...valuesSourceDecls('significant_terms', p.source),
    ...bucketCountDecls(p, name),
    { names: ['execution_hint'], kind: 'string', set: (v) => (p.executionHint = v as string) },
    { names: ['background_filter'], kind: 'object', set: (v) => (p.backgroundFilter = v) },
    {
      names: ['include'],
      kind: 'object_array_or_string',
      set: (v) => (p.includeExclude = mergeIncludeExclude(parseInclude(v), p.includeExclude)),
    },
    {
      names: ['exclude'],
      kind: 'value_array',
      set: (v) => (p.includeExclude = mergeIncludeExclude(p.includeExclude, parseExclude(v))),
    },
    ...HEURISTICS.map((h) => ({
      names: [h],
      kind: 'object' as const,
      set: (v: unknown) => (p.heuristic = parseHeuristic(h, v)),
    })),
  ]);
  if (!isObj(json)) {
    throw new EsError('parsing_exception', `Unexpected token ${tokenOf(json)}`, 400);
  }
  return p;
}

// ---- shard side ---------------------------------------------------------------------------------

type SigKind = 'string' | 'long' | 'unmapped';

export interface SigBucket extends InternalBucket {
  term: string | number;
  /** Display key (getKeyAsString) for string terms, the number otherwise. */
  key: string | number;
  /** subsetDf is docCount */
  supersetDf: number;
  subsetSize: number;
  supersetSize: number;
  score: number;
}

export interface InternalSignificantTerms extends InternalAgg {
  kind: SigKind;
  format: DocFormat;
  requiredSize: number;
  minDocCount: number;
  heuristic: Heuristic;
  subsetSize: number;
  supersetSize: number;
  buckets: SigBucket[];
}

const byScore = (a: SigBucket, b: SigBucket) =>
  b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Term types whose background frequency is Lucene's docFreq (a TermQuery): deleted docs count. */
const INDEXED_TERM_TYPES = new Set(['keyword', 'text', 'boolean']);

class SignificantTermsAggregator extends TermsAggregator {
  private collected = new Float64Array(16);
  private readonly sp: SigParams;
  private background: Map<string | number, number> | null = null;
  private bgSize = -1;

  constructor(
    node: AggNode,
    ac: AggregatorContext,
    subs: ReturnType<typeof createSubAggregators>,
    rv: ResolvedValues | null,
  ) {
    super(node, ac, subs, rv);
    this.sp = node.params as SigParams;
    if (rv && rv.kind !== 'bytes' && rv.floating) {
      throw new EsError(
        'unsupported_operation_exception',
        'No support for examining floating point numerics',
        500,
      );
    }
    // The user did not pick a shard size: twice the usual one (BucketUtils.suggestShardSideQueueSize)
    this.shardSize =
      this.sp.shardSize === -1 ? 2 * Math.trunc(this.sp.size * 1.5 + 10) : this.sp.shardSize;
  }

  override collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    let c = this.collected;
    for (let i = 0; i < n; i++) {
      const o = ords[i]!;
      if (o >= c.length) {
        const next = new Float64Array(Math.max(o + 1, c.length * 2));
        next.set(c);
        c = this.collected = next;
      }
      c[o]!++;
    }
    super.collect(docs, ords, n, scores);
  }

  /** Subset sizes are counted in collect(): no root shortcut. */
  override collectRoot(docs: Int32Array, n: number): void {
    this.collect(docs, ROOT_ORDS, n, NO_SCORES);
  }

  private subsetSizeOf(owner: number): number {
    return owner < this.collected.length ? this.collected[owner]! : 0;
  }

  private supersetSize(): number {
    if (this.bgSize >= 0) return this.bgSize;
    const snap = this.ac.shard.snapshot;
    if (this.sp.backgroundFilter === null) return (this.bgSize = snap.maxDoc);
    let n = 0;
    for (const ls of snap.segments) {
      const m = this.backgroundMatcher(ls);
      for (let d = 0; d < ls.segment.maxDoc; d++) if (isLive(ls, d) && m!.matches(d)) n++;
    }
    return (this.bgSize = n);
  }

  private backgroundMatcher(ls: LiveSegment): DocMatcher | null {
    if (this.sp.backgroundFilter === null) return null;
    const m = new DocMatcher(this.ac.shard.compileQuery(this.sp.backgroundFilter));
    m.setSegment(ls);
    return m;
  }

  /** Background frequency of every term of the field on this shard (computed once). */
  private backgroundFrequencies(): Map<string | number, number> {
    if (this.background) return this.background;
    const out = new Map<string | number, number>();
    const field = this.rv?.field;
    if (!field) return (this.background = out);
    const liveOnly = this.sp.backgroundFilter !== null || !INDEXED_TERM_TYPES.has(field.type);
    for (const ls of this.ac.shard.snapshot.segments) {
      const col = columnOf(ls, field);
      if (!col) continue;
      const matcher = this.backgroundMatcher(ls);
      const maxDoc = ls.segment.maxDoc;
      if (col.kind === 'ordinal') {
        const counts = new Float64Array(col.dict.length);
        for (let d = 0; d < maxDoc; d++) {
          if (liveOnly && !isLive(ls, d)) continue;
          if (matcher && !matcher.matches(d)) continue;
          if (col.single) {
            const o = col.single[d]!;
            if (o >= 0) counts[o]!++;
          } else {
            const s = col.offsets![d]!;
            const e = col.offsets![d + 1]!;
            for (let j = s; j < e; j++)
              if (j === s || col.ords![j] !== col.ords![j - 1]) counts[col.ords![j]!]!++;
          }
        }
        for (let o = 0; o < counts.length; o++) {
          if (counts[o]! > 0) out.set(col.dict[o]!, (out.get(col.dict[o]!) ?? 0) + counts[o]!);
        }
      } else {
        const add = (v: number) => out.set(v, (out.get(v) ?? 0) + 1);
        for (let d = 0; d < maxDoc; d++) {
          if (liveOnly && !isLive(ls, d)) continue;
          if (matcher && !matcher.matches(d)) continue;
          if (col.single) {
            const v = col.single[d]!;
            if (v === v) add(v);
          } else {
            const s = col.offsets![d]!;
            const e = col.offsets![d + 1]!;
            for (let j = s; j < e; j++)
              if (j === s || col.values![j] !== col.values![j - 1]) add(col.values![j]!);
          }
        }
      }
    }
    return (this.background = out);
  }

  private sigKind(): SigKind {
    return !this.rv ? 'unmapped' : this.rv.kind === 'bytes' ? 'string' : 'long';
  }

  override build(owner: number): InternalSignificantTerms {
    if (!this.rv) return this.buildEmpty();
    const subsetSize = this.subsetSizeOf(owner);
    const supersetSize = this.supersetSize();
    const background = this.backgroundFrequencies();
    let cands: Candidate[] = this.bucketsOf(owner).map((ord) => ({
      ord,
      term: this.keyOf(ord),
      count: this.docCount(ord),
    }));
    if (this.p.minDocCount === 0) {
      const present = new Set<string | number>(cands.map((c) => c.term));
      cands.push(...this.zeroCandidates(present, cands.length));
    }
    cands = cands.filter(
      (c) => !(this.p.minDocCount > 0 && c.count === 0) && c.count >= this.p.shardMinDocCount,
    );
    const fmt = this.rv.format;
    const methods = this.ac.shard.scriptMethods;
    const scored: Array<SigBucket & { ord: number }> = cands.map((c) => {
      const supersetDf = background.get(c.term) ?? 0;
      return {
        ord: c.ord,
        term: c.term,
        key: typeof c.term === 'string' ? fmt.formatTerm(c.term) : c.term,
        docCount: c.count,
        supersetDf,
        subsetSize,
        supersetSize,
        score: significanceScore(
          this.sp.heuristic,
          c.count,
          subsetSize,
          supersetDf,
          supersetSize,
          methods,
        ),
        aggs: [],
      };
    });
    const top = topN(scored, Math.min(scored.length, this.shardSize), byScore);
    for (let i = 0; i < top.length; i++) this.ac.consumer.accept(1);
    const buckets = top.map(({ ord, ...b }) => ({
      ...b,
      aggs: ord >= 0 && b.docCount > 0 ? this.subResults(ord) : this.emptySubResults(),
    }));
    return this.sigResult(subsetSize, supersetSize, buckets);
  }

  override buildEmpty(): InternalSignificantTerms {
    // ES: the corpus size gives context to a miss
    return this.sigResult(0, this.ac.shard.snapshot.numDocs, []);
  }

  private sigResult(
    subsetSize: number,
    supersetSize: number,
    buckets: SigBucket[],
  ): InternalSignificantTerms {
    return {
      spec: 'significant_terms',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      kind: this.sigKind(),
      format: this.rv?.format ?? RAW,
      requiredSize: this.sp.size,
      minDocCount: this.sp.minDocCount,
      heuristic: this.sp.heuristic,
      subsetSize: this.rv ? subsetSize : 0,
      supersetSize: this.rv ? supersetSize : 0,
      buckets,
    };
  }
}

// ---- reduce and render --------------------------------------------------------------------------

function keyString(t: InternalSignificantTerms, b: SigBucket): string {
  if (typeof b.term === 'string') return String(b.key);
  return t.format === RAW ? String(b.term) : formatToString(t.format, b.term);
}

function reduceSignificantTerms(
  parts: InternalSignificantTerms[],
  rc: ReduceContext,
): InternalSignificantTerms {
  const mapped = parts.filter((p) => p.kind !== 'unmapped');
  if (mapped.length === 0) return parts[0]!;
  const reference = mapped[0]!;
  let subsetSize = 0;
  let supersetSize = 0;
  for (const p of parts) {
    subsetSize += p.subsetSize;
    supersetSize += p.supersetSize;
  }
  const groups = new Map<string, SigBucket[]>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const k = keyString(p, b);
      const g = groups.get(k);
      if (g) g.push(b);
      else groups.set(k, [b]);
    }
  }
  const methods = rc.scriptMethods as ScriptMethods | undefined;
  const kept: SigBucket[] = [];
  const dropped: SigBucket[] = [];
  for (const g of groups.values()) {
    let subsetDf = 0;
    let supersetDf = 0;
    for (const b of g) {
      subsetDf += b.docCount;
      supersetDf += b.supersetDf;
    }
    const b: SigBucket = {
      ...g[0]!,
      docCount: subsetDf,
      supersetDf,
      subsetSize,
      supersetSize,
      aggs: reduceAggList(
        g.map((x) => x.aggs),
        rc,
      ),
      score: significanceScore(
        reference.heuristic,
        subsetDf,
        subsetSize,
        supersetDf,
        supersetSize,
        methods,
      ),
    };
    if (b.score > 0 && b.docCount >= reference.minDocCount) kept.push(b);
    else dropped.push(b);
  }
  const top = topN(kept, Math.min(reference.requiredSize, kept.length), byScore);
  const topSet = new Set(top);
  for (const b of [...kept, ...dropped])
    if (!topSet.has(b)) rc.consumer.accept(-countInnerBuckets(b));
  for (let i = 0; i < top.length; i++) rc.consumer.accept(1);
  return { ...reference, subsetSize, supersetSize, buckets: top };
}

function renderSignificantTerms(
  t: InternalSignificantTerms,
  rc: ReduceContext,
): Record<string, unknown> {
  if (t.kind === 'unmapped') return { buckets: [] };
  return {
    doc_count: t.subsetSize,
    bg_count: t.supersetSize,
    buckets: t.buckets
      .filter((b) => b.docCount >= t.minDocCount)
      .map((b) => {
        const out: Record<string, unknown> = {};
        if (typeof b.term === 'string') out.key = b.key;
        else {
          out.key = b.term;
          if (t.format !== RAW) out.key_as_string = formatToString(t.format, b.term);
        }
        out.doc_count = b.docCount;
        out.score = jnum(b.score);
        out.bg_count = b.supersetDf;
        return renderAggs(b.aggs, rc, out);
      }),
  };
}

const result: ResultSpec<InternalSignificantTerms> = {
  reduce: reduceSignificantTerms,
  render: renderSignificantTerms,
  // ES UnmappedSignificantTerms.getType() is SignificantStringTerms.NAME
  typedType: (t) => (t.kind === 'long' ? 'siglterms' : 'sigsterms'),
  keyAsString: (t, b) => {
    const sb = b as SigBucket;
    if (typeof sb.term === 'string') return String(sb.key);
    return t.format === RAW ? String(sb.term) : formatToString(t.format, sb.term);
  },
};

registerAgg<SigParams>(
  {
    type: 'significant_terms',
    category: 'bucket',
    leaf: false,
    factoryName: 'SignificantTermsAggregatorFactory',
    parse: (json, name) => parseSignificantTerms(json, name),
    create: (node, ac, space) => {
      const p = node.params as SigParams;
      const rv = resolveValues(p.source, ac.shard, null, node.name);
      return new SignificantTermsAggregator(node, ac, createSubAggregators(node, ac, space), rv);
    },
  },
  result,
);
