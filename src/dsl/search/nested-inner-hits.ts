/**
 * `inner_hits` of `nested` queries (ES InnerHitsContext / NestedInnerHitSubSearchContext): for
 * each hit, the nested documents of the query's path under that hit which match the query's
 * inner query, best score first then document order, each shown with `_nested` (field and
 * offset, one level per nested object from the root, paths relative to the level above), its
 * own part of `_source` and its docvalue_fields, under the inner hit's name (the path unless
 * `name` is given). The inner hits of the nested queries within the query are rendered on each
 * of those nested hits (ES NestedQueryBuilder.extractInnerHitBuilders), and a nested query
 * without inner_hits hides those within it.
 */
import { filterSource, isFilterEmpty, type SourceFilter } from '../../common/source-filter.js';
import type { IndexService } from '../../engine/index-service.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import { nestedChildren } from '../../search/index/segment.js';
import type { Segment } from '../../search/index/segment.js';
import { NO_MORE_DOCS } from '../../search/query/scorer.js';
import { createWeight } from '../../search/query/weights.js';
import { isPlainQuery, toSearchQuery, type NestedNode, type QueryNode } from '../query/index.js';
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
  /** The inner hits of the nested queries within `query`, rendered on each of these hits. */
  readonly children: readonly NestedInnerHits[];
}

/** One level of a nested hit's identity: the path relative to the level above, and the offset. */
export interface NestedLevel {
  readonly field: string;
  readonly offset: number;
}

/** A nested hit's place: `field`/`offset` of its own level, `chain` from the root level down. */
export interface NestedIdentity {
  /** The full nested path of the hit. */
  readonly field: string;
  readonly offset: number;
  readonly chain?: readonly NestedLevel[];
}

/** ES SearchHit.NestedIdentity as XContent: the root level first, each inner one in `_nested`. */
export function renderNestedIdentity(chain: readonly NestedLevel[]): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (let i = chain.length - 1; i >= 0; i--) {
    const l = chain[i]!;
    out = out
      ? { field: l.field, offset: l.offset, _nested: out }
      : { field: l.field, offset: l.offset };
  }
  return out ?? {};
}

/** The levels of an identity (the one-level form aggregations' top_hits give included). */
export const nestedChain = (n: NestedIdentity): readonly NestedLevel[] =>
  n.chain ?? [{ field: n.field, offset: n.offset }];

/** The nested queries of a request that ask for inner hits, in query order. */
export function nestedInnerHitsOf(query: QueryNode | null): NestedInnerHits[] {
  const out: NestedInnerHits[] = [];
  if (query !== null && isPlainQuery(query)) return out;
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const rec = v as Record<string, unknown>;
    if (rec.type === 'nested' && typeof rec.path === 'string') {
      // the inner hits within belong to these nested hits, or to none without inner_hits
      if (rec.innerHits) out.push(innerHitsSpec(rec as unknown as NestedNode));
      return;
    }
    // a join query's docs are other docs: its inner hits render their own nested inner hits
    if ((rec.type === 'has_child' || rec.type === 'has_parent') && 'queryName' in rec) return;
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
    children: nestedInnerHitsOf(n.query),
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

/** A candidate nested doc of the innermost level with its identity. */
interface Candidate {
  readonly doc: number;
  readonly chain: readonly NestedLevel[];
}

/** The nested object paths from below `base` (null: the root) down to `path`, outermost first. */
function levelsBetween(idx: IndexService, base: string | null, path: string): string[] {
  const out: string[] = [];
  for (const o of idx.mapping?.objectsByPath.values() ?? []) {
    if (o.type !== 'nested') continue;
    if (o.path !== path && !path.startsWith(`${o.path}.`)) continue;
    if (base !== null && !o.path.startsWith(`${base}.`)) continue;
    out.push(o.path);
  }
  return out.sort((a, b) => a.length - b.length);
}

/** The nested docs of `path` under hit `h` (walking each level between), in doc order. */
function nestedCandidates(
  h: FetchHit,
  base: NestedIdentity | undefined,
  path: string,
): { segment: LiveSegment | null; candidates: Candidate[] } {
  const levels = levelsBetween(h.target.idx, base?.field ?? null, path);
  let seg: Segment = h.segment.segment;
  let child: LiveSegment | null = null;
  let prev = base?.field ?? null;
  let cands: Candidate[] = [{ doc: h.doc, chain: base ? nestedChain(base) : [] }];
  for (const level of levels) {
    const block = seg.nested.get(level);
    if (!block) return { segment: null, candidates: [] };
    const field = prev === null ? level : level.slice(prev.length + 1);
    const next: Candidate[] = [];
    for (const c of cands) {
      // offsets count from the parent's first child (its position in the source array)
      const [first, end] = nestedChildren(block, c.doc);
      for (let d = first; d < end; d++)
        next.push({ doc: d, chain: [...c.chain, { field, offset: d - first }] });
    }
    seg = block.segment;
    child = { segment: seg, live: null, deleted: 0, docBase: 0 };
    prev = level;
    cands = next;
  }
  return { segment: child, candidates: cands };
}

/**
 * The `inner_hits` object of one hit (top-level, or a nested inner hit for the inner hits
 * within). `render` shows one nested hit with the options given (fetch.ts's fetchOne).
 */
export function innerHitsFor(
  h: FetchHit,
  specs: readonly NestedInnerHits[],
  o: FetchOptions,
  render: (hit: FetchHit, opts: FetchOptions) => Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const idx: IndexService = h.target.idx;
  const base = (h as { nested?: NestedIdentity }).nested;
  for (const spec of specs) {
    const matches: Array<{ doc: number; chain: readonly NestedLevel[]; score: number }> = [];
    const { segment: child, candidates } = nestedCandidates(h, base, spec.path);
    if (child && candidates.length > 0) {
      const q = toSearchQuery(spec.query, o.queryContext(idx));
      const w = createWeight(q, { stats: o.stats(h.target), needsScores: true });
      const s = w.scorer(child);
      if (s) {
        for (const c of candidates) {
          const d = s.doc < c.doc ? s.advance(c.doc) : s.doc;
          if (d === NO_MORE_DOCS) break;
          if (d === c.doc) matches.push({ doc: d, chain: c.chain, score: s.score() });
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
    if (spec.children.length > 0) opts.innerHits = spec.children;
    else delete opts.innerHits;
    const hits = page.map((m) => {
      const nested: NestedIdentity = {
        field: spec.path,
        offset: m.chain[m.chain.length - 1]!.offset,
        chain: m.chain,
      };
      return render(
        {
          segment: child!,
          doc: m.doc,
          globalDoc: m.doc,
          score: m.score,
          sort: null,
          target: h.target,
          nested,
        } as FetchHit,
        opts,
      );
    });
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
