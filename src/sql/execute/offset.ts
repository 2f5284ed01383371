/**
 * OFFSET after the search (EXTENSION, issue 16): when the request could not use `from` (scrolls,
 * composite buckets, in-memory sorts, nested rows), the first `skip` rows are dropped here,
 * reading further pages through the result's own cursor state until enough were skipped. The
 * cursor handed to the client then continues after the skipped rows.
 */
import type { FirstPage, PendingCursor } from './query-runner.js';
import { nextHitsPage } from './query-runner.js';
import { clearScroll, type SqlNode } from './search.js';
import type { CursorState } from './cursors.js';

/** One more page of a pending cursor; `next` null when it was the last. */
async function advance(
  node: SqlNode,
  s: PendingCursor,
  timeoutMs: number,
): Promise<{ rows: unknown[][]; next: PendingCursor | null }> {
  switch (s.kind) {
    case 'scroll': {
      const state = Object.assign(s, { timeoutMs }) as Extract<CursorState, { kind: 'scroll' }>;
      const r = await nextHitsPage(node, state);
      if (r.done) await clearScroll(node, s.scrollId);
      return { rows: r.rows, next: r.done ? null : s };
    }
    case 'composite': {
      const r = await s.next(s.afterKey);
      let rows = r.rows;
      if (s.remaining >= 0) {
        rows = rows.slice(0, s.remaining);
        s.remaining -= rows.length;
      }
      const done = r.afterKey === null || s.remaining === 0;
      if (r.afterKey !== null) s.afterKey = r.afterKey;
      return { rows, next: done ? null : s };
    }
    case 'list': {
      const rows = s.rows.slice(s.pos, s.pos + s.pageSize) as unknown[][];
      s.pos += rows.length;
      return { rows, next: s.pos >= s.rows.length ? null : s };
    }
  }
}

/** The page after skipping `skip` rows of `first` and of the pages after it. */
export async function skipRows(
  node: SqlNode,
  first: FirstPage,
  skip: number,
  timeoutMs: number,
): Promise<FirstPage> {
  let rows = first.rows;
  let next = first.next;
  let left = skip;
  while (rows.length <= left && next !== null) {
    left -= rows.length;
    const page = await advance(node, next, timeoutMs);
    rows = page.rows;
    next = page.next;
  }
  return { rows: rows.slice(left), next };
}

/** Every row of a result (all its pages), at most `max`; `onTooMany` builds the error past it. */
export async function drainRows(
  node: SqlNode,
  first: FirstPage,
  timeoutMs: number,
  max: number,
  onTooMany: () => Error,
): Promise<unknown[][]> {
  const rows = [...first.rows];
  let next = first.next;
  while (next !== null) {
    if (rows.length > max) {
      if (next.kind === 'scroll') await clearScroll(node, next.scrollId);
      throw onTooMany();
    }
    const page = await advance(node, next, timeoutMs);
    rows.push(...page.rows);
    next = page.next;
  }
  if (rows.length > max) throw onTooMany();
  return rows;
}
