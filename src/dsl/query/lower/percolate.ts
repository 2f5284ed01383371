/**
 * The `percolate` query (module percolator, ES 6.8 PercolateQueryBuilder / PercolateQuery): the
 * given documents go into a one-segment memory index parsed with the index's mapping; a doc with
 * a percolator field matches when its stored query matches one of them. The slots (positions
 * of the documents) each stored query matches also feed `_percolator_document_slot`.
 */
import { percolatorQueryField } from '../../../mapping/percolator.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import { joinKeyOf } from '../../../search/query/join.js';
import type { Query } from '../../../search/query/query.js';
import { NO_MORE_DOCS } from '../../../search/query/scorer.js';
import { shardStats } from '../../../search/query/stats.js';
import { createWeight } from '../../../search/query/weights.js';
import { EsError } from '../../../common/errors.js';
import { illegalState } from '../errors.js';
import { percolateLookup } from '../terms-lookup-once.js';
import type { PercolateNode } from '../nodes.js';
import { withDisplay } from './build.js';
import type { IndexQueryContext, LowerState } from './context.js';
import { shardError } from './fields.js';

/**
 * The slots of the node's documents a stored query (its JSON) matches, cached per query, with
 * its best score over them (ES PercolateQuery: the top hit of the memory index).
 */
export interface SlotMatch {
  readonly slots: readonly number[];
  readonly score: number;
}
export type SlotMatcher = (queryJson: string) => SlotMatch;

export function percolateMatcher(
  node: PercolateNode,
  ctx: IndexQueryContext,
  lower: (json: unknown) => Query,
): SlotMatcher {
  let memory: LiveSegment | null = null;
  const cache = new Map<string, SlotMatch>();
  return (json) => {
    let m = cache.get(json);
    if (m) return m;
    if (!ctx.percolateSegment) throw illegalState('percolate queries need a memory index');
    memory ??= ctx.percolateSegment(percolateDocuments(node, ctx));
    const snapshot = { generation: 0, segments: [memory], maxDoc: memory.segment.maxDoc, numDocs: memory.segment.maxDoc }; // prettier-ignore
    const w = createWeight(lower(JSON.parse(json)), {
      stats: shardStats(snapshot),
      needsScores: true,
      segments: [memory],
    });
    const s = w.scorer(memory);
    const found: number[] = [];
    let score = 0;
    if (s)
      for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) {
        found.push(d);
        score = Math.max(score, s.score());
      }
    cache.set(json, (m = { slots: found, score }));
    return m;
  };
}

/**
 * The documents to percolate: given, or the indexed document, read before the search like a
 * terms lookup (PercolateQueryBuilder.doRewrite fetches it on the coordinating node).
 */
export function percolateDocuments(
  node: PercolateNode,
  ctx: IndexQueryContext,
): readonly Readonly<Record<string, unknown>>[] {
  if (node.documents !== null) return node.documents;
  const d = node.indexed!;
  const l = percolateLookup(d);
  if (!ctx.termsLookup) throw illegalState('query builder must be rewritten first');
  const got = ctx.termsLookup(l.index, l.type, l.id, l.path, l.routing);
  const doc = got?.[0];
  if (doc === undefined || doc === null || typeof doc !== 'object')
    throw new EsError(
      'resource_not_found_exception',
      `indexed document [${d.index}/${l.type}/${d.id}] couldn't be found`,
      404,
    );
  return [doc as Record<string, unknown>];
}

/** The stored query of a doc (its percolator field's JSON), null without one. */
export const storedQuery = (ls: LiveSegment, field: string, doc: number): string | null =>
  joinKeyOf(ls.segment, percolatorQueryField(field), doc);

export function lowerPercolate(
  node: PercolateNode,
  st: LowerState,
  lower: (json: unknown) => Query,
): Query {
  const f = st.ctx.field(node.field);
  if (!f) throw shardError(st, `field [${node.field}] does not exist`);
  if (f.type !== 'percolator')
    throw shardError(
      st,
      `expected field [${node.field}] to be of type [percolator], but is of type [${f.type}]`,
    );
  percolateDocuments(node, st.ctx);
  const matches = percolateMatcher(node, st.ctx, lower);
  const describe = `PercolateQuery{field=${f.path}}`;
  return withDisplay(
    {
      kind: 'Predicate',
      factory: {
        describe,
        forSegment: (ls) => (doc) => {
          const q = storedQuery(ls, f.path, doc);
          return q !== null && matches(q).slots.length > 0;
        },
        scores: (ls) => (doc) => {
          const q = storedQuery(ls, f.path, doc);
          return q === null ? 0 : matches(q).score;
        },
      },
      boost: 1,
    },
    describe,
  );
}
