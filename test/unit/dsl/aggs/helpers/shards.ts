/**
 * Test fixtures for aggregations: an index of one or more in-memory shards built from a small
 * mapping and JSON documents (values converted as the document parser would: dates to epoch
 * millis, IPs canonical, nested objects as nested documents), a minimal query compiler for the
 * filter-style aggregations, and `search()` running aggregations like the executor will.
 */
import type {
  FieldMapping,
  FieldType,
  ParsedDocument,
  ParsedValue,
} from '../../../../../src/mapping/types.js';
import { ShardIndex } from '../../../../../src/search/index/shard-index.js';
import { createWeight, type Weight } from '../../../../../src/search/query/weights.js';
import { shardStats } from '../../../../../src/search/query/stats.js';
import { collectTopDocs } from '../../../../../src/search/collect/top-docs.js';
import type { Query } from '../../../../../src/search/query/query.js';
import { boolQuery, matchAll, termQuery } from '../../../../../src/search/query/query.js';
import { ipToSortable } from '../../../../../src/search/index/field-values.js';
import { field as mkField, standardResolver } from '../../../../helpers/fields.js';
import {
  createShardAggregator,
  parseAggregations,
  reduceAggregations,
  type ShardAggContext,
  type ShardAggResult,
} from '../../../../../src/dsl/aggs/index.js';
import { dateFormatter, UTC } from '../../../../../src/dsl/aggs/support/dates.js';
import type { CollectedHit } from '../../../../../src/search/collect/top-docs.js';
import type { AggNode, TopHitsOptions } from '../../../../../src/dsl/aggs/types.js';

export type MappingSpec = Record<
  string,
  | FieldType
  | { type: FieldType; format?: string; fielddata?: boolean; fields?: MappingSpec }
  | { nested: MappingSpec }
>;

export interface TestIndex {
  fields: Map<string, FieldMapping>;
  nested: Set<string>;
  shards: ShardIndex[];
  ids: string[][];
}

function buildFields(
  spec: MappingSpec,
  prefix: string,
  out: Map<string, FieldMapping>,
  nested: Set<string>,
): void {
  for (const [name, def] of Object.entries(spec)) {
    const path = prefix + name;
    if (typeof def === 'object' && 'nested' in def) {
      nested.add(path);
      buildFields(def.nested, path + '.', out, nested);
      continue;
    }
    const type = typeof def === 'string' ? def : def.type;
    const extra: { -readonly [K in keyof FieldMapping]?: FieldMapping[K] } = {};
    if (typeof def === 'object' && def.format) extra.format = def.format;
    if (typeof def === 'object' && def.fielddata) extra.fielddata = true;
    const f = mkField(path, type, extra);
    out.set(path, f);
    if (typeof def === 'object' && def.fields) {
      for (const [sub, sdef] of Object.entries(def.fields)) {
        const st = typeof sdef === 'string' ? sdef : (sdef as { type: FieldType }).type;
        out.set(`${path}.${sub}`, mkField(`${path}.${sub}`, st));
      }
    }
  }
}

function convert(f: FieldMapping, v: unknown): ParsedValue['value'] {
  switch (f.type) {
    case 'date': {
      if (typeof v === 'number') return f.format === 'epoch_second' ? v * 1000 : v;
      return dateFormatter(f.format ?? 'strict_date_optional_time||epoch_millis').parse(
        String(v),
        UTC,
      );
    }
    case 'boolean':
      return v === true || v === 'true';
    case 'keyword':
    case 'text':
    case 'ip':
      return String(v);
    default:
      return Number(v);
  }
}

function parseDoc(index: TestIndex, src: Record<string, unknown>, prefix = ''): ParsedDocument {
  const values: ParsedValue[] = [];
  const names = new Set<string>();
  const nestedDocs: { path: string; doc: ParsedDocument }[] = [];
  const walk = (obj: Record<string, unknown>, pre: string) => {
    for (const [k, raw] of Object.entries(obj)) {
      const path = pre + k;
      if (index.nested.has(path)) {
        names.add(path);
        const arr = Array.isArray(raw) ? raw : [raw];
        for (const child of arr)
          nestedDocs.push({
            path,
            doc: parseDoc(index, child as Record<string, unknown>, path + '.'),
          });
        continue;
      }
      const f = index.fields.get(path);
      if (!f) {
        if (raw && typeof raw === 'object' && !Array.isArray(raw))
          walk(raw as Record<string, unknown>, path + '.');
        continue;
      }
      const arr = Array.isArray(raw) ? raw : [raw];
      for (const v of arr) {
        if (v === null || v === undefined) continue;
        names.add(path);
        values.push({ field: f, value: convert(f, v) });
        for (const [p2, f2] of index.fields) {
          if (p2.startsWith(path + '.') && !p2.slice(path.length + 1).includes('.')) {
            values.push({ field: f2, value: convert(f2, v) });
            names.add(p2);
          }
        }
      }
    }
  };
  walk(src, prefix);
  return {
    values,
    fieldNames: names,
    dynamicUpdate: null,
    ignored: [],
    present: [],
    nested: nestedDocs,
  };
}

/** Builds an index; `docs[i]` go to shard `shardOf(i)` (default: all on shard 0). */
export function buildIndex(
  mapping: MappingSpec,
  docs: Array<Record<string, unknown>>,
  opts: {
    shards?: number;
    shardOf?: (i: number) => number;
    refreshEvery?: number;
    deletes?: string[];
  } = {},
): TestIndex {
  const fields = new Map<string, FieldMapping>();
  const nested = new Set<string>();
  buildFields(mapping, '', fields, nested);
  const n = opts.shards ?? 1;
  const index: TestIndex = {
    fields,
    nested,
    shards: Array.from({ length: n }, () => new ShardIndex(standardResolver)),
    ids: Array.from({ length: n }, () => []),
  };
  docs.forEach((d, i) => {
    const s = opts.shardOf ? opts.shardOf(i) : i % n;
    const id = String((d._id as string | undefined) ?? i + 1);
    const { _id, ...src } = d;
    void _id;
    index.shards[s]!.add(id, parseDoc(index, src), i, 1, null, false);
    index.ids[s]!.push(id);
    if (opts.refreshEvery && (i + 1) % opts.refreshEvery === 0) index.shards[s]!.refresh();
  });
  for (const s of index.shards) s.refresh();
  if (opts.deletes?.length) {
    for (const id of opts.deletes) {
      const s = index.ids.findIndex((ids) => ids.includes(id));
      if (s >= 0) index.shards[s]!.delete(id);
    }
    for (const s of index.shards) s.refresh();
  }
  return index;
}

/** A minimal query DSL → Query for tests (term, terms, range, exists, match_all, bool). */
export function compileTestQuery(index: TestIndex, json: unknown): Query {
  const q = json as Record<string, Record<string, unknown>>;
  const [kind, body] = Object.entries(q)[0]!;
  const termOf = (f: FieldMapping | undefined, v: unknown): Query => {
    if (!f) return { kind: 'MatchNone' };
    if (f.type === 'keyword') return termQuery(f.path, String(v));
    if (f.type === 'ip') return termQuery(f.path, ipToSortable(String(v)));
    if (f.type === 'boolean') return termQuery(f.path, v === true || v === 'true' ? 'T' : 'F');
    const n = f.type === 'date' ? convert(f, v) : Number(v);
    return {
      kind: 'NumericRange',
      field: f.path,
      lo: n as number,
      hi: n as number,
      includeLo: true,
      includeHi: true,
      boost: 1,
    };
  };
  switch (kind) {
    case 'match_all':
      return matchAll();
    case 'term': {
      const [fname, v] = Object.entries(body)[0]!;
      const val = v && typeof v === 'object' ? (v as { value: unknown }).value : v;
      return termOf(index.fields.get(fname), val);
    }
    case 'terms': {
      const [fname, vs] = Object.entries(body)[0]!;
      return boolQuery({
        should: (vs as unknown[]).map((v) => termOf(index.fields.get(fname), v)),
        minShouldMatch: 1,
      });
    }
    case 'exists':
      return termQuery('_field_names', String(body.field));
    case 'range': {
      const [fname, r] = Object.entries(body)[0]! as [string, Record<string, unknown>];
      const f = index.fields.get(fname)!;
      const num = (v: unknown) => (f.type === 'date' ? (convert(f, v) as number) : Number(v));
      return {
        kind: 'NumericRange',
        field: fname,
        lo: r.gte !== undefined ? num(r.gte) : r.gt !== undefined ? num(r.gt) : -Infinity,
        hi: r.lte !== undefined ? num(r.lte) : r.lt !== undefined ? num(r.lt) : Infinity,
        includeLo: r.gt === undefined,
        includeHi: r.lt === undefined,
        boost: 1,
      };
    }
    case 'bool': {
      const list = (v: unknown) =>
        v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => compileTestQuery(index, x));
      return boolQuery({
        must: list(body.must),
        filter: list(body.filter),
        should: list(body.should),
        mustNot: list(body.must_not),
        minShouldMatch: body.should && !body.must && !body.filter ? 1 : 0,
      });
    }
    case 'constant_score':
      return { kind: 'ConstantScore', inner: compileTestQuery(index, body.filter), boost: 1 };
  }
  throw new Error(`test query not supported: ${kind}`);
}

export interface SearchOptions {
  query?: unknown;
  typedKeys?: boolean;
  maxBuckets?: number;
  warnings?: string[];
  now?: number;
  scriptMethods?: Record<string, (...args: unknown[]) => unknown>;
  fetchHits?: (hits: CollectedHit[], opts: TopHitsOptions) => unknown[];
  /** Per-shard mappings (shards of different indices). */
  fieldsPerShard?: Array<Map<string, FieldMapping>>;
  /** Extra shard context members (e.g. `sourceOf` and `indexAnalyzer`). */
  context?: (shard: number) => Partial<ShardAggContext>;
  /** Passes every shard result through this before the reduce (e.g. a wire round trip). */
  shardResult?: (r: ShardAggResult, nodes: AggNode[], origin: object) => ShardAggResult;
  /** Top-level aggregations collect per document (no collectRoot): the reference path. */
  perDoc?: boolean;
}

export function shardContext(
  index: TestIndex,
  s: number,
  opts: SearchOptions = {},
): ShardAggContext {
  const snap = index.shards[s]!.searcher();
  return {
    snapshot: snap,
    field: (p) => (opts.fieldsPerShard?.[s] ?? index.fields).get(p),
    compileQuery: (json): Weight =>
      createWeight(compileTestQuery(index, json), { stats: shardStats(snap), needsScores: false }),
    now: opts.now ?? Date.UTC(2020, 0, 1),
    maxBuckets: opts.maxBuckets ?? -1,
    scriptMethods: opts.scriptMethods,
    warnings: opts.warnings,
    origin: index.shards[s]!,
    index: 'test',
    fetchHits: opts.fetchHits,
    ...opts.context?.(s),
  };
}

/** Runs `aggs` over every shard (docs matching `query`) and reduces; returns the aggregations. */
export function search(
  index: TestIndex,
  aggsJson: unknown,
  opts: SearchOptions = {},
): Record<string, unknown> {
  const warnings = opts.warnings ?? [];
  const nodes = parseAggregations(aggsJson, { warnings });
  const results: ShardAggResult[] = index.shards.map((shard, s) => {
    const ctx = shardContext(index, s, { ...opts, warnings });
    const agg = createShardAggregator(nodes, ctx);
    if (opts.perDoc) (agg as unknown as { rootFast: boolean[] }).rootFast.fill(false);
    const snap = shard.searcher();
    const q = opts.query ? compileTestQuery(index, opts.query) : matchAll();
    const weight = createWeight(q, { stats: shardStats(snap), needsScores: agg.needsScores });
    collectTopDocs(snap, weight, {
      numHits: 0,
      sort: null,
      trackScores: false,
      needsScores: agg.needsScores,
      minScore: null,
      postFilter: null,
      searchAfter: null,
      terminateAfter: 0,
      onSegment: (ls, si) => agg.onSegment(ls, si),
      onMatch: (_ls, _si, doc, scorer) => agg.collect(doc, agg.needsScores ? scorer.score() : NaN),
    });
    const r = agg.finish();
    return opts.shardResult ? opts.shardResult(r, nodes, shard) : r;
  });
  return reduceAggregations(nodes, results, {
    typedKeys: opts.typedKeys,
    maxBuckets: opts.maxBuckets ?? -1,
    warnings,
    scriptMethods: opts.scriptMethods,
    fetchHits: opts.fetchHits,
    shardOrder: (origin) => index.shards.indexOf(origin as ShardIndex),
  });
}

/** Plain-JSON view (drops undefined, like a serialised response). */
export function json(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v));
}

/** The ES error body `{error, status}` of what `fn` throws (fails if it does not throw). */
export function errorOf(fn: () => unknown): { error: Record<string, any>; status: number } {
  try {
    fn();
  } catch (e) {
    const body = (
      e as { toBody?: () => { error: Record<string, unknown>; status: number } }
    ).toBody?.();
    if (!body) throw e;
    return body as { error: Record<string, any>; status: number };
  }
  throw new Error('expected an error');
}
