/**
 * ES MatchedQueriesFetchSubPhase: each hit lists the `_name`d queries of the search query and
 * post_filter that it matches (`matched_queries`). Names are visited in the order of the Java
 * HashMap ES copies them into, so the lists come out in ES's order.
 */
import type { IndexService } from '../../engine/index-service.js';
import type { Query } from '../../search/query/query.js';
import { createWeight, type Weight } from '../../search/query/weights.js';
import { lowerQuery, type IndexQueryContext, type QueryNode } from '../query/index.js';
import { JavaHashMap } from '../query/java-hash-map.js';
import type { FetchHit, FetchOptions } from './fetch.js';

/** Whether a parsed query names any of its parts (most do not: then nothing is lowered again). */
export function hasNamedQuery(node: QueryNode | null): boolean {
  if (node === null) return false;
  const stack: unknown[] = [node];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push(x);
      continue;
    }
    const rec = v as Record<string, unknown>;
    if (typeof rec.queryName === 'string' && typeof rec.type === 'string') return true;
    for (const k in rec) {
      const x = rec[k];
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return false;
}

/** The named queries of one index: the query's, then the post_filter's over them (putAll). */
function namedQueries(
  query: QueryNode,
  postFilter: QueryNode | null,
  ctx: IndexQueryContext,
): JavaHashMap<Query> {
  const names = new JavaHashMap<Query>();
  names.setAll(JavaHashMap.of(lowerQuery(query, ctx).namedQueries));
  if (postFilter) names.setAll(JavaHashMap.of(lowerQuery(postFilter, ctx).namedQueries));
  return names;
}

/** `matched_queries` per hit of the page (hits matching no named query are absent). */
export function matchedQueries(
  page: readonly FetchHit[],
  o: FetchOptions,
): Map<FetchHit, string[]> {
  const out = new Map<FetchHit, string[]>();
  const postFilter = o.parsedPostFilter ?? null;
  if (page.length === 0 || !(hasNamedQuery(o.parsedQuery) || hasNamedQuery(postFilter))) return out;
  const byIndex = new Map<IndexService, Map<FetchHit['segment'], FetchHit[]>>();
  for (const h of page) {
    let segs = byIndex.get(h.target.idx);
    if (!segs) byIndex.set(h.target.idx, (segs = new Map()));
    const list = segs.get(h.segment);
    if (list) list.push(h);
    else segs.set(h.segment, [h]);
  }
  for (const [idx, segs] of byIndex) {
    const names = namedQueries(o.parsedQuery, postFilter, o.queryContext(idx));
    for (const [name, q] of names.entries()) {
      const weights = new Map<FetchHit['target'], Weight>();
      for (const [ls, hits] of segs) {
        const target = hits[0]!.target;
        let w = weights.get(target);
        if (!w)
          weights.set(
            target,
            (w = createWeight(q, { stats: o.stats(target), needsScores: false, segments: target.snapshot.segments })), // prettier-ignore
          );
        // a forward-only scorer per segment: visit its hits in doc order
        const scorer = w.scorer(ls);
        if (scorer === null) continue;
        for (const h of [...hits].sort((a, b) => a.doc - b.doc)) {
          const at = scorer.doc < h.doc ? scorer.advance(h.doc) : scorer.doc;
          if (at !== h.doc) continue;
          const list = out.get(h);
          if (list) list.push(name);
          else out.set(h, [name]);
        }
      }
    }
  }
  return out;
}
