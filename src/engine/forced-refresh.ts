/**
 * `forced_refresh` on write answers. With `refresh=true` a shard that wrote refreshes before it
 * answers, and every answered item of that shard says so (ES's `BulkShardResponse`
 * `setForcedRefresh`): single-document writes and each item of a bulk alike. The flag follows
 * `result`, as in ES's `DocWriteResponse`.
 */
import type { WriteOutcome } from './documents.js';

/** The answer body with `forced_refresh: true` after its `result` (unchanged if it has it). */
export function withForcedRefresh(body: Record<string, unknown>): Record<string, unknown> {
  if (body.forced_refresh === true) return body;
  if (!('result' in body)) return { ...body, forced_refresh: true };
  const out: Record<string, unknown> = {};
  for (const k in body) {
    out[k] = body[k];
    if (k === 'result') out.forced_refresh = true;
  }
  return out;
}

/**
 * Marks the outcomes that wrote as answered after a forced refresh. A noop names no shard (it
 * writes nothing, and a shard with only noops refreshes nothing): it stays unmarked, where ES also
 * marks a noop whose shard took another write of the same bulk.
 */
export function markForcedRefresh(outcomes: Iterable<WriteOutcome | null>): void {
  for (const o of outcomes) if (o?.shard) o.body = withForcedRefresh(o.body);
}
