/**
 * Running a folded query (ES Querier): the search source goes to the DSL executor; hits become rows
 * through a scroll (ScrollCursor), composite buckets through `after_key` paging
 * (CompositeAggCursor), an implicit grouping's single bucket into one row, PIVOT buckets into one
 * row per grouping (PivotRowSet). ORDER BY on aggregates consumes every page and sorts in memory
 * (LocalAggregationSorterListener, at most 10,000 rows).
 */
import { compare } from '../../functions/comparison.js';
import { sqlIllegalArgument } from '../../functions/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import type { QueryContainer } from '../translate/container.js';
import { isAggsOnly, sortingColumns } from '../translate/container.js';
import { ROOT_GROUP_NAME, toSearchSource } from '../translate/to-search-source.js';
import type { Json } from '../translate/query-dsl.js';
import {
  bucketExtractor,
  hitExtractor,
  type Bucket,
  type ExtractContext,
  type Hit,
  innerHitPath,
  innerHitsOf,
} from './extract.js';
import type { AliasFilters } from '../../dsl/search/alias-filter.js';
import { scrollNext, search, type SqlNode } from './search.js';
import type { CursorState } from './cursors.js';
import { MAX_RESULT_WINDOW, offsetPlan } from '../translate/offset.js';
import { getInt } from '../../engine/index-settings.js';
import { skipRows } from './offset.js';
import { withSqlNullHaving } from './having-nulls.js';

const MAX_AGG_SORT = 10000;

export interface RunOptions {
  readonly fetchSize: number;
  readonly filter: Json | null;
  readonly extract: ExtractContext;
  /**
   * `page_timeout`: the keep-alive of scroll cursors and, as ES 7.10 uses it (swapped with
   * `request_timeout` until 7.16), the `timeout` of aggregation searches.
   */
  readonly pageTimeoutMs: number;
  /** The alias filters of the FROM expression (ES SQL searches it as written). */
  readonly aliasFilters?: AliasFilters;
}

/** A cursor state before the session adds columns and expiry. */
export type PendingCursor = CursorState extends infer T
  ? T extends CursorState
    ? Omit<T, 'columns' | 'expiresAt' | 'timeoutMs'>
    : never
  : never;

export interface FirstPage {
  readonly rows: unknown[][];
  /** The state of the next page, or null when this was the last. */
  readonly next: PendingCursor | null;
}

const aliasOptions = (o: RunOptions) => (o.aliasFilters ? { aliasFilters: o.aliasFilters } : {});

/** Aggregation searches: the page timeout as the search timeout. */
const searchOptions = (o: RunOptions) => ({ timeoutMs: o.pageTimeoutMs, ...aliasOptions(o) });

const project = (row: unknown[], mask: readonly number[]) => mask.map((i) => row[i]);

export async function runQuery(
  node: SqlNode,
  indices: readonly IndexService[],
  container: QueryContainer,
  o: RunOptions,
): Promise<FirstPage> {
  const window = Math.min(
    MAX_RESULT_WINDOW,
    ...indices.map((i) => getInt(i.meta.settings, 'index.max_result_window', MAX_RESULT_WINDOW)),
  );
  const { c, skip, body } = firstRequest(container, o.filter, o.fetchSize, window);
  if (skip > 0)
    return skipRows(node, await runContainer(node, indices, c, body, o), skip, o.pageTimeoutMs);
  return runContainer(node, indices, c, body, o);
}

/** What a container runs as its first search: the container after OFFSET, and the body. */
interface FirstRequest {
  readonly c: QueryContainer;
  readonly skip: number;
  readonly body: Record<string, unknown>;
  readonly fetchSize: number;
  readonly window: number;
}

/**
 * A cached plan's container runs the same first search every time (without a request filter):
 * its body is kept with the container, and being the same object, its parsed form too (see
 * search.ts), so that a repeated statement neither rebuilds nor re-parses its request.
 */
const firstRequests = new WeakMap<QueryContainer, FirstRequest>();

function firstRequest(
  container: QueryContainer,
  filter: Json | null,
  fetchSize: number,
  window: number,
): FirstRequest {
  const kept = filter === null ? firstRequests.get(container) : undefined;
  if (kept !== undefined && kept.fetchSize === fetchSize && kept.window === window) return kept;
  // EXTENSION: OFFSET runs as `from` or as rows skipped after the search
  const { container: c, skip } = offsetPlan(container, fetchSize, window);
  const source = toSearchSource(container, filter, fetchSize, window) as Record<string, unknown>;
  // issue 16: HAVING compares an aggregate without values as SQL NULL (having-nulls.ts)
  const body = isAggsOnly(c) ? withSqlNullHaving(withSumValueCounts(source, c)) : source;
  const made = { c, skip, body, fetchSize, window };
  if (filter === null) firstRequests.set(container, made);
  return made;
}

async function runContainer(
  node: SqlNode,
  indices: readonly IndexService[],
  c: QueryContainer,
  body: Record<string, unknown>,
  o: RunOptions,
): Promise<FirstPage> {
  if (!isAggsOnly(c)) return runHits(node, indices, c, body, o);
  if (c.groups.length === 0) return runImplicit(node, indices, c, body, o);
  return runComposite(node, indices, c, body, o);
}

/** The name of the value count that tells whether a SUM saw any value (see withSumValueCounts). */
export const sumValuesName = (aggId: string): string => `values_of_${aggId}`;

/**
 * SQL's SUM over no values is NULL, ES's `sum` aggregation 0: executed searches count the values
 * beside each `sum` (a `value_count` over the same source) so extraction can answer NULL. The
 * search `_sql/translate` shows stays ES's.
 */
function withSumValueCounts(
  body: Record<string, unknown>,
  c: QueryContainer,
): Record<string, unknown> {
  const sums = c.aggs.filter((a) => a.kind === 'metric' && a.type === 'sum');
  const aggs = body.aggregations as Record<string, Record<string, unknown>> | undefined;
  const root = aggs?.[ROOT_GROUP_NAME];
  const subs = root?.aggregations as Record<string, Record<string, unknown>> | undefined;
  if (sums.length === 0 || root === undefined || subs === undefined) return body;
  const extra: Record<string, unknown> = { ...subs };
  for (const a of sums) {
    const sum = subs[a.id]?.sum;
    if (sum !== undefined) extra[sumValuesName(a.id)] = { value_count: sum };
  }
  return {
    ...body,
    aggregations: { ...aggs, [ROOT_GROUP_NAME]: { ...root, aggregations: extra } },
  };
}

async function runHits(
  node: SqlNode,
  indices: readonly IndexService[],
  c: QueryContainer,
  body: Record<string, unknown>,
  o: RunOptions,
): Promise<FirstPage> {
  const extractors = c.fields.map((f) => hitExtractor(f.ref, o.extract));
  const nested = innerHitPath(c.fields.map((f) => f.ref));
  // ES SearchHitRowSet: with nested fields, a row per inner hit of each hit
  const extract = (hit: Hit): unknown[][] =>
    nested === null
      ? [
          project(
            extractors.map((e) => e(hit)),
            c.mask,
          ),
        ]
      : innerHitsOf(hit, nested).map((inner) =>
          project(
            extractors.map((e) => e(hit, inner)),
            c.mask,
          ),
        );
  const pageSize = (body.size as number | undefined) ?? o.fetchSize;
  const limited = c.limit > 0 && c.limit <= o.fetchSize;
  const res = await search(
    node,
    indices,
    body,
    limited
      ? aliasOptions(o)
      : { scrollSize: pageSize, keepAliveMs: o.pageTimeoutMs, ...aliasOptions(o) },
  );
  const hits = ((res.body.hits as { hits: Hit[] }).hits ?? []).slice(
    0,
    limited ? c.limit : pageSize,
  );
  let rows = hits.flatMap(extract);
  if (c.limit > 0) rows = rows.slice(0, c.limit);
  const remaining = c.limit > 0 ? c.limit - rows.length : -1;
  if (res.scrollId === null || remaining === 0) return { rows, next: null };
  return {
    rows,
    next: { kind: 'scroll', scrollId: res.scrollId, extract, remaining, pageSize },
  };
}

/** The next page of a scroll cursor. */
export async function nextHitsPage(
  node: SqlNode,
  s: Extract<CursorState, { kind: 'scroll' }>,
): Promise<{ rows: unknown[][]; done: boolean }> {
  const { hits, done } = await scrollNext(node, s.scrollId, s.timeoutMs);
  let rows = hits.flatMap(s.extract);
  if (s.remaining >= 0) {
    rows = rows.slice(0, s.remaining);
    s.remaining -= rows.length;
  }
  return { rows, done: done || s.remaining === 0 };
}

function rootAgg(body: Record<string, unknown>): Record<string, unknown> | undefined {
  return (body.aggregations as Record<string, Record<string, unknown>> | undefined)?.[
    ROOT_GROUP_NAME
  ];
}

function totalHits(body: Record<string, unknown>): number {
  const t = (body.hits as { total?: unknown } | undefined)?.total;
  return typeof t === 'number'
    ? t
    : typeof t === 'object' && t !== null
      ? Number((t as { value: number }).value)
      : 0;
}

async function runImplicit(
  node: SqlNode,
  indices: readonly IndexService[],
  c: QueryContainer,
  body: Record<string, unknown>,
  o: RunOptions,
): Promise<FirstPage> {
  const res = await search(node, indices, body, searchOptions(o));
  const scope = { totalHits: totalHits(res.body) };
  const extractors = c.fields.map((f) => bucketExtractor(f.ref, o.extract, scope));
  const root = rootAgg(res.body);
  // only a COUNT(*) derived from hits.total: one empty bucket
  const buckets: Bucket[] = root ? ((root.buckets as Bucket[]) ?? []) : [{}];
  if (buckets.length > 1) {
    throw sqlIllegalArgument(
      'Too many groups returned by the implicit group; expected 1, received {}',
      [buckets.length],
    );
  }
  return {
    rows: buckets.map((b) =>
      project(
        extractors.map((e) => e(b)),
        c.mask,
      ),
    ),
    next: null,
  };
}

interface CompositePage {
  rows: unknown[][];
  afterKey: Record<string, unknown> | null;
}

async function runComposite(
  node: SqlNode,
  indices: readonly IndexService[],
  c: QueryContainer,
  body: Record<string, unknown>,
  o: RunOptions,
): Promise<FirstPage> {
  const pivot = c.fields.some((f) => f.ref.kind === 'pivot');
  const requested = ((rootAgg(body)?.composite as { size?: number } | undefined)?.size ??
    o.fetchSize) as number;
  // HAVING (a bucket_selector) drops buckets after the composite page is cut: a short page is
  // then no sign of the end, `after_key` is, and pages are fetched until one has a row
  const filtered = c.pipelines.length > 0;
  const fetchOne = async (after: Record<string, unknown> | null): Promise<CompositePage> => {
    const b = after === null ? body : withAfter(body, after);
    const res = await search(node, indices, b, searchOptions(o));
    const scope = { totalHits: totalHits(res.body) };
    const root = rootAgg(res.body) ?? {};
    const buckets = (root.buckets as Bucket[] | undefined) ?? [];
    const more = (filtered || buckets.length >= requested) && root.after_key !== undefined;
    if (pivot) return pivotPage(c, buckets, o, scope, more);
    const extractors = c.fields.map((f) => bucketExtractor(f.ref, o.extract, scope));
    return {
      rows: buckets.map((bk) => extractors.map((e) => e(bk))),
      afterKey: more ? (root.after_key as Record<string, unknown>) : null,
    };
  };
  const fetch = async (after: Record<string, unknown> | null): Promise<CompositePage> => {
    let page = await fetchOne(after);
    while (filtered && page.rows.length < requested && page.afterKey !== null) {
      const more = await fetchOne(page.afterKey);
      page = { rows: [...page.rows, ...more.rows], afterKey: more.afterKey };
    }
    return page;
  };
  const sorting = sortingColumns(c);
  if (sorting.length > 0) return sortInMemory(c, fetch, sorting, o);
  const first = await fetch(null);
  let rows = first.rows.map((r) => (pivot ? r : project(r, c.mask)));
  let remaining = c.limit > 0 ? c.limit : -1;
  if (remaining >= 0) {
    rows = rows.slice(0, remaining);
    remaining -= rows.length;
  }
  if (first.afterKey === null || remaining === 0) return { rows, next: null };
  const next = async (after: Record<string, unknown>) => {
    const p = await fetch(after);
    return { rows: p.rows.map((r) => (pivot ? r : project(r, c.mask))), afterKey: p.afterKey };
  };
  return {
    rows,
    next: { kind: 'composite', next, afterKey: first.afterKey, remaining, pageSize: o.fetchSize },
  };
}

function withAfter(
  body: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const aggs = body.aggregations as Record<string, Record<string, unknown>>;
  const root = aggs[ROOT_GROUP_NAME]!;
  return {
    ...body,
    aggregations: {
      ...aggs,
      [ROOT_GROUP_NAME]: { ...root, composite: { ...(root.composite as object), after } },
    },
  };
}

/** ES PivotRowSet: consecutive buckets sharing the grouping keys make one row. */
function pivotPage(
  c: QueryContainer,
  buckets: Bucket[],
  o: RunOptions,
  scope: { totalHits: number },
  more: boolean,
): CompositePage {
  const groupCols = c.fields.filter((f) => f.ref.kind !== 'pivot');
  const pivotCols = c.fields.filter((f) => f.ref.kind === 'pivot');
  const groupEx = groupCols.map((f) => bucketExtractor(f.ref, o.extract, scope));
  const pivotKeyGroup = c.groups[c.groups.length - 1]!.id;
  const keyOf = (b: Bucket) => {
    const k = { ...(b.key as Record<string, unknown>) };
    delete k[pivotKeyGroup];
    return JSON.stringify(k);
  };
  const runs: Bucket[][] = [];
  for (const b of buckets) {
    const last = runs[runs.length - 1];
    if (last && keyOf(last[0]!) === keyOf(b)) last.push(b);
    else runs.push([b]);
  }
  let afterKey: Record<string, unknown> | null = null;
  if (more && runs.length > 1) {
    // the last group may continue on the next page: fetch it again from the previous group's end
    runs.pop();
    const prev = runs[runs.length - 1]!;
    afterKey = prev[prev.length - 1]!.key as Record<string, unknown>;
  } else if (more) {
    const last = runs[runs.length - 1]!;
    afterKey = last[last.length - 1]!.key as Record<string, unknown>;
  }
  const rows = runs.map((run) => {
    const values = groupEx.map((e) => e(run[0]!));
    for (const f of pivotCols) {
      const ref = f.ref as Extract<typeof f.ref, { kind: 'pivot' }>;
      const pivotEx = bucketExtractor(ref.pivot, o.extract, scope);
      const aggEx = bucketExtractor(ref.agg, o.extract, scope);
      const hit = run.find((b) => {
        const k = pivotEx(b);
        return k === ref.value || (k !== null && ref.value !== null && compare(k, ref.value) === 0);
      });
      values.push(hit ? aggEx(hit) : null);
    }
    return project(values, orderMask(c, groupCols.length));
  });
  return { rows, afterKey };
}

/** Pivot rows are built grouping-first; map the container mask onto that layout. */
function orderMask(c: QueryContainer, groupCount: number): number[] {
  const layout: number[] = [];
  c.fields.forEach((f, i) => f.ref.kind !== 'pivot' && layout.push(i));
  c.fields.forEach((f, i) => f.ref.kind === 'pivot' && layout.push(i));
  void groupCount;
  return c.mask.map((m) => layout.indexOf(m));
}

async function sortInMemory(
  c: QueryContainer,
  fetch: (after: Record<string, unknown> | null) => Promise<CompositePage>,
  sorting: ReturnType<typeof sortingColumns>,
  o: RunOptions,
): Promise<FirstPage> {
  if (c.limit > MAX_AGG_SORT) {
    throw sqlIllegalArgument('The maximum LIMIT for aggregate sorting is [{}], received [{}]', [
      MAX_AGG_SORT,
      c.limit,
    ]);
  }
  const all: unknown[][] = [];
  let after: Record<string, unknown> | null = null;
  do {
    const p = await fetch(after);
    all.push(...p.rows);
    after = p.afterKey;
    if (c.limit < 0 && all.length > MAX_AGG_SORT) {
      throw sqlIllegalArgument(
        'The default limit [{}] for aggregate sorting has been reached; please specify a LIMIT',
        [MAX_AGG_SORT],
      );
    }
  } while (after !== null);
  const indexed = all.map((row, i) => ({ row, i }));
  indexed.sort((a, b) => {
    for (const s of sorting) {
      const x = a.row[s.index];
      const y = b.row[s.index];
      if (s.direction !== null) {
        if (x === null || x === undefined || y === null || y === undefined) {
          if ((x ?? null) === (y ?? null)) continue;
          const nullFirst = s.missing === 'FIRST';
          return (x === null || x === undefined) === nullFirst ? -1 : 1;
        }
        const cmp = compare(x, y) ?? 0;
        if (cmp !== 0) return s.direction === 'ASC' ? cmp : -cmp;
      } else if (x !== y && !(x !== null && y !== null && compare(x, y) === 0)) {
        return a.i - b.i;
      }
    }
    return a.i - b.i;
  });
  const limited = c.limit > 0 ? indexed.slice(0, c.limit) : indexed;
  const rows = limited.map((x) => project(x.row, c.mask));
  return listPage(rows, o.fetchSize);
}

/** A result held in memory, paged by fetch size (ES ListCursor). */
export function listPage(rows: unknown[][], pageSize: number): FirstPage {
  if (rows.length <= pageSize) return { rows, next: null };
  return { rows: rows.slice(0, pageSize), next: { kind: 'list', rows, pos: pageSize, pageSize } };
}
