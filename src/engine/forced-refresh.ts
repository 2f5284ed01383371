/**
 * `forced_refresh` on write answers. With `refresh=true` a shard that wrote refreshes before it
 * answers, and every answered item of that shard says so (ES's `BulkShardResponse`
 * `setForcedRefresh`): single-document writes and each item of a bulk alike. The flag follows
 * `result`, as in ES's `DocWriteResponse`.
 */
import type { WriteOutcome } from './documents.js';
import type { Shard } from './shard.js';

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
 * Marks the outcomes of the shards that wrote as answered after a forced refresh: each write, and
 * each noop answered from a shard another outcome wrote to (a shard with only noops refreshes
 * nothing and says nothing).
 */
export function markForcedRefresh(outcomes: readonly WriteOutcome[]): void {
  const wrote = new Set<Shard>();
  for (const o of outcomes) if (o.shard) wrote.add(o.shard);
  for (const o of outcomes) {
    const at = o.shard ?? o.noopOf;
    if (at && wrote.has(at)) o.body = withForcedRefresh(o.body);
  }
}
