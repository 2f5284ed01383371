/**
 * sampler and diversified_sampler (ES SamplerAggregator, BestDocsDeferringCollector,
 * DiversifiedAggregationBuilder): per owning bucket, the `shard_size` (default 100) best-scoring
 * docs of the shard are kept (ties: lower doc first, as Lucene's TopScoreDocCollector) and, once
 * collection is over, replayed in doc order to the sub-aggregations. diversified_sampler also
 * keeps at most `max_docs_per_value` (default 1) docs per value of a single-valued field or
 * script (Lucene DiversifiedTopDocsCollector). Both render as a single bucket typed `sampler`.
 */
import { illegalArgument } from '../../../common/errors.js';
import {
  BucketsAggregator,
  type Aggregator,
  type AggregatorContext,
  type AggSegment,
} from '../collect/aggregator.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { parseObject } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { registerAgg, registerResult, type ResultSpec } from '../registry.js';
import {
  BytesReader,
  NumericReader,
  resolveValues,
  type ResolvedValues,
} from '../support/values-source.js';
import type { AggNode, InternalAgg, ReduceContext, SingleBucketInternal } from '../types.js';

export const DEFAULT_SHARD_SAMPLE_SIZE = 100;
export const DEFAULT_MAX_DOCS_PER_VALUE = 1;

/** One sampled doc: its segment (index into the aggregator's list), doc, score and shard doc. */
interface Sampled {
  seg: number;
  doc: number;
  score: number;
  /** docBase + doc: the tie-break across segments. */
  global: number;
  /** Diversity key (diversified_sampler). */
  key: unknown;
  /** Position in the global heap (kept up to date for removals). */
  pos: number;
}

/** Worse first: lower score, then higher doc (a min-heap root is the first to go). */
const worse = (a: Sampled, b: Sampled): boolean =>
  a.score < b.score || (a.score === b.score && a.global > b.global);

/** A bounded min-heap of sampled docs supporting removal of any entry. */
export class SampleHeap {
  readonly items: Sampled[] = [];
  constructor(readonly capacity: number) {}
  get full(): boolean {
    return this.items.length >= this.capacity;
  }
  get top(): Sampled | undefined {
    return this.items[0];
  }
  /** Whether (score, global) would make it into a full heap. */
  competitive(score: number, global: number): boolean {
    const t = this.items[0];
    return !t || score > t.score || (score === t.score && global < t.global);
  }
  push(s: Sampled): void {
    s.pos = this.items.length;
    this.items.push(s);
    this.up(s.pos);
  }
  remove(s: Sampled): void {
    const last = this.items.pop()!;
    if (last === s) return;
    this.items[s.pos] = last;
    last.pos = s.pos;
    this.down(last.pos);
    this.up(last.pos);
  }
  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    a.pos = j;
    b.pos = i;
  }
  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(this.items[i]!, this.items[p]!)) break;
      this.swap(i, p);
      i = p;
    }
  }
  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let m = l;
      if (l + 1 < n && worse(this.items[l + 1]!, this.items[l]!)) m = l + 1;
      if (!worse(this.items[m]!, this.items[i]!)) break;
      this.swap(i, m);
      i = m;
    }
  }
}

/**
 * The best docs of one owning bucket. Without diversity a plain top-N; with it, per-key
 * sub-heaps bound the docs of each value (Lucene DiversifiedTopDocsCollector).
 */
export class BestDocs {
  private readonly all: SampleHeap;
  private readonly perKey: Map<unknown, SampleHeap> | null;
  constructor(
    size: number,
    private readonly maxPerKey: number | null,
  ) {
    this.all = new SampleHeap(size);
    this.perKey = maxPerKey === null ? null : new Map();
  }

  offer(seg: number, doc: number, score: number, global: number, key: unknown): void {
    if (this.all.full && !this.all.competitive(score, global)) return;
    const s: Sampled = { seg, doc, score, global, key, pos: -1 };
    if (!this.perKey) {
      if (this.all.full) this.all.remove(this.all.top!);
      this.all.push(s);
      return;
    }
    let kq = this.perKey.get(key);
    if (kq && kq.full) {
      // the key has its quota: the new doc only replaces the key's worst
      if (!kq.competitive(score, global)) return;
      const out = kq.top!;
      kq.remove(out);
      this.all.remove(this.atGlobal(out));
    } else if (this.all.full) {
      const out = this.all.top!;
      this.all.remove(out);
      const oq = this.perKey.get(out.key)!;
      oq.remove(this.inKey(oq, out));
      if (oq.items.length === 0) this.perKey.delete(out.key);
    }
    if (!kq) this.perKey.set(key, (kq = new SampleHeap(this.maxPerKey!)));
    // the same doc sits in two heaps: each heap tracks its own copy's position
    kq.push({ ...s });
    this.all.push(s);
  }

  /** The sampled docs. */
  docs(): readonly Sampled[] {
    return this.all.items;
  }

  private atGlobal(copy: Sampled): Sampled {
    return this.all.items.find((x) => x.global === copy.global)!;
  }
  private inKey(q: SampleHeap, s: Sampled): Sampled {
    return q.items.find((x) => x.global === s.global)!;
  }
}

interface SamplerParams {
  shardSize: number;
}

interface DiversifiedParams extends SamplerParams {
  maxDocsPerValue: number;
  executionHint: string | null;
  source: ValuesSourceParams;
}

class SamplerAggregator extends BucketsAggregator {
  private readonly segments: AggSegment[] = [];
  private readonly best: (BestDocs | undefined)[] = [];
  private bytes: BytesReader | null = null;
  private num: NumericReader | null = null;

  constructor(
    node: AggNode,
    subs: Aggregator[],
    private readonly shardSize: number,
    private readonly maxPerValue: number | null,
    private readonly rv: ResolvedValues | null,
  ) {
    super(node, subs, true);
  }

  override setSegment(seg: AggSegment): void {
    // sub-aggregations see the segments again when the sample is replayed
    this.segments.push(seg);
    if (this.rv) {
      if (this.rv.kind === 'numeric') this.num = new NumericReader(this.rv, seg.ls);
      else this.bytes = new BytesReader(this.rv, seg.ls);
    }
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const si = this.segments.length - 1;
    const base = this.segments[si]!.ls.docBase;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const ord = ords[i]!;
      let b = this.best[ord];
      if (!b) this.best[ord] = b = new BestDocs(this.shardSize, this.maxPerValue);
      const score = scores[i]!;
      b.offer(si, doc, score !== score ? 0 : score, base + doc, this.key(doc, score));
    }
  }

  /** The diversity key of `doc` (ES: a single-valued field or script; docs without one share). */
  private key(doc: number, score: number): unknown {
    if (this.maxPerValue === null || !this.rv) return null;
    const c = this.num ? this.num.read(doc, score) : this.bytes!.read(doc, score);
    if (c > 1) throw illegalArgument('Sample diversifying key must be a single valued-field');
    if (c === 0) return null;
    return this.num ? this.num.buf[0]! : this.bytes!.terms[0]!;
  }

  /** BestDocsDeferringCollector.prepareSelectedBuckets: replays the samples in doc order. */
  finish(): void {
    const bySeg: Array<Array<[number, number, number]>> = this.segments.map(() => []);
    this.best.forEach((b, ord) => {
      if (b) for (const s of b.docs()) bySeg[s.seg]!.push([s.doc, ord, s.score]);
    });
    for (let si = 0; si < this.segments.length; si++) {
      const list = bySeg[si]!;
      if (list.length === 0) continue;
      list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      super.setSegment(this.segments[si]!);
      for (const [doc, ord, score] of list) this.collectBucket(doc, ord, score);
      this.sub.flush();
    }
  }

  build(ord: number): InternalSampler {
    const n = this.docCount(ord);
    return this.result(n, n > 0 ? this.subResults(ord) : this.emptySubResults());
  }

  buildEmpty(): InternalSampler {
    return this.result(0, this.emptySubResults());
  }

  private result(docCount: number, aggs: InternalAgg[]): InternalSampler {
    return {
      spec: 'sampler',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      docCount,
      aggs,
    };
  }
}

export type InternalSampler = SingleBucketInternal;

const samplerResult: ResultSpec<InternalSampler> = {
  reduce: (parts: InternalSampler[], rc: ReduceContext) => ({
    ...parts[0]!,
    docCount: parts.reduce((s, p) => s + p.docCount, 0),
    aggs: reduceAggList(
      parts.map((p) => p.aggs),
      rc,
    ),
  }),
  render: (a, rc) => renderAggs(a.aggs, rc, { doc_count: a.docCount }),
  // ES InternalSampler (and UnmappedSampler) report the `sampler` type for both aggregations
  typedType: () => 'sampler',
  value: (a, key) => {
    if (key === null || key === '_count' || key === 'doc_count') return a.docCount;
    throw illegalArgument(`path not supported for [${a.name}]: [${key}]`);
  },
};

registerResult('sampler', samplerResult);

const shardSizeDecl = (p: SamplerParams) => ({
  names: ['shard_size'],
  kind: 'int' as const,
  set: (v: unknown) => (p.shardSize = v as number),
});

registerAgg<SamplerParams>({
  type: 'sampler',
  category: 'bucket',
  leaf: false,
  factoryName: 'SamplerAggregatorFactory',
  parse: (json) => {
    const p: SamplerParams = { shardSize: DEFAULT_SHARD_SAMPLE_SIZE };
    parseObject('sampler', json, [shardSizeDecl(p)]);
    return p;
  },
  create: (node, ac: AggregatorContext, space) => {
    const p = node.params as SamplerParams;
    return new SamplerAggregator(
      node,
      createSubAggregators(node, ac, space),
      p.shardSize,
      null,
      null,
    );
  },
});

const EXECUTION_HINTS = ['map', 'global_ordinals', 'global_ordinals_hash', 'bytes_hash'];

registerAgg<DiversifiedParams>({
  type: 'diversified_sampler',
  category: 'bucket',
  leaf: false,
  factoryName: 'DiversifiedAggregatorFactory',
  parse: (json) => {
    const p: DiversifiedParams = {
      shardSize: DEFAULT_SHARD_SAMPLE_SIZE,
      maxDocsPerValue: DEFAULT_MAX_DOCS_PER_VALUE,
      executionHint: null,
      source: emptyValuesSource(),
    };
    parseObject('diversified_sampler', json, [
      ...valuesSourceDecls('diversified_sampler', p.source, { formattable: false }),
      shardSizeDecl(p),
      {
        names: ['max_docs_per_value'],
        kind: 'int',
        set: (v) => (p.maxDocsPerValue = v as number),
      },
      { names: ['execution_hint'], kind: 'string', set: (v) => (p.executionHint = v as string) },
    ]);
    return p;
  },
  create: (node, ac, space) => {
    const p = node.params as DiversifiedParams;
    if (p.executionHint !== null && !EXECUTION_HINTS.includes(p.executionHint))
      throw illegalArgument(
        `Unknown \`execution_hint\`: [${p.executionHint}], expected any of [${EXECUTION_HINTS.join(', ')}]`,
      );
    const rv = resolveValues(p.source, ac.shard, null, node.name);
    const subs = createSubAggregators(node, ac, space);
    // ES: an unmapped field samples without diversity (DiversifiedAggregatorFactory.createUnmapped)
    return new SamplerAggregator(node, subs, p.shardSize, rv ? p.maxDocsPerValue : null, rv);
  },
});
