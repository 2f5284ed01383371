/**
 * `inner_hits` of `nested` queries (ES InnerHitsContext / NestedInnerHitSubSearchContext): for
 * each top-level hit, the nested documents of the query's path under that hit which match the
 * query's inner query, best score first then document order, each shown with `_nested` (field and
 * offset), its own part of `_source` and its docvalue_fields, under the inner hit's name (the path
 * unless `name` is given).
 */
import { filterSource, isFilterEmpty, type SourceFilter } from '../../common/source-filter.js';
import type { IndexService } from '../../engine/index-service.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import { nestedChildren } from '../../search/index/segment.js';
import { NO_MORE_DOCS } from '../../search/query/scorer.js';
import { createWeight } from '../../search/query/weights.js';
import { toSearchQuery, type NestedNode, type QueryNode } from '../query/index.js';
import type { FetchHit, FetchOptions } from './fetch.js';
import { parseSourceSpec } from './request.js';
import { parseDocvalueFields } from './request-values.js';

export interface NestedInnerHits {
  readonly name: string;
  readonly path: string;
  readonly query: QueryNode;
  readonly from: number;
  readonly size: number;
  /** null: no `_source`. */
  readonly source: SourceFilter | null;
  readonly noStoredFields: boolean;
  readonly version: boolean;
  readonly seqNoPrimaryTerm: boolean;
  readonly docvalueFields: ReturnType<typeof parseDocvalueFields>;
}

/** The nested queries of a request that ask for inner hits, in query order. */
export function nestedInnerHitsOf(query: QueryNode | null): NestedInnerHits[] {
  const out: NestedInnerHits[] = [];
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const rec = v as Record<string, unknown>;
    if (rec.type === 'nested' && typeof rec.path === 'string' && rec.innerHits) {
      out.push(innerHitsSpec(rec as unknown as NestedNode));
    }
    for (const k in rec) if (k !== 'innerHits') visit(rec[k]);
  };
  visit(query);
  return out;
}

function innerHitsSpec(n: NestedNode): NestedInnerHits {
  const r = n.innerHits!;
  const stored = r.stored_fields;
  const noStoredFields =
    stored === '_none_' || (Array.isArray(stored) && stored.length === 1 && stored[0] === '_none_');
  return {
    name: typeof r.name === 'string' ? r.name : n.path,
    path: n.path,
    query: n.query,
    from: typeof r.from === 'number' ? r.from : 0,
    size: typeof r.size === 'number' ? r.size : 3,
    source:
      r._source !== undefined
        ? parseSourceSpec(r._source)
        : noStoredFields
          ? null
          : { includes: [], excludes: [] },
    noStoredFields,
    version: r.version === true,
    seqNoPrimaryTerm: r.seq_no_primary_term === true,
    docvalueFields: r.docvalue_fields === undefined ? [] : parseDocvalueFields(r.docvalue_fields),
  };
}

/** Filters a nested object with root-level patterns, as ES filters the root source first. */
export function filterNestedObject(obj: unknown, path: string, f: SourceFilter): unknown {
  if (isFilterEmpty(f)) return obj;
  const parts = path.split('.');
  let wrapped: unknown = obj;
  for (let i = parts.length - 1; i >= 0; i--) wrapped = { [parts[i]!]: wrapped };
  let out: unknown = filterSource(wrapped, f);
  for (const p of parts) {
    out = out !== null && typeof out === 'object' ? (out as Record<string, unknown>)[p] : undefined;
  }
  return out ?? {};
}

/**
 * The `inner_hits` object of one top-level hit. `render` shows one nested hit with the options
 * given (fetch.ts's fetchOne).
 */
export function innerHitsFor(
  h: FetchHit,
  specs: readonly NestedInnerHits[],
  o: FetchOptions,
  render: (hit: FetchHit, opts: FetchOptions) => Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const idx: IndexService = h.target.idx;
  for (const spec of specs) {
    const matches: Array<{ doc: number; offset: number; score: number }> = [];
    const block = h.segment.segment.nested.get(spec.path);
    let child: LiveSegment | null = null;
    if (block) {
      child = { segment: block.segment, live: null, deleted: 0, docBase: 0 };
      const [first, end] = nestedChildren(block, h.doc);
      if (first < end) {
        const q = toSearchQuery(spec.query, o.queryContext(idx));
        const w = createWeight(q, { stats: o.stats(h.target), needsScores: true });
        const s = w.scorer(child);
        if (s) {
          // offsets count from the parent's first child (its position in the source array)
          for (let d = s.advance(first); d !== NO_MORE_DOCS && d < end; d = s.next()) {
            matches.push({ doc: d, offset: d - first, score: s.score() });
          }
        }
      }
    }
    matches.sort((a, b) => b.score - a.score || a.doc - b.doc);
    const page = matches.slice(spec.from, spec.from + spec.size);
    const opts: FetchOptions = {
      ...o,
      source: spec.source,
      storedFields: null,
      noStoredFields: spec.noStoredFields,
      version: spec.version,
      seqNoPrimaryTerm: spec.seqNoPrimaryTerm,
      docvalueFields: spec.docvalueFields,
      highlight: null,
      sortKeys: null,
      explain: false,
      docvalueFormatWarning: false,
      nestedSource: { path: spec.path },
    };
    delete opts.scriptFields;
    const hits = page.map((m) =>
      render(
        {
          segment: child!,
          doc: m.doc,
          globalDoc: m.doc,
          score: m.score,
          sort: null,
          target: h.target,
          nested: { field: spec.path, offset: m.offset },
        } as FetchHit,
        opts,
      ),
    );
    let maxScore = -Infinity;
    for (const m of matches) maxScore = Math.max(maxScore, m.score);
    out[spec.name] = {
      hits: {
        total: matches.length,
        max_score: matches.length === 0 ? null : Math.fround(maxScore),
        hits,
      },
    };
  }
  return out;
}
