/**
 * Where each part of a statement runs (EXTENSION, issue 16): the Query DSL requests it sends —
 * one per SELECT branch — with the clauses each request carries, and what runs in memory after
 * them (OFFSET rows skipped after a scroll or composite paging, ORDER BY on aggregates, UNION's
 * concatenation, duplicate removal, ORDER BY, OFFSET and LIMIT). `POST /_sql/translate?phases`
 * and `EXPLAIN (PLAN EXECUTABLE)` of a UNION answer it.
 */
import { joinSearchSource } from './join.js';
import { windowSearchSource } from './window.js';
import { isAggsOnly, sortingColumns, type QueryContainer } from './container.js';
import type { QueryPlan } from './index.js';
import { offsetPlan } from './offset.js';
import type { Json } from './query-dsl.js';
import { toSearchSource } from './to-search-source.js';

/** The clauses a container's request carries, and the in-memory steps after it. */
function containerParts(
  c: QueryContainer,
  fetchSize: number | null,
): { inDsl: string[]; inMemory: string[] } {
  const inDsl: string[] = [];
  const inMemory: string[] = [];
  const aggs = isAggsOnly(c);
  if (c.query !== null) inDsl.push('WHERE: query');
  if (c.groups.length > 0) inDsl.push('GROUP BY: composite aggregation (paged by after_key)');
  if (c.aggs.length > 0) inDsl.push('aggregates: metric aggregations');
  if (c.pipelines.length > 0) {
    inDsl.push(
      'HAVING: bucket_selector (an aggregate without values is SQL NULL: a comparison drops its group)',
    );
  }
  const memorySort = sortingColumns(c).length > 0;
  if (c.sort.length > 0 && !memorySort)
    inDsl.push(aggs ? 'ORDER BY: composite order' : 'ORDER BY: sort');
  if (memorySort) inMemory.push('ORDER BY on aggregates: every bucket read, sorted in memory');
  const o = offsetPlan(c, fetchSize);
  if (o.from > 0) inDsl.push(`OFFSET ${o.from}: from`);
  if (c.limit >= 0) {
    inDsl.push(
      aggs
        ? `LIMIT ${c.limit}: composite size (rows counted while paging)`
        : `LIMIT ${c.limit}: size`,
    );
  }
  if (o.skip > 0) {
    inMemory.push(
      `OFFSET ${o.skip}: the request asks for ${o.container.limit >= 0 ? `${o.container.limit} ` : 'all '}${aggs ? 'buckets' : 'hits'}; the first ${o.skip} rows are skipped in memory`,
    );
  }
  return { inDsl, inMemory };
}

function branchPhase(
  p: QueryPlan,
  filter: Json | null,
  fetchSize: number,
): { request: { [k: string]: Json }; inMemory: string[] } {
  // a JOIN or window query: its own searches and in-memory steps, shown whole
  if (p.join || p.window) {
    const whole = p.join ? joinSearchSource(p.join, filter) : windowSearchSource(p.window!, filter);
    return {
      request: { plan: whole, in_dsl: ['the searches shown in plan'] },
      inMemory: [
        p.join
          ? 'JOIN: every page of both searches read, hash-joined in memory'
          : 'window functions computed in memory over every page',
      ],
    };
  }
  if (p.container === null) {
    return {
      request: { search: null, in_dsl: [] },
      inMemory: ['no index: evaluated locally'],
    };
  }
  const parts = containerParts(p.container, fetchSize);
  return {
    request: {
      indices: [...p.container.indices],
      search: toSearchSource(p.container, filter, fetchSize),
      in_dsl: parts.inDsl,
    },
    inMemory: parts.inMemory,
  };
}

/** The requests and in-memory steps of a planned statement. */
export function queryPhases(
  p: QueryPlan,
  filter: Json | null,
  fetchSize: number,
): { [k: string]: Json } {
  const u = p.union;
  if (u === undefined) {
    const b = branchPhase(p, filter, fetchSize);
    return { requests: [b.request], in_memory: b.inMemory };
  }
  const branches = u.branches.map((x) => branchPhase(x, filter, fetchSize));
  const inMemory: string[] = [];
  branches.forEach((b, i) => {
    for (const step of b.inMemory) inMemory.push(`request [${i}]: ${step}`);
    if (p.union !== undefined && u.branches[i]!.container !== null)
      inMemory.push(`request [${i}]: every page read`);
  });
  u.all.forEach((all, i) =>
    inMemory.push(
      all
        ? `UNION ALL: rows of request [${i + 1}] appended`
        : `UNION: rows of request [${i + 1}] appended, duplicate rows removed`,
    ),
  );
  if (u.orders.length > 0) {
    const keys = u.orders.map((o) => `${u.columns[o.index]!.name} ${o.direction} NULLS ${o.nulls}`);
    inMemory.push(`ORDER BY ${keys.join(', ')}`);
  }
  if (u.offset > 0) inMemory.push(`OFFSET ${u.offset}`);
  if (u.limit >= 0) inMemory.push(`LIMIT ${u.limit}`);
  return { requests: branches.map((b) => b.request), in_memory: inMemory };
}
