/**
 * A shard's part of its index's store: an index keeps one store for all its shards, so each shard
 * is given the share its documents hold (an equal share while the index is empty).
 */
import type { IndexService } from './index-service.js';

export function shardStoreShare(idx: IndexService, shardDocs: number): number {
  let docs = 0;
  for (const s of idx.shards) docs += s.search?.stats().docs ?? 0;
  const bytes = idx.storeBytes();
  return docs > 0 ? Math.round((bytes * shardDocs) / docs) : Math.round(bytes / idx.numberOfShards);
}
