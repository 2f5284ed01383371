/**
 * OFFSET in the search request (EXTENSION, issue 16). A hits query whose rows fit in one page
 * (no scroll) and in `index.max_result_window` asks the DSL for them with `from`; otherwise the
 * request fetches `offset + limit` rows (hits or composite buckets) and execution skips the first
 * `offset` in memory (execute/offset.ts).
 */
import type { QueryContainer } from './container.js';
import { isAggsOnly } from './container.js';

/** ES's default `index.max_result_window`: `from + size` beyond it is refused. */
export const MAX_RESULT_WINDOW = 10000;

export interface OffsetPlan {
  /** The container to fetch with: no offset, the limit widened by what is skipped in memory. */
  readonly container: QueryContainer;
  /** The DSL `from` (0: none). */
  readonly from: number;
  /** Rows to skip in memory after the request. */
  readonly skip: number;
}

/** Nested fields make several rows per hit: `from` counts hits, so it cannot be used. */
const hasNestedRows = (c: QueryContainer) =>
  c.fields.some((f) => f.ref.kind === 'hit' && f.ref.hitName !== undefined);

/**
 * How a container's OFFSET runs, for a page size of `fetchSize` (null: no paging) over indices
 * whose smallest `index.max_result_window` is `maxResultWindow`.
 */
export function offsetPlan(
  c: QueryContainer,
  fetchSize: number | null,
  maxResultWindow = MAX_RESULT_WINDOW,
): OffsetPlan {
  const offset = c.offset ?? 0;
  if (offset <= 0) return { container: c, from: 0, skip: 0 };
  const { offset: _, ...rest } = c;
  void _;
  const fitsOnePage = c.limit > 0 && (fetchSize === null || c.limit <= fetchSize);
  if (!isAggsOnly(c) && fitsOnePage && offset + c.limit <= MAX_RESULT_WINDOW && !hasNestedRows(c)) {
    return { container: rest, from: offset, skip: 0 };
  }
  return {
    container: { ...rest, limit: c.limit > 0 ? offset + c.limit : c.limit },
    from: 0,
    skip: offset,
  };
}
