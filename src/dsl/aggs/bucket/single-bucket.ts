/**
 * Single-bucket aggregations (ES InternalSingleBucketAggregation): filter, missing, global,
 * nested and reverse_nested. They keep their parent's bucket ordinals, so sub-aggregators (and
 * terms ordering paths like `filter>avg`) see the same ordinals. nested/reverse_nested change
 * the doc space: nested feeds each parent's child docs from the segment's nested block,
 * reverse_nested maps child docs back to their parents (once per parent and bucket).
 */
import { EsError, parsingException } from '../../../common/errors.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { NestedBlock } from '../../../search/index/segment.js';
import { nestedBlockAt } from '../../../search/index/nested-path.js';
import type { Weight } from '../../../search/query/weights.js';
import { NO_MORE_DOCS, type Scorer } from '../../../search/query/scorer.js';
import { CHECK_INTERVAL, isTimeExceeded } from '../../../search/deadline.js';
import {
  BucketsAggregator,
  type Aggregator,
  type AggregatorContext,
  type AggSegment,
} from '../collect/aggregator.js';
import { createSubAggregators, rootSegment } from '../collect/shard-aggregator.js';
import { isObj, parseObject, tokenOf } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import { reduceAggList, renderAggs } from '../reduce/reduce.js';
import { registerAgg, registerResult, type ResultSpec, type SegmentSpace } from '../registry.js';
import {
  BytesReader,
  NumericReader,
  resolveValues,
  type ResolvedValues,
} from '../support/values-source.js';
import type { AggNode, InternalAgg, ReduceContext, SingleBucketInternal } from '../types.js';

export interface InternalSingleBucket extends SingleBucketInternal {
  readonly kind: string;
}

/** Tests docs of one segment against a query, advancing its scorer (Lucene asSequentialAccessBits). */
export class DocMatcher {
  private scorer: Scorer | null = null;
  private last = -1;
  private ls: LiveSegment | null = null;
  constructor(private readonly weight: Weight) {}
  setSegment(ls: LiveSegment): void {
    this.ls = ls;
    this.scorer = this.weight.scorer(ls);
    this.last = -1;
  }
  matches(doc: number): boolean {
    if (doc < this.last && this.ls) this.scorer = this.weight.scorer(this.ls);
    this.last = doc;
    const s = this.scorer;
    if (!s) return false;
    const d = s.doc < doc ? s.advance(doc) : s.doc;
    return d === doc;
  }
}

/** A one-bucket aggregator rendering `doc_count` and its sub-aggregations (typed key `kind`). */
export abstract class SingleBucketAggregator extends BucketsAggregator {
  constructor(
    node: AggNode,
    subs: Aggregator[],
    private readonly kind: string,
  ) {
    super(node, subs);
  }
  build(ord: number): InternalSingleBucket {
    return this.result(
      this.docCount(ord),
      this.docCount(ord) > 0 ? this.subResults(ord) : this.emptySubResults(),
    );
  }
  buildEmpty(): InternalSingleBucket {
    return this.result(0, this.emptySubResults());
  }
  protected result(docCount: number, aggs: InternalAgg[]): InternalSingleBucket {
    return {
      spec: 'single_bucket',
      kind: this.kind,
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      docCount,
      aggs,
    };
  }
}

// ---- filter -------------------------------------------------------------------------------------

class FilterAggregator extends SingleBucketAggregator {
  private readonly matcher: DocMatcher;
  constructor(node: AggNode, ac: AggregatorContext, subs: Aggregator[]) {
    super(node, subs, 'filter');
    this.matcher = new DocMatcher(ac.shard.compileQuery(node.params));
  }
  override setSegment(seg: AggSegment): void {
    super.setSegment(seg);
    this.matcher.setSegment(seg.ls);
  }
  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    for (let i = 0; i < n; i++)
      if (this.matcher.matches(docs[i]!)) this.collectBucket(docs[i]!, ords[i]!, scores[i]!);
    this.sub.flush();
  }
}

// ---- missing ------------------------------------------------------------------------------------

class MissingAggregator extends SingleBucketAggregator {
  private num: NumericReader | null = null;
  private bytes: BytesReader | null = null;
  constructor(
    node: AggNode,
    subs: Aggregator[],
    private readonly rv: ResolvedValues | null,
  ) {
    super(node, subs, 'missing');
  }
  override setSegment(seg: AggSegment): void {
    super.setSegment(seg);
    if (!this.rv) return;
    if (this.rv.kind === 'numeric') this.num = new NumericReader(this.rv, seg.ls);
    else this.bytes = new BytesReader(this.rv, seg.ls);
  }
  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    for (let i = 0; i < n; i++) {
      const doc = docs[i]!;
      const c = !this.rv
        ? 0
        : this.num
          ? this.num.read(doc, scores[i]!)
          : this.bytes!.read(doc, scores[i]!);
      if (c === 0) this.collectBucket(doc, ords[i]!, scores[i]!);
    }
    this.sub.flush();
  }
}

// ---- global -------------------------------------------------------------------------------------

/** Collects every live doc of the shard in finish(), whatever the query (ES GlobalAggregator). */
class GlobalAggregator extends SingleBucketAggregator {
  constructor(
    node: AggNode,
    private readonly ac: AggregatorContext,
    subs: Aggregator[],
  ) {
    super(node, subs, 'global');
  }
  override setSegment(): void {
    // the query's docs are ignored
  }
  collect(): void {}
  finish(): void {
    const dl = this.ac.shard.deadline ?? null;
    try {
      const filter = this.ac.shard.globalFilter;
      for (const ls of this.ac.shard.snapshot.segments) {
        dl?.check();
        super.setSegment(rootSegment(ls));
        const live = ls.live;
        if (filter) {
          const s = filter.scorer(ls);
          let n = 0;
          if (s)
            for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) {
              if ((++n & (CHECK_INTERVAL - 1)) === 0) dl?.check();
              if (live === null || live.get(d)) this.collectBucket(d, 0, 1);
            }
        } else
          for (let d = 0; d < ls.segment.maxDoc; d++) {
            if ((d & (CHECK_INTERVAL - 1)) === CHECK_INTERVAL - 1) dl?.check();
            if (live !== null && !live.get(d)) continue;
            this.collectBucket(d, 0, 1);
          }
        this.sub.flush();
      }
    } catch (e) {
      // Not in ES 6.8, whose global collection fails on a timeout: the search timed out, and
      // the bucket and its sub-aggregations hold the docs collected before
      if (!isTimeExceeded(e)) throw e;
      this.sub.flush();
    }
  }
}

// ---- nested / reverse_nested --------------------------------------------------------------------

const childStarts = new WeakMap<NestedBlock, Int32Array>();

/** childStart[p]..childStart[p+1] are the nested docs of parent p (parentOf is non-decreasing). */
function childStartOf(block: NestedBlock, parentMaxDoc: number): Int32Array {
  let cs = childStarts.get(block);
  if (!cs) {
    cs = new Int32Array(parentMaxDoc + 1);
    const po = block.parentOf;
    for (let c = 0; c < po.length; c++) cs[po[c]! + 1]!++;
    for (let p = 0; p < parentMaxDoc; p++) cs[p + 1]! += cs[p]!;
    childStarts.set(block, cs);
  }
  return cs;
}

/** The nested block of `path` below `seg`, through the nested levels between if it is deeper. */
export function nestedBlock(seg: AggSegment, path: string): NestedBlock | null {
  return nestedBlockAt(seg.ls.segment, path);
}

export function nestedSegment(seg: AggSegment, path: string, block: NestedBlock): AggSegment {
  return {
    ls: { segment: block.segment, live: null, deleted: 0, docBase: seg.ls.docBase },
    path,
    parent: seg,
    parentOf: block.parentOf,
  };
}

class NestedAggregator extends SingleBucketAggregator {
  private starts: Int32Array | null = null;
  constructor(
    node: AggNode,
    subs: Aggregator[],
    private readonly path: string,
  ) {
    super(node, subs, 'nested');
  }
  override setSegment(seg: AggSegment): void {
    this.sub.flush();
    const block = nestedBlock(seg, this.path);
    if (!block) {
      this.starts = null;
      return;
    }
    this.starts = childStartOf(block, seg.ls.segment.maxDoc);
    super.setSegment(nestedSegment(seg, this.path, block));
  }
  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const st = this.starts;
    if (!st) return;
    for (let i = 0; i < n; i++) {
      const p = docs[i]!;
      for (let c = st[p]!; c < st[p + 1]!; c++) this.collectBucket(c, ords[i]!, scores[i]!);
    }
    this.sub.flush();
  }
}

class ReverseNestedAggregator extends SingleBucketAggregator {
  private target: AggSegment | null = null;
  private chain: Int32Array[] = [];
  private lastParent = new Map<number, number>();
  constructor(
    node: AggNode,
    subs: Aggregator[],
    private readonly path: string | null,
  ) {
    super(node, subs, 'reverse_nested');
  }
  override setSegment(seg: AggSegment): void {
    this.sub.flush();
    this.chain = [];
    let s: AggSegment = seg;
    while (s.parent && s.path !== this.path) {
      this.chain.push(s.parentOf!);
      s = s.parent;
    }
    this.target = s;
    this.lastParent = new Map();
    super.setSegment(s);
  }
  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    if (!this.target) return;
    for (let i = 0; i < n; i++) {
      let d = docs[i]!;
      for (const po of this.chain) d = po[d]!;
      const b = ords[i]!;
      const last = this.lastParent.get(b);
      if (last !== undefined && d <= last) continue;
      this.lastParent.set(b, d);
      this.collectBucket(d, b, scores[i]!);
    }
    this.sub.flush();
  }
}

// ---- results ------------------------------------------------------------------------------------

function reduceSingle(parts: InternalSingleBucket[], rc: ReduceContext): InternalSingleBucket {
  return {
    ...parts[0]!,
    docCount: parts.reduce((s, p) => s + p.docCount, 0),
    aggs: reduceAggList(
      parts.map((p) => p.aggs),
      rc,
    ),
  };
}

const singleResult: ResultSpec<InternalSingleBucket> = {
  reduce: reduceSingle,
  render: (a, rc) => renderAggs(a.aggs, rc, { doc_count: a.docCount }),
  typedType: (a) => a.kind,
  value: (a, key) => {
    if (key === null || key === '_count' || key === 'doc_count') return a.docCount;
    throw new EsError(
      'invalid_aggregation_path_exception',
      `path not supported for [${a.name}]: [${key}]`,
      500,
    );
  },
};

registerResult('single_bucket', singleResult);

registerAgg({
  type: 'filter',
  category: 'bucket',
  leaf: false,
  factoryName: 'FilterAggregatorFactory',
  // the query is compiled per shard (ctx.compileQuery)
  parse: (json) => json,
  create: (node, ac, space) =>
    new FilterAggregator(node, ac, createSubAggregators(node, ac, space)),
});

interface MissingParams {
  source: ValuesSourceParams;
}

registerAgg<MissingParams>({
  type: 'missing',
  category: 'bucket',
  leaf: false,
  factoryName: 'MissingAggregatorFactory',
  parse: (json) => {
    const p: MissingParams = { source: emptyValuesSource() };
    parseObject('missing', json, valuesSourceDecls('missing', p.source));
    return p;
  },
  create: (node, ac, space) => {
    const src = (node.params as MissingParams).source;
    // unmapped fields: every doc is missing
    const rv = resolveValues(src, ac.shard, null, node.name);
    return new MissingAggregator(node, createSubAggregators(node, ac, space), rv);
  },
});

registerAgg({
  type: 'global',
  category: 'bucket',
  leaf: false,
  factoryName: 'GlobalAggregatorFactory',
  parse: (json) => {
    parseObject('global', json, []);
    return {};
  },
  validate: (node, parent) => {
    if (parent) {
      throw new EsError(
        'aggregation_execution_exception',
        `Aggregation [${parent.name}] cannot have a global sub-aggregation [${node.name}]. Global aggregations can only be defined as top level aggregations`,
        500,
      );
    }
  },
  create: (node, ac, space) =>
    new GlobalAggregator(node, ac, createSubAggregators(node, ac, space)),
});

function parsePath(type: string, json: unknown, name: string, required: boolean): string | null {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  let path: string | null = null;
  for (const [k, v] of Object.entries(json)) {
    if (typeof v === 'string') {
      if (k === 'path') path = v;
      else throw parsingException(`Unknown key for a VALUE_STRING in [${name}]: [${k}].`);
    } else throw parsingException(`Unexpected token ${tokenOf(v)} in [${name}].`);
  }
  if (required && path === null)
    throw parsingException(`Missing [path] field for ${type} aggregation [${name}]`);
  return path;
}

registerAgg<{ path: string }>({
  type: 'nested',
  category: 'bucket',
  leaf: false,
  factoryName: 'NestedAggregatorFactory',
  parse: (json, name) => ({ path: parsePath('nested', json, name, true)! }),
  create: (node, ac, space) => {
    const path = (node.params as { path: string }).path;
    const obj = ac.shard.objectMapping?.(path);
    if (obj && obj.type !== 'nested') {
      throw new EsError(
        'aggregation_execution_exception',
        `[nested] nested path [${path}] is not nested`,
        500,
      );
    }
    const sub: SegmentSpace = { nestedPath: path, parent: space };
    return new NestedAggregator(node, createSubAggregators(node, ac, sub), path);
  },
});

registerAgg<{ path: string | null }>({
  type: 'reverse_nested',
  category: 'bucket',
  leaf: false,
  factoryName: 'ReverseNestedAggregatorFactory',
  parse: (json, name) => ({ path: parsePath('reverse_nested', json, name, false) }),
  create: (node, ac, space) => {
    if (space.nestedPath === null) {
      throw new EsError(
        'search_parse_exception',
        `Reverse nested aggregation [${node.name}] can only be used inside a [nested] aggregation`,
        400,
      );
    }
    const path = (node.params as { path: string | null }).path;
    let target: SegmentSpace | null = space;
    while (target && target.nestedPath !== path) target = target.parent;
    if (!target) {
      throw new EsError(
        'aggregation_execution_exception',
        `[reverse_nested] nested path [${path}] is not nested`,
        500,
      );
    }
    return new ReverseNestedAggregator(node, createSubAggregators(node, ac, target), path);
  },
});
