/**
 * Inner hits of `has_child` and `has_parent` queries (ES InnerHitsPhase with
 * ParentChildInnerHitContextBuilder): per top-level hit, the children or parent that match the
 * query's inner query, searched on the hit's own shard and rendered like hits, under the
 * inner_hits' name, each with the inner hits of the queries within (ES
 * ParentChildInnerHitContextBuilder children). Every inner_hits definition of the query (nested
 * ones too, which nested-inner-hits.ts renders) is checked here before any shard runs.
 */
import { EsError } from '../../common/errors.js';
import type { FieldMapping } from '../../mapping/types.js';
import {
  joinChildrenOf,
  joinFieldOf,
  joinParentOf,
  parentIdFieldName,
} from '../../mapping/join.js';
import { collectTopDocs, type CollectedHit } from '../../search/collect/top-docs.js';
import type { SortKey } from '../../search/collect/sort.js';
import type { LiveSegment, ShardSnapshot } from '../../search/index/live-segment.js';
import { joinKeyOf } from '../../search/query/join.js';
import { boolQuery, type Query } from '../../search/query/query.js';
import { createWeight } from '../../search/query/weights.js';
import { isPlainQuery, toSearchQuery, type QueryNode } from '../query/index.js';
import type { FetchHit, FetchOptions } from './fetch.js';
import { parseInnerHit, type InnerHitSpec } from './collapse.js';
import { nestedInnerHitsOf } from './nested-inner-hits.js';
import { resolveSort } from './sort-keys.js';

/** One inner_hits definition found in the query. */
export interface InnerHitDef {
  readonly name: string;
  readonly kind: 'nested' | 'child' | 'parent';
  /** The nested path, the child type or the parent type. */
  readonly target: string;
  readonly query: QueryNode;
  readonly spec: InnerHitSpec;
}

const isQueryNode = (v: unknown): v is QueryNode =>
  v !== null && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string' &&
  'queryName' in v; // prettier-ignore

/** Definitions by parsed query: a parsed query never changes, and a search asks more than once. */
const innerHitsByQuery = new WeakMap<QueryNode, readonly InnerHitDef[]>();

const NO_INNER_HITS: readonly InnerHitDef[] = Object.freeze([]);

/** InnerHitContextBuilder.extractInnerHits: every inner_hits of the query tree, in query order. */
export function extractInnerHits(q: QueryNode): readonly InnerHitDef[] {
  if (isPlainQuery(q)) return NO_INNER_HITS;
  let defs = innerHitsByQuery.get(q);
  if (!defs) innerHitsByQuery.set(q, (defs = collectInnerHits(q)));
  return defs;
}

function collectInnerHits(q: QueryNode): InnerHitDef[] {
  const out: InnerHitDef[] = [];
  const visit = (n: QueryNode): void => {
    const ih = (n as { innerHits?: Record<string, unknown> | null }).innerHits;
    if (ih) {
      const def = innerHitDef(n, ih);
      if (def) {
        if (out.some((d) => d.name === def.name))
          throw new EsError(
            'illegal_argument_exception',
            `[inner_hits] already contains an entry for key [${def.name}]`,
            400,
          );
        out.push(def);
        // the inner hits within are this one's (their names are checked among themselves)
        extractInnerHits(def.query);
      }
      return;
    }
    // ES drops the inner hits within a nested or join query that has none
    if (n.type === 'nested' || n.type === 'has_child' || n.type === 'has_parent') return;
    // for-in, not Object.values: no array per node on every search
    for (const k in n) {
      const v = (n as unknown as Record<string, unknown>)[k];
      if (Array.isArray(v)) for (const x of v) if (isQueryNode(x)) visit(x);
      if (isQueryNode(v)) visit(v);
      else if (v && typeof v === 'object' && !Array.isArray(v))
        for (const j in v) {
          const x = (v as Record<string, unknown>)[j];
          if (isQueryNode(x)) visit(x);
        }
    }
  };
  visit(q);
  return out;
}

function innerHitDef(n: QueryNode, r: Record<string, unknown>): InnerHitDef | null {
  let kind: InnerHitDef['kind'];
  let target: string;
  let query: QueryNode;
  if (n.type === 'nested') [kind, target, query] = ['nested', n.path, n.query];
  else if (n.type === 'has_child') [kind, target, query] = ['child', n.childType, n.query];
  else if (n.type === 'has_parent') [kind, target, query] = ['parent', n.parentType, n.query];
  else return null;
  const spec = parseInnerHit(r);
  return { name: spec.name ?? target, kind, target, query, spec };
}

/** The inner_hits object of one top-level hit, or null when the query has none. */
export function innerHitsOf(
  h: FetchHit,
  defs: readonly InnerHitDef[],
  o: FetchOptions,
  warnings: string[],
  fetch: (page: FetchHit[], o: FetchOptions, warnings: string[]) => Record<string, unknown>[],
): Record<string, unknown> | null {
  if (defs.length === 0) return null;
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    const found = searchInner(h, def, o);
    const fo = innerFetchOptions(def, o, found.sortKeys);
    const page = found.hits.slice(def.spec.from, def.spec.from + def.spec.size);
    out[def.name] = {
      hits: {
        total: found.total,
        max_score: Number.isNaN(found.maxScore) ? null : Math.fround(found.maxScore),
        hits: page.length ? fetch(page, fo, warnings) : [],
      },
    };
  }
  return out;
}

interface InnerTop {
  total: number;
  maxScore: number;
  hits: FetchHit[];
  sortKeys: SortKey[] | null;
}

const EMPTY: InnerTop = { total: 0, maxScore: NaN, hits: [], sortKeys: null };

function searchInner(h: FetchHit, def: InnerHitDef, o: FetchOptions): InnerTop {
  const idx = h.target.idx;
  const qctx = o.queryContext(idx);
  const sortKeys = def.spec.sort === null ? null : resolveSort(def.spec.sort, idx);
  const inner = toSearchQuery(def.query, qctx);
  // nested inner hits are rendered by nested-inner-hits.ts; their definitions are only checked here
  if (def.kind === 'nested') return EMPTY;
  const jf = joinFieldOf(idx.mapping);
  if (!jf) return EMPTY;
  const scope = joinScope(h, def, jf);
  if (!scope) return EMPTY;
  return top(h, h.target.snapshot, boolQuery({ must: [inner], filter: scope }), def, o, sortKeys);
}

/**
 * ParentChildInnerHitContextBuilder: a parent's children of the type (their join key is the
 * hit's id), or a child's parent (the `_id` its join key names).
 */
function joinScope(h: FetchHit, def: InnerHitDef, jf: FieldMapping): Query[] | null {
  const seg = h.segment.segment;
  const relation = joinKeyOf(seg, jf.path, h.doc);
  if (relation === null) return null;
  const term = (field: string, t: string): Query => ({ kind: 'Term', field, term: t, boost: 1 });
  if (def.kind === 'child') {
    const parent = joinParentOf(jf, def.target);
    if (parent === undefined) return null;
    return [term(parentIdFieldName(jf.path, parent), seg.ids[h.doc]!), term(jf.path, def.target)];
  }
  if (joinChildrenOf(jf, def.target) === undefined) return null;
  const parentId = joinKeyOf(seg, parentIdFieldName(jf.path, def.target), h.doc);
  if (parentId === null) return null;
  return [{ kind: 'Ids', ids: [parentId], boost: 1 }, term(jf.path, def.target)];
}

function top(
  h: FetchHit,
  snapshot: ShardSnapshot,
  q: Query,
  def: InnerHitDef,
  o: FetchOptions,
  sortKeys: SortKey[] | null,
): InnerTop {
  const trackScores = def.spec.trackScores;
  const weight = createWeight(q, {
    stats: o.stats(h.target),
    needsScores: sortKeys === null || trackScores,
    segments: h.target.snapshot.segments,
  });
  const t = collectTopDocs(snapshot, weight, {
    numHits: Math.max(0, def.spec.from + def.spec.size),
    sort: sortKeys,
    trackScores,
    needsScores: sortKeys === null || trackScores,
    minScore: null,
    postFilter: null,
    searchAfter: null,
    terminateAfter: 0,
  });
  const hits = t.hits.map((x: CollectedHit): FetchHit => ({ ...x, target: h.target }));
  return { total: t.totalHits, maxScore: t.maxScore, hits, sortKeys };
}

/** What an inner hit shows (InnerHitBuilder: `_source`, version, docvalue_fields, ...). */
function innerFetchOptions(
  def: InnerHitDef,
  o: FetchOptions,
  sortKeys: SortKey[] | null,
): FetchOptions {
  const h = def.spec;
  const nested = nestedInnerHitsOf(def.query);
  return {
    source: h.source === undefined ? { includes: [], excludes: [] } : h.source,
    storedFields: h.storedFields,
    docvalueFields: h.docvalueFields ?? [],
    version: h.version,
    seqNoPrimaryTerm: h.seqNoPrimaryTerm,
    explain: false,
    highlight: null,
    sortKeys,
    nodeId: o.nodeId,
    parsedQuery: def.query,
    queryContext: o.queryContext,
    stats: o.stats,
    docvalueFormatWarning: false,
    // the inner hits of the queries within: join ones by fetchHits, nested ones by fetchOne
    queryInnerHits: true,
    ...(nested.length > 0 ? { innerHits: nested } : {}),
  };
}
