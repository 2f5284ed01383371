/**
 * significant_text (ES SignificantTextAggregationBuilder / SignificantTextAggregator): like
 * significant_terms, but the terms come from re-analysing each collected doc's `_source` text
 * (`source_fields`, default the field) with the field's index analyzer, each term counted once
 * per doc. `filter_duplicate_text` drops token runs repeated from earlier docs of the same bucket
 * (DeDuplicatingTokenFilter). Background frequencies are the indexed field's docFreq (or the
 * count of background_filter ∧ term) against maxDoc; results are significant_terms results.
 */
import { illegalArgument } from '../../../common/errors.js';
import type { FieldMapping } from '../../../mapping/types.js';
import { isLive } from '../../../search/index/live-segment.js';
import { shardStats } from '../../../search/query/stats.js';
import {
  BucketsAggregator,
  type Aggregator,
  type AggregatorContext,
  type AggSegment,
} from '../collect/aggregator.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { bucketCountDecls } from '../parse/bucket-count-thresholds.js';
import { isObj, parseObject, tokenOf } from '../parse/object-parser.js';
import { registerAgg } from '../registry.js';
import { RAW } from '../support/doc-format.js';
import { murmur3x64h1, utf8 } from '../support/hash64.js';
import {
  mergeIncludeExclude,
  parseExclude,
  parseInclude,
  stringFilter,
  type IncludeExclude,
} from '../support/include-exclude.js';
import { topN } from '../support/top-n.js';
import type { AggNode } from '../types.js';
import { DocMatcher } from './single-bucket.js';
import {
  HEURISTICS,
  parseHeuristic,
  significanceScore,
  type Heuristic,
  type InternalSignificantTerms,
  type SigBucket,
} from './significant-terms.js';

export interface SigTextParams {
  field: string | null;
  sourceFields: string[] | null;
  filterDuplicateText: boolean;
  size: number;
  shardSize: number;
  minDocCount: number;
  shardMinDocCount: number;
  includeExclude: IncludeExclude | null;
  backgroundFilter: unknown;
  heuristic: Heuristic;
}

// ---- duplicate text -----------------------------------------------------------------------------

/** DuplicateByteSequenceSpotter.TREE_DEPTH: runs of 6 tokens are compared. */
export const DEDUP_WINDOW = 6;
const MAX_HIT_COUNT = 255;

/**
 * DuplicateByteSequenceSpotter: each token is reduced to one byte of its hash and every run of
 * DEDUP_WINDOW bytes is counted; `add` returns how often the run ending here was seen before.
 * (ES keeps the runs in a byte trie; a map of the 48-bit run is the same count.)
 */
export class DuplicateSequenceSpotter {
  private readonly seen = new Map<number, number>();
  private readonly window = new Uint8Array(DEDUP_WINDOW);
  private filled = 0;
  private next = 0;

  startNewSequence(): void {
    this.filled = 0;
    this.next = 0;
  }

  add(b: number): number {
    this.window[this.next] = b;
    this.next = (this.next + 1) % DEDUP_WINDOW;
    if (this.filled < DEDUP_WINDOW) this.filled++;
    if (this.filled < DEDUP_WINDOW) return 0;
    let key = 0;
    for (let i = 0, p = this.next; i < DEDUP_WINDOW; i++, p = (p + 1) % DEDUP_WINDOW)
      key = key * 256 + this.window[p]!;
    const prior = this.seen.get(key) ?? 0;
    if (prior < MAX_HIT_COUNT) this.seen.set(key, prior + 1);
    return prior;
  }
}

/** The low byte of the token's MurmurHash3 x64 128 h1 (DeDuplicatingTokenFilter). */
export function tokenByte(term: string): number {
  const b = utf8(term);
  return murmur3x64h1(b, 0, b.length, 0).lo & 0xff;
}

/**
 * DeDuplicatingTokenFilter over one token stream: tokens that belong to a run of DEDUP_WINDOW
 * tokens already seen (in this or an earlier text fed to `spotter`) are dropped.
 */
export function dedupTokens(
  tokens: readonly string[],
  spotter: DuplicateSequenceSpotter,
): string[] {
  const sightings = new Uint16Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const n = spotter.add(tokenByte(tokens[i]!));
    if (n >= 1)
      for (let j = Math.max(0, i - DEDUP_WINDOW + 1); j <= i; j++)
        if (sightings[j]! < n) sightings[j] = n;
  }
  return tokens.filter((_, i) => sightings[i] === 0);
}

// ---- source values ------------------------------------------------------------------------------

/** SourceLookup.extractRawValues: the values at a dotted path, arrays flattened. */
export function extractRawValues(source: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown, parts: readonly string[], i: number) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, parts, i);
      return;
    }
    if (i === parts.length) {
      out.push(v);
      return;
    }
    if (typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    // a dotted key written as is ("a.b": ...) matches as well as nested objects
    for (let j = parts.length; j > i; j--) {
      const k = parts.slice(i, j).join('.');
      if (k in o) walk(o[k], parts, j);
    }
  };
  walk(source, path.split('.'), 0);
  return out;
}

// ---- shard side ---------------------------------------------------------------------------------

/** Per owning bucket: term → bucket ordinal, docs collected and the duplicate spotter. */
interface OwnerState {
  readonly buckets: Map<string, number>;
  collected: number;
  readonly spotter: DuplicateSequenceSpotter | null;
}

class SignificantTextAggregator extends BucketsAggregator {
  private readonly owners: (OwnerState | undefined)[] = [];
  private nextBucket = 0;
  private seg: AggSegment | null = null;
  private readonly filter: ((t: string) => boolean) | null;
  private readonly sourceFields: readonly string[];
  private bgSize = -1;
  private readonly bgFreq = new Map<string, number>();
  private stats: ReturnType<typeof shardStats> | null = null;

  constructor(
    node: AggNode,
    private readonly ac: AggregatorContext,
    subs: Aggregator[],
    private readonly field: FieldMapping | undefined,
  ) {
    super(node, subs);
    const p = this.params;
    this.filter = p.includeExclude ? stringFilter(p.includeExclude, RAW) : null;
    this.sourceFields = p.sourceFields ?? [p.field!];
  }

  private get params(): SigTextParams {
    return this.node.params as SigTextParams;
  }

  private get shardSize(): number {
    const p = this.params;
    // BucketUtils.suggestShardSideQueueSize, doubled as for significant_terms
    return p.shardSize === -1 ? 2 * Math.trunc(p.size * 1.5 + 10) : p.shardSize;
  }

  override setSegment(seg: AggSegment): void {
    super.setSegment(seg);
    this.seg = seg;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const field = this.field;
    if (!field)
      throw illegalArgument(
        `Aggregation [${this.node.name}] cannot process field [${this.params.field}] since it is not present`,
      );
    const shard = this.ac.shard;
    if (!shard.sourceOf || !shard.indexAnalyzer)
      throw illegalArgument('significant_text needs document sources on this shard');
    const analyzer = shard.indexAnalyzer(field);
    const ls = this.seg!.ls;
    const inDoc = new Set<string>();
    const tokens: string[] = [];
    const sink = (t: string) => void tokens.push(t);
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const owner = ords[i]!;
      let st = this.owners[owner];
      if (!st)
        this.owners[owner] = st = {
          buckets: new Map(),
          collected: 0,
          spotter: this.params.filterDuplicateText ? new DuplicateSequenceSpotter() : null,
        };
      const source = shard.sourceOf(ls, doc);
      inDoc.clear();
      for (const sf of this.sourceFields) {
        for (const v of extractRawValues(source, sf)) {
          tokens.length = 0;
          analyzer.analyze(typeof v === 'string' ? v : JSON.stringify(v), sink);
          const kept = st.spotter ? dedupTokens(tokens, st.spotter) : tokens;
          for (const t of kept) {
            if (inDoc.has(t)) continue;
            inDoc.add(t);
            if (this.filter && !this.filter(t)) continue;
            let b = st.buckets.get(t);
            if (b === undefined) st.buckets.set(t, (b = this.nextBucket++));
            this.collectBucket(doc, b, scores[i]!);
          }
        }
      }
      st.collected++;
      st.spotter?.startNewSequence();
    }
    this.sub.flush();
  }

  /** maxDoc, or the docs matching background_filter (SignificantTextAggregatorFactory). */
  private supersetSize(): number {
    if (this.bgSize >= 0) return this.bgSize;
    const snap = this.ac.shard.snapshot;
    const bf = this.params.backgroundFilter;
    if (bf === null) return (this.bgSize = snap.maxDoc);
    return (this.bgSize = this.countMatching(bf));
  }

  private countMatching(query: unknown): number {
    const m = new DocMatcher(this.ac.shard.compileQuery(query));
    let n = 0;
    for (const ls of this.ac.shard.snapshot.segments) {
      m.setSegment(ls);
      for (let d = 0; d < ls.segment.maxDoc; d++) if (isLive(ls, d) && m.matches(d)) n++;
    }
    return n;
  }

  /** The term's docFreq in the indexed field, or its count within background_filter. */
  private backgroundFrequency(term: string): number {
    let f = this.bgFreq.get(term);
    if (f !== undefined) return f;
    const field = this.field!.path;
    const bf = this.params.backgroundFilter;
    if (bf === null) {
      this.stats ??= shardStats(this.ac.shard.snapshot);
      f = this.stats.term(field, term).docFreq;
    } else f = this.countMatching({ bool: { filter: [bf, { term: { [field]: term } }] } });
    this.bgFreq.set(term, f);
    return f;
  }

  build(owner: number): InternalSignificantTerms {
    const st = this.owners[owner];
    if (!st) return this.result(0, this.supersetSize(), []);
    const p = this.params;
    const subsetSize = st.collected;
    const supersetSize = this.supersetSize();
    const methods = this.ac.shard.scriptMethods;
    const scored: Array<SigBucket & { ord: number }> = [];
    for (const [term, ord] of st.buckets) {
      const docCount = this.docCount(ord);
      if (docCount < p.shardMinDocCount) continue;
      const supersetDf = this.backgroundFrequency(term);
      scored.push({
        ord,
        term,
        key: term,
        docCount,
        supersetDf,
        subsetSize,
        supersetSize,
        score: significanceScore(
          p.heuristic,
          docCount,
          subsetSize,
          supersetDf,
          supersetSize,
          methods,
        ),
        aggs: [],
      });
    }
    const byScore = (a: SigBucket, b: SigBucket) =>
      b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    const top = topN(scored, Math.min(scored.length, this.shardSize), byScore);
    for (let i = 0; i < top.length; i++) this.ac.consumer.accept(1);
    const buckets = top.map(({ ord, ...b }) => ({ ...b, aggs: this.subResults(ord) }));
    return this.result(subsetSize, supersetSize, buckets);
  }

  buildEmpty(): InternalSignificantTerms {
    return this.result(0, this.ac.shard.snapshot.numDocs, []);
  }

  private result(
    subsetSize: number,
    supersetSize: number,
    buckets: SigBucket[],
  ): InternalSignificantTerms {
    const p = this.params;
    return {
      spec: 'significant_terms',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      kind: 'string',
      format: RAW,
      requiredSize: p.size,
      minDocCount: p.minDocCount,
      heuristic: p.heuristic,
      subsetSize,
      supersetSize,
      buckets,
    };
  }
}

// ---- parse --------------------------------------------------------------------------------------

export function parseSignificantText(json: unknown, name: string): SigTextParams {
  if (!isObj(json)) throw illegalArgument(`Unexpected token ${tokenOf(json)} in [${name}].`);
  const p: SigTextParams = {
    field: null,
    sourceFields: null,
    filterDuplicateText: false,
    size: 10,
    shardSize: -1,
    minDocCount: 3,
    shardMinDocCount: 0,
    includeExclude: null,
    backgroundFilter: null,
    heuristic: { kind: 'jlh' },
  };
  parseObject('significant_text', json, [
    { names: ['field'], kind: 'string', set: (v) => (p.field = v as string) },
    {
      names: ['source_fields'],
      kind: 'string_array',
      set: (v) => (p.sourceFields = (Array.isArray(v) ? v : [v]).map(String)),
    },
    {
      names: ['filter_duplicate_text'],
      kind: 'boolean',
      set: (v) => (p.filterDuplicateText = v as boolean),
    },
    ...bucketCountDecls(p, name),
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
  if (p.field === null) throw illegalArgument('[field] must not be null: [' + name + ']');
  return p;
}

registerAgg<SigTextParams>({
  type: 'significant_text',
  category: 'bucket',
  leaf: false,
  factoryName: 'SignificantTextAggregatorFactory',
  parse: (json, name) => parseSignificantText(json, name),
  create: (node, ac, space) => {
    const p = node.params as SigTextParams;
    return new SignificantTextAggregator(
      node,
      ac,
      createSubAggregators(node, ac, space),
      ac.shard.field(p.field!),
    );
  },
});
