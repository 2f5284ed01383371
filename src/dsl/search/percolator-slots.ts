/**
 * `_percolator_document_slot` (ES PercolatorMatchedSlotSubFetchPhase): for each hit of a
 * `percolate` query, the positions of the percolated documents its stored query matches. With
 * several percolate queries each one's field is suffixed with its `name`.
 */
import type { IndexService } from '../../engine/index-service.js';
import {
  isPlainQuery,
  parseQuery,
  percolateMatcher,
  storedQuery,
  toSearchQuery,
  type PercolateNode,
  type QueryNode,
  type SlotMatcher,
} from '../query/index.js';
import type { FetchHit, FetchOptions } from './fetch.js';

const isQueryNode = (v: unknown): v is QueryNode =>
  v !== null && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string' &&
  'queryName' in v; // prettier-ignore

/** Percolate queries by parsed query (a parsed query never changes; each search fetch asks). */
const percolateByQuery = new WeakMap<QueryNode, readonly PercolateNode[]>();

const NO_PERCOLATE: readonly PercolateNode[] = Object.freeze([]);

/** The percolate queries of a query tree, in query order. */
function percolateNodes(q: QueryNode): readonly PercolateNode[] {
  if (isPlainQuery(q)) return NO_PERCOLATE;
  let nodes = percolateByQuery.get(q);
  if (nodes) return nodes;
  const out: PercolateNode[] = [];
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (!isQueryNode(n)) return;
    if (n.type === 'percolate') out.push(n);
    for (const k in n) {
      const v = (n as unknown as Record<string, unknown>)[k];
      if (Array.isArray(v) || isQueryNode(v)) visit(v);
      else if (v && typeof v === 'object')
        for (const j in v) visit((v as Record<string, unknown>)[j]);
    }
  };
  visit(q);
  percolateByQuery.set(q, (nodes = out));
  return nodes;
}

/** The slot fields of a hit, or null; built once per fetch (matchers cached per index). */
export function percolatorSlots(o: FetchOptions): (h: FetchHit) => Record<string, number[]> | null {
  const nodes = percolateNodes(o.parsedQuery);
  if (nodes.length === 0) return () => null;
  const matchers = new Map<IndexService, Array<SlotMatcher | null>>();
  const matchersOf = (idx: IndexService) => {
    let ms = matchers.get(idx);
    if (!ms) {
      const qctx = o.queryContext(idx);
      ms = nodes.map((n) =>
        qctx.field(n.field)?.type === 'percolator'
          ? percolateMatcher(n, qctx, (json) => toSearchQuery(parseQuery(json), qctx))
          : null,
      );
      matchers.set(idx, ms);
    }
    return ms;
  };
  return (h) => {
    const ms = matchersOf(h.target.idx);
    let out: Record<string, number[]> | null = null;
    nodes.forEach((n, i) => {
      const m = ms[i];
      const json = m ? storedQuery(h.segment, n.field, h.doc) : null;
      if (!m || json === null) return;
      const { slots } = m(json);
      if (slots.length === 0) return;
      const name =
        nodes.length > 1 && n.name !== null
          ? `_percolator_document_slot_${n.name}`
          : '_percolator_document_slot';
      (out ??= {})[name] = [...slots];
    });
    return out;
  };
}
