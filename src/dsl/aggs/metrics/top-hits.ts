/**
 * top_hits (ES TopHitsAggregator / InternalTopHits): the best `from + size` docs of each bucket by
 * score or by a sort, merged across shards (ties broken by shard, then doc, as Lucene's
 * TopDocs.merge does). Hits are rendered by the executor through `fetchHits` (source filtering,
 * docvalue_fields, highlighting, _nested for hits inside nested aggregations).
 */
import { EsError, illegalArgument, parsingException } from '../../../common/errors.js';
import type { FieldMapping } from '../../../mapping/types.js';
import {
  compareSortValues,
  compileSort,
  type CompiledKey,
  type SortKey,
} from '../../../search/collect/sort.js';
import { ipToSortable, sortableToIp } from '../../../search/index/field-values.js';
import type { Aggregator, AggregatorContext, AggSegment } from '../collect/aggregator.js';
import { isObj, tokenOf, toLong } from '../parse/object-parser.js';
import { registerAgg, type ResultSpec } from '../registry.js';
import { addWarning } from '../support/bucket-consumer.js';
import { parseScriptSort, scriptSortKey } from '../../search/script-sort.js';
import type {
  AggHit,
  AggNode,
  InternalAgg,
  ReduceContext,
  ShardAggContext,
  TopHitsOptions,
} from '../types.js';

interface Params {
  from: number;
  size: number;
  sort: unknown;
  request: Record<string, unknown>;
  trackScores: boolean;
  explain: boolean;
  version: boolean;
  seqNoPrimaryTerm: boolean;
}

export interface InternalTopHits extends InternalAgg {
  from: number;
  size: number;
  sort: SortKey[] | null;
  total: number;
  maxScore: number;
  hits: AggHit[];
  opts: TopHitsOptions;
}

const KNOWN = new Set([
  'from',
  'size',
  'sort',
  '_source',
  'docvalue_fields',
  'stored_fields',
  'script_fields',
  'highlight',
  'explain',
  'version',
  'seq_no_primary_term',
  'track_scores',
  'fielddata_fields',
]);

function parseTopHits(json: unknown, name: string): Params {
  if (!isObj(json)) throw parsingException(`Unexpected token ${tokenOf(json)} in [${name}].`);
  const p: Params = {
    from: 0,
    size: 3,
    sort: null,
    request: json,
    trackScores: false,
    explain: false,
    version: false,
    seqNoPrimaryTerm: false,
  };
  for (const [k, v] of Object.entries(json)) {
    if (!KNOWN.has(k))
      throw parsingException(`Unknown key for a ${tokenOf(v)} in [${name}]: [${k}].`);
    switch (k) {
      case 'from':
        p.from = toLong(v);
        if (p.from < 0)
          throw illegalArgument(
            `[from] must be greater than or equal to 0. Found [${p.from}] in [${name}]`,
          );
        break;
      case 'size':
        p.size = toLong(v);
        if (p.size < 0)
          throw illegalArgument(
            `[size] must be greater than or equal to 0. Found [${p.size}] in [${name}]`,
          );
        break;
      case 'sort':
        p.sort = v;
        break;
      case 'track_scores':
        p.trackScores = v === true;
        break;
      case 'explain':
        p.explain = v === true;
        break;
      case 'version':
        p.version = v === true;
        break;
      case 'seq_no_primary_term':
        p.seqNoPrimaryTerm = v === true;
        break;
    }
  }
  return p;
}

function valueTypeOf(f: FieldMapping): SortKey['valueType'] {
  switch (f.type) {
    case 'keyword':
    case 'ip':
    case 'text':
      return 'string';
    case 'date':
      return 'date';
    case 'boolean':
      return 'boolean';
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float':
      return 'double';
    default:
      return 'long';
  }
}

/** ES SortBuilder.fromXContent subset: "f", {"f": "asc"}, {"f": {"order", "missing", "mode"}}, arrays. */
export function parseSort(json: unknown, ctx: ShardAggContext): SortKey[] | null {
  if (json === null || json === undefined) return null;
  // ES SortBuilder.fromXContent adds nothing for an empty object; no sort builders at all means
  // the default order, by score (SortBuilder.buildSort)
  const items = (Array.isArray(json) ? json : [json]).filter(
    (it) => !(isObj(it) && Object.keys(it).length === 0),
  );
  if (items.length === 0) return null;
  const keys: SortKey[] = items.map((it) => {
    if (isObj(it) && Object.keys(it)[0] === '_script') return topHitsScriptSort(it._script, ctx);
    let field: string;
    let order: 'asc' | 'desc' | null = null;
    let missing: SortKey['missing'] = '_last';
    let mode: SortKey['mode'] = null;
    if (typeof it === 'string') field = it;
    else if (isObj(it)) {
      const [f, spec] = Object.entries(it)[0]!;
      field = f;
      if (typeof spec === 'string') order = spec.toLowerCase() as 'asc' | 'desc';
      else if (isObj(spec)) {
        if (typeof spec.order === 'string') order = spec.order.toLowerCase() as 'asc' | 'desc';
        if (spec.missing !== undefined) missing = spec.missing as SortKey['missing'];
        if (typeof spec.mode === 'string') mode = spec.mode as SortKey['mode'];
      }
    } else throw parsingException(`unexpected token in sort: ${tokenOf(it)}`);
    if (order !== null && order !== 'asc' && order !== 'desc')
      throw illegalArgument(`No sort order for [${order}]`);
    if (field === '_score')
      return { kind: 'score', field, order: order ?? 'desc', missing, mode, valueType: 'double' };
    if (field === '_doc')
      return { kind: 'doc', field, order: order ?? 'asc', missing, mode, valueType: 'long' };
    const f = ctx.field(field);
    if (!f) {
      throw new EsError(
        'query_shard_exception',
        `No mapping found for [${field}] in order to sort on`,
        400,
        {
          meta: { index_uuid: '_na_', index: ctx.index ?? '_na_' },
        },
      );
    }
    const key: SortKey = {
      kind: 'field',
      field: f.path,
      order: order ?? 'asc',
      missing,
      mode,
      valueType: valueTypeOf(f),
    };
    if (f.type === 'ip') {
      key.display = sortableToIp;
      key.orderKey = ipToSortable;
    }
    return key;
  });
  return keys;
}

/** A `_script` sort key (ES ScriptSortBuilder) over the shard's mapping and script methods. */
function topHitsScriptSort(json: unknown, ctx: ShardAggContext): SortKey {
  const warnings = ctx.warnings;
  return scriptSortKey(parseScriptSort(json), {
    field: (path) => ctx.field(path),
    methods: ctx.scriptMethods,
    warn: warnings ? (m) => addWarning(warnings, m) : undefined,
  });
}

class TopHitsAggregator implements Aggregator {
  readonly needsScores: boolean;
  private readonly queues: AggHit[][] = [];
  private readonly totals: number[] = [];
  private readonly maxScores: number[] = [];
  private seg: AggSegment | null = null;
  private keys: CompiledKey[] | null = null;
  private readonly sort: SortKey[] | null;
  private readonly p: Params;
  private readonly worse: (a: AggHit, b: AggHit) => boolean;

  constructor(
    readonly node: AggNode,
    private readonly ac: AggregatorContext,
  ) {
    this.p = node.params as Params;
    const window = this.p.from + this.p.size;
    if (window > 100) {
      throw illegalArgument(
        `Top hits result window is too large, the top hits aggregator [${node.name}]'s from + size must be less than or equal to: [100] but was [${window}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`,
      );
    }
    this.sort = parseSort(this.p.sort, ac.shard);
    const byScore = this.sort === null || this.sort[0]!.kind === 'score';
    this.needsScores =
      byScore ||
      this.p.trackScores ||
      (this.sort?.some((k) => k.kind === 'score' || k.needsScore === true) ?? false);
    const sort = this.sort;
    this.worse = sort
      ? (a, b) => {
          const c = compareSortValues(sort, a.sort!, b.sort!);
          return c > 0 || (c === 0 && a.globalDoc > b.globalDoc);
        }
      : (a, b) => a.score < b.score || (a.score === b.score && a.globalDoc > b.globalDoc);
  }

  setSegment(seg: AggSegment): void {
    this.seg = seg;
    this.keys = this.sort ? compileSort(this.sort, seg.ls) : null;
  }

  collect(docs: Int32Array, ords: Int32Array, n: number, scores: Float64Array): void {
    const seg = this.seg!;
    const window = this.p.from + this.p.size;
    for (let i = 0; i < n; i++) {
      const o = ords[i]!;
      const doc = docs[i]!;
      const score = scores[i]!;
      this.totals[o] = (this.totals[o] ?? 0) + 1;
      if (!Number.isNaN(score)) this.maxScores[o] = Math.max(this.maxScores[o] ?? -Infinity, score);
      if (window === 0) continue;
      const hit: AggHit = {
        segment: seg.ls,
        doc,
        globalDoc: this.globalDoc(seg, doc),
        score,
        sort: this.keys ? this.keys.map((k) => k.value(doc, score)) : null,
      };
      if (seg.path !== null && seg.parent && seg.parentOf) {
        const parentDoc = seg.parentOf[doc]!;
        let first = doc;
        while (first > 0 && seg.parentOf[first - 1] === parentDoc) first--;
        hit.nested = {
          field: seg.path,
          offset: doc - first,
          parentSegment: seg.parent.ls,
          parentDoc,
        };
      }
      let q = this.queues[o];
      if (!q) this.queues[o] = q = [];
      q.push(hit);
      if (q.length > window * 4 + 16) this.trim(q, window);
    }
  }

  private globalDoc(seg: AggSegment, doc: number): number {
    // nested hits order by their root parent, then position (Lucene block order)
    if (seg.parent && seg.parentOf)
      return this.globalDoc(seg.parent, seg.parentOf[doc]!) * 1024 + (doc % 1024);
    return seg.ls.docBase + doc;
  }

  private trim(q: AggHit[], window: number): void {
    q.sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
    q.length = Math.min(q.length, window);
  }

  build(ord: number): InternalTopHits {
    const q = this.queues[ord] ?? [];
    this.trim(q, this.p.from + this.p.size);
    return this.result(q, this.totals[ord] ?? 0, this.maxScores[ord] ?? NaN);
  }

  buildEmpty(): InternalTopHits {
    return this.result([], 0, NaN);
  }

  private result(hits: AggHit[], total: number, maxScore: number): InternalTopHits {
    const origin = this.ac.shard.origin;
    return {
      spec: 'top_hits',
      name: this.node.name,
      meta: this.node.meta,
      node: this.node,
      from: this.p.from,
      size: this.p.size,
      sort: this.sort,
      total,
      maxScore,
      hits: origin ? hits.map((h) => ({ ...h, origin })) : hits,
      opts: {
        from: this.p.from,
        size: this.p.size,
        sort: this.sort,
        request: this.p.request,
        trackScores: this.p.trackScores,
        explain: this.p.explain,
        version: this.p.version,
        seqNoPrimaryTerm: this.p.seqNoPrimaryTerm,
      },
    };
  }
}

function reduceTopHits(parts: InternalTopHits[], rc: ReduceContext): InternalTopHits {
  const first = parts[0]!;
  const sort = first.sort;
  const all = parts.flatMap((p) => p.hits);
  const order = rc.shardOrder ?? (() => 0);
  const cmp = (a: AggHit, b: AggHit) => {
    let c = sort ? compareSortValues(sort, a.sort!, b.sort!) : b.score - a.score;
    if (c === 0) c = order(a.origin) - order(b.origin);
    if (c === 0) c = a.globalDoc - b.globalDoc;
    return c;
  };
  all.sort(cmp);
  let maxScore = NaN;
  for (const p of parts)
    if (!Number.isNaN(p.maxScore))
      maxScore = Number.isNaN(maxScore) ? p.maxScore : Math.max(maxScore, p.maxScore);
  return {
    ...first,
    total: parts.reduce((s, p) => s + p.total, 0),
    maxScore,
    hits: all.slice(first.from, first.from + first.size),
  };
}

function renderTopHits(a: InternalTopHits, rc: ReduceContext): Record<string, unknown> {
  const rendered = rc.fetchHits
    ? rc.fetchHits(a.hits, a.opts)
    : a.hits.map((h) => ({ _id: h.segment.segment.ids[h.doc] }));
  return {
    hits: {
      total: a.total,
      max_score: Number.isNaN(a.maxScore) ? null : a.maxScore,
      hits: rendered,
    },
  };
}

const result: ResultSpec<InternalTopHits> = {
  reduce: reduceTopHits,
  render: renderTopHits,
  typedType: () => 'top_hits',
};

registerAgg<Params, InternalTopHits>(
  {
    type: 'top_hits',
    category: 'metric',
    leaf: true,
    factoryName: 'TopHitsAggregatorFactory',
    parse: parseTopHits,
    create: (node, ac) => new TopHitsAggregator(node, ac),
  },
  result,
);
