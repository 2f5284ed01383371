/**
 * filters and adjacency_matrix (ES FiltersAggregator / AdjacencyMatrixAggregator, InternalFilters,
 * InternalAdjacencyMatrix): one bucket per named (sorted by name) or anonymous filter, plus the
 * optional `other_bucket`; adjacency_matrix adds "a&b" intersections, drops empty buckets and
 * sorts the reduced buckets by key.
 */
import { illegalArgument, parsingException } from '../../../common/errors.js';
import {
  BucketsAggregator,
  type Aggregator,
  type AggregatorContext,
  type AggSegment,
} from '../collect/aggregator.js';
import { createSubAggregators } from '../collect/shard-aggregator.js';
import { isObj, tokenOf } from '../parse/object-parser.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import type { AggNode, InternalAgg, InternalBucket, ReduceContext } from '../types.js';
import { DocMatcher } from './single-bucket.js';

interface FiltersParams {
  keyed: boolean;
  filters: Array<{ key: string; query: unknown }>;
  otherBucket: boolean;
  otherBucketKey: string;
}

interface AdjacencyParams {
  filters: Array<{ key: string; query: unknown }>;
  separator: string;
}

export interface FiltersBucket extends InternalBucket {
  key: string;
}

export interface InternalFilters extends InternalAgg {
  keyed: boolean;
  buckets: FiltersBucket[];
}

function parseFilters(json: unknown, name: string): FiltersParams {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  let keyed: Array<{ key: string; query: unknown }> | null = null;
  let anon: unknown[] | null = null;
  let otherBucket: boolean | null = null;
  let otherBucketKey: string | null = null;
  for (const [k, v] of Object.entries(json)) {
    const tok = tokenOf(v);
    if (tok === 'VALUE_BOOLEAN' && k === 'other_bucket') otherBucket = v as boolean;
    else if (tok === 'VALUE_STRING' && k === 'other_bucket_key') otherBucketKey = v as string;
    else if (tok === 'START_OBJECT' && k === 'filters') {
      keyed = Object.entries(v as Record<string, unknown>).map(([key, query]) => ({ key, query }));
    } else if (tok === 'START_ARRAY' && k === 'filters') anon = v as unknown[];
    else throw parsingException(`Unknown key for a ${tok} in [${name}]: [${k}].`);
  }
  if (otherBucket === null && otherBucketKey !== null) otherBucket = true;
  let filters: Array<{ key: string; query: unknown }>;
  let isKeyed: boolean;
  if (keyed) {
    if (keyed.length === 0) throw illegalArgument(`[filters] cannot be empty.`);
    filters = [...keyed].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    isKeyed = true;
  } else {
    if (!anon) throw illegalArgument(`[filters] must not be null: [${name}]`);
    if (anon.length === 0) throw illegalArgument(`[filters] cannot be empty.`);
    filters = anon.map((query, i) => ({ key: String(i), query }));
    isKeyed = false;
  }
  return {
    keyed: isKeyed,
    filters,
    otherBucket: otherBucket ?? false,
    otherBucketKey: otherBucketKey ?? '_other_',
  };
}

class FiltersAggregator extends BucketsAggregator {
  private readonly matchers: DocMatcher[];
  private readonly total: number;

  constructor(
    node: AggNode,
    private readonly ac: AggregatorContext,
    subs: Aggregator[],
    private readonly p: FiltersParams,
  ) {
    super(node, subs);
    this.matchers = p.filters.map((f) => new DocMatcher(ac.shard.compileQuery(f.query)));
    this.total = p.filters.length + (p.otherBucket ? 1 : 0);
  }

  override setSegment(seg: AggSegment): void {
    super.setSegment(seg);
    for (const m of this.matchers) m.setSegment(seg.ls);
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const nf = this.matchers.length;
    const total = this.total;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      let matched = false;
      for (let k = 0; k < nf; k++) {
        if (this.matchers[k]!.matches(doc)) {
          this.collectBucket(doc, ords[i]! * total + k, scores[i]!);
          matched = true;
        }
      }
      if (this.p.otherBucket && !matched)
        this.collectBucket(doc, ords[i]! * total + nf, scores[i]!);
    }
    this.sub.flush();
  }

  build(owner: number): InternalFilters {
    this.ac.consumer.accept(this.total);
    const keys = this.p.filters.map((f) => f.key);
    if (this.p.otherBucket) keys.push(this.p.otherBucketKey);
    const buckets = keys.map((key, k) => {
      const ord = owner * this.total + k;
      return { key, docCount: this.docCount(ord), aggs: this.subResults(ord) };
    });
    return this.result(buckets);
  }

  buildEmpty(): InternalFilters {
    const keys = this.p.filters.map((f) => f.key);
    if (this.p.otherBucket) keys.push(this.p.otherBucketKey);
    return this.result(keys.map((key) => ({ key, docCount: 0, aggs: this.emptySubResults() })));
  }

  private result(buckets: FiltersBucket[]): InternalFilters {
    return {
      spec: 'filters',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      keyed: this.p.keyed,
      buckets,
    };
  }
}

function reduceFilters(parts: InternalFilters[], rc: ReduceContext): InternalFilters {
  const first = parts[0]!;
  const buckets = first.buckets.map((b, i) => ({
    ...b,
    docCount: parts.reduce((s, p) => s + p.buckets[i]!.docCount, 0),
    aggs: reduceAggList(
      parts.map((p) => p.buckets[i]!.aggs),
      rc,
    ),
  }));
  rc.consumer.accept(buckets.length);
  return { ...first, buckets };
}

function renderFilters(f: InternalFilters, rc: ReduceContext): Record<string, unknown> {
  const one = (b: FiltersBucket) => renderAggs(b.aggs, rc, { doc_count: b.docCount });
  if (f.keyed) {
    const obj: Record<string, unknown> = {};
    for (const b of f.buckets) obj[b.key] = one(b);
    return { buckets: obj };
  }
  return { buckets: f.buckets.map(one) };
}

registerAgg<FiltersParams>(
  {
    type: 'filters',
    category: 'bucket',
    leaf: false,
    factoryName: 'FiltersAggregatorFactory',
    parse: parseFilters,
    create: (node, ac, space) =>
      new FiltersAggregator(
        node,
        ac,
        createSubAggregators(node, ac, space),
        node.params as FiltersParams,
      ),
  },
  {
    reduce: reduceFilters,
    render: renderFilters,
    typedType: () => 'filters',
    keyAsString: (_f, b) => String(b.key),
  },
);

// ---- adjacency_matrix ---------------------------------------------------------------------------

function parseAdjacency(json: unknown, name: string): AdjacencyParams {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  let filters: Array<{ key: string; query: unknown }> | null = null;
  let separator = '&';
  for (const [k, v] of Object.entries(json)) {
    if (k === 'filters') {
      if (!isObj(v))
        throw parsingException(
          `[adjacency_matrix] filters doesn't support values of type: ${tokenOf(v)}`,
        );
      filters = Object.entries(v).map(([key, query]) => ({ key, query }));
    } else if (k === 'separator') {
      if (typeof v !== 'string')
        throw parsingException(
          `[adjacency_matrix] separator doesn't support values of type: ${tokenOf(v)}`,
        );
      separator = v;
    } else throw parsingException(`[adjacency_matrix] unknown field [${k}], parser not found`);
  }
  if (!filters) throw illegalArgument(`[filters] must not be null: [${name}]`);
  filters.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { filters, separator };
}

class AdjacencyAggregator extends BucketsAggregator {
  private readonly matchers: DocMatcher[];
  private readonly total: number;
  private readonly hits: boolean[];

  constructor(
    node: AggNode,
    private readonly ac: AggregatorContext,
    subs: Aggregator[],
    private readonly p: AdjacencyParams,
  ) {
    super(node, subs);
    const max = 100;
    if (p.filters.length > max) {
      throw illegalArgument(
        `Number of filters is too large, must be less than or equal to: [${max}] but was [${p.filters.length}].This limit can be set by changing the [index.max_adjacency_matrix_filters] index level setting.`,
      );
    }
    this.matchers = p.filters.map((f) => new DocMatcher(ac.shard.compileQuery(f.query)));
    const n = p.filters.length;
    this.total = n + (n * (n - 1)) / 2;
    this.hits = new Array<boolean>(n).fill(false);
  }

  override setSegment(seg: AggSegment): void {
    super.setSegment(seg);
    for (const m of this.matchers) m.setSegment(seg.ls);
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const nf = this.matchers.length;
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const base = ords[i]! * this.total;
      for (let k = 0; k < nf; k++) {
        this.hits[k] = this.matchers[k]!.matches(doc);
        if (this.hits[k]) this.collectBucket(doc, base + k, scores[i]!);
      }
      let pos = nf;
      for (let a = 0; a < nf; a++) {
        for (let b = a + 1; b < nf; b++) {
          if (this.hits[a] && this.hits[b]) this.collectBucket(doc, base + pos, scores[i]!);
          pos++;
        }
      }
    }
    this.sub.flush();
  }

  build(owner: number): InternalFilters {
    const nf = this.p.filters.length;
    const base = owner * this.total;
    const buckets: FiltersBucket[] = [];
    for (let k = 0; k < nf; k++) {
      const c = this.docCount(base + k);
      if (c > 0) {
        buckets.push({ key: this.p.filters[k]!.key, docCount: c, aggs: this.subResults(base + k) });
        this.ac.consumer.accept(1);
      }
    }
    let pos = nf;
    for (let a = 0; a < nf; a++) {
      for (let b = a + 1; b < nf; b++) {
        const c = this.docCount(base + pos);
        if (c > 0) {
          const key = this.p.filters[a]!.key + this.p.separator + this.p.filters[b]!.key;
          buckets.push({ key, docCount: c, aggs: this.subResults(base + pos) });
          this.ac.consumer.accept(1);
        }
        pos++;
      }
    }
    return {
      spec: 'adjacency_matrix',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      keyed: false,
      buckets,
    };
  }

  buildEmpty(): InternalFilters {
    return {
      spec: 'adjacency_matrix',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      keyed: false,
      buckets: [],
    };
  }
}

function reduceAdjacency(parts: InternalFilters[], rc: ReduceContext): InternalFilters {
  const groups = new Map<string, FiltersBucket[]>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const g = groups.get(b.key);
      if (g) g.push(b);
      else groups.set(b.key, [b]);
    }
  }
  const buckets: FiltersBucket[] = [];
  for (const [key, g] of groups) {
    rc.consumer.accept(1);
    buckets.push({
      key,
      docCount: g.reduce((s, b) => s + b.docCount, 0),
      aggs: reduceAggList(
        g.map((b) => b.aggs),
        rc,
      ),
    });
  }
  buckets.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { ...parts[0]!, buckets };
}

registerAgg<AdjacencyParams>(
  {
    type: 'adjacency_matrix',
    category: 'bucket',
    leaf: false,
    factoryName: 'AdjacencyMatrixAggregatorFactory',
    parse: parseAdjacency,
    create: (node, ac, space) =>
      new AdjacencyAggregator(
        node,
        ac,
        createSubAggregators(node, ac, space),
        node.params as AdjacencyParams,
      ),
  },
  {
    reduce: reduceAdjacency,
    render: (a: InternalFilters, rc: ReduceContext) => ({
      buckets: a.buckets.map((b) => renderAggs(b.aggs, rc, { key: b.key, doc_count: b.docCount })),
    }),
    typedType: () => 'adjacency_matrix',
    keyAsString: (_f: InternalFilters, b: InternalBucket) => String(b.key),
  },
);
