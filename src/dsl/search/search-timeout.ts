/**
 * The search `timeout` of a request (ES SearchSourceBuilder `timeout`, `?timeout=`,
 * SearchService's `search.default_search_timeout`, QueryPhase): its value as the milliseconds the
 * query phase enforces, with ES TimeValue's parse errors, and the request's deadline.
 */
import { parseTimeValueParts, timeValueMillis } from '../../common/units.js';
import { Deadline, type Clock } from '../../search/deadline.js';
import type { SearchRequest } from './request.js';

/** No search timeout (ES SearchService.NO_TIMEOUT, -1ms). */
export const NO_TIMEOUT = -1;

/**
 * A search timeout value in ms. ES tells "no timeout" by comparing with -1ms: `-1` and `-1ms` are
 * none, while `-1s` is a timeout of -1000ms (passed at once), and sub-millisecond values truncate
 * to 0 (TimeValue.millis).
 */
export function searchTimeoutMs(value: string, name: string): number {
  const tv = parseTimeValueParts(value, name);
  return tv.duration === -1 && tv.unit === 'ms' ? NO_TIMEOUT : timeValueMillis(tv);
}

/**
 * The request's deadline (ES SearchService.parseSource, QueryPhase): its own timeout, else the
 * default; none for scrolls (nor the scans of by-query requests and SQL, which ES runs as
 * scrolls). One deadline for all shards: ES times each shard from its own start, but its shards
 * run in parallel; here they run one after the other on one event loop.
 */
export function searchDeadline(
  req: SearchRequest,
  opts: { scroll?: boolean; keepAllHits?: boolean; defaultTimeoutMs?: number; clock?: Clock },
): Deadline | null {
  if (opts.scroll || opts.keepAllHits) return null;
  const ms = req.timeoutMs ?? opts.defaultTimeoutMs ?? NO_TIMEOUT;
  return ms === NO_TIMEOUT ? null : Deadline.after(ms, opts.clock);
}
