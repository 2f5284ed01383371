/**
 * `wait_for_active_shards` of a write (ES ActiveShardCount): how many copies of the shard must be
 * active before the primary runs the write — a number, `all` (every copy), or the index's
 * `index.write.wait_for_active_shards` (default 1, the primary alone).
 */
import { EsError, illegalArgument } from '../common/errors.js';
import type { IndexService } from './index-service.js';
import { getStr } from './index-settings.js';
import type { WriteRequest } from './write-request.js';

export interface ActiveShardCount {
  readonly required: number;
  /** As ES prints it: the number, or `ALL`. */
  readonly label: string;
}

export function requiredActiveShards(
  param: string | undefined,
  idx: IndexService,
): ActiveShardCount {
  const v = param ?? getStr(idx.meta.settings, 'index.write.wait_for_active_shards', '1');
  if (v === 'all') return { required: 1 + idx.numberOfReplicas, label: 'ALL' };
  const n = Number(v);
  if (v === '' || !Number.isInteger(n) || n < 0)
    throw illegalArgument(`cannot parse ActiveShardCount[${v}]`);
  return { required: n, label: String(n) };
}

/** ES UnavailableShardsException when too few copies are active when the wait ends. */
export function notEnoughActiveCopies(
  index: string,
  shard: number,
  count: ActiveShardCount,
  active: number,
  timeoutMs: number,
  request: string,
): EsError {
  const t = timeoutMs % 60_000 === 0 ? `${timeoutMs / 60_000}m` : timeoutMs % 1000 === 0 ? `${timeoutMs / 1000}s` : `${timeoutMs}ms`; // prettier-ignore
  return new EsError(
    'unavailable_shards_exception',
    `[${index}][${shard}] Not enough active copies to meet shard count of [${count.label}] (have ${active}, needed ${count.required}). Timeout: [${t}], request: [${request}]`,
    503,
    { meta: { index, shard: String(shard) } },
  );
}

/**
 * ES BulkShardRequest.toString as unavailable-shards messages quote it: the one request itself
 * (IndexRequest / DeleteRequest toString), or how many there are.
 */
export function describeBulkShardRequest(
  index: string,
  shard: number,
  items: readonly WriteRequest[],
): string {
  const one = items.length === 1 ? items[0]! : null;
  const head = `BulkShardRequest [[${index}][${shard}]] containing [`;
  if (one?.kind === 'delete') return `${head}delete {[${one.index}][${one.type}][${one.id}]}]`;
  if (one?.kind === 'index') {
    let src = '_na_';
    try {
      src = JSON.stringify(JSON.parse(one.source.toString('utf8')));
    } catch {
      // ES prints _na_ when the source cannot be rendered
    }
    return `${head}index {[${one.index}][${one.type}][${one.id}], source[${src}]}]`;
  }
  return `${head}${items.length}] requests`;
}
