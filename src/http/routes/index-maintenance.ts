/**
 * Index maintenance APIs that act on every shard of the targeted indices: force merge, upgrade,
 * clear cache and synced flush (ES RestForceMergeAction, RestUpgradeAction,
 * RestClearIndicesCacheAction, RestSyncedFlushAction).
 */
import { randomBytes } from 'node:crypto';
import { nodeRequestCache } from '../../dsl/search/shard-request-cache.js';
import {
  indicesOptionsFrom,
  STRICT_EXPAND_OPEN,
  STRICT_EXPAND_OPEN_FORBID_CLOSED,
  type IndicesOptions,
} from '../../engine/index-names.js';
import type { IndexService } from '../../engine/index-service.js';
import { copiesOf } from '../../engine/copy-broadcast.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, intParam, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';

const OPTS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];

/** ES 6.8.13 ships Lucene 7.7.3: every segment written here is of that version. */
const LUCENE_VERSION = '7.7.3';
const ES_VERSION = '6.8.13';

/** The per-copy operations of these APIs (src/engine/copy-broadcast.ts). */
const FORCE_MERGE = 'indices:admin/forcemerge';
const UPGRADE = 'indices:admin/upgrade';
const CLEAR_CACHE = 'indices:admin/cache/clear';
const SYNCED_FLUSH = 'indices:admin/synced_flush';

export function registerIndexMaintenanceRoutes(router: Router<Handler>, node: NodeContext): void {
  const resolve = (req: RestRequest, base: IndicesOptions): IndexService[] =>
    node.indices.resolve(
      req.params.index ?? '_all',
      indicesOptionsFrom(base, (n) => param(req, n)),
    );

  // ---- force merge: merges each shard's segments down to max_num_segments
  type MergeRequest = { max: number; expunge: boolean; flush: boolean };
  node.copies.operations.set(FORCE_MERGE, async (idx, shards, b) => {
    const { max, expunge, flush } = b as MergeRequest;
    for (const n of shards) {
      const si = idx.shard(n).search;
      if (!si) continue;
      // The engine's force merge rewrites into one segment, dropping deleted documents;
      // with only_expunge_deletes it runs only where deletes exist.
      if (expunge) {
        si.refresh();
        if (si.searcher().segments.some((s) => s.deleted > 0)) si.forceMerge(1);
      } else si.forceMerge(max > 0 ? max : 1);
    }
    if (flush) await idx.flush();
    return shards.map(() => null);
  });
  const forceMerge: Handler = async (req) => {
    checkParams(req, [...OPTS, 'max_num_segments', 'only_expunge_deletes', 'flush']);
    const targets = resolve(req, STRICT_EXPAND_OPEN);
    const body: MergeRequest = {
      max: intParam(req, 'max_num_segments', -1),
      expunge: boolParam(req, 'only_expunge_deletes', false),
      flush: boolParam(req, 'flush', true),
    };
    const run = await node.copies.run(FORCE_MERGE, targets, body);
    return { status: 200, body: { _shards: run.shards } };
  };
  router.add('POST', '/_forcemerge', forceMerge);
  router.add('POST', '/{index}/_forcemerge', forceMerge);

  // ---- upgrade: rewrites segments of an older Lucene; every segment here is current, so the
  // upgrade merges nothing and reports the version each index is at.
  node.copies.operations.set(UPGRADE, (_idx, shards) => shards.map(() => null));
  const upgrade: Handler = async (req) => {
    checkParams(req, [...OPTS, 'wait_for_completion', 'only_ancient_segments']);
    const targets = resolve(req, STRICT_EXPAND_OPEN);
    const run = await node.copies.run(UPGRADE, targets, {});
    const upgraded: Record<string, unknown> = {};
    for (const idx of targets) {
      if (!run.copies.some((c) => c.routing.index === idx.name)) continue;
      upgraded[idx.name] = {
        upgrade_version: ES_VERSION,
        oldest_lucene_segment_version: LUCENE_VERSION,
      };
    }
    return { status: 200, body: { _shards: run.shards, upgraded_indices: upgraded } };
  };
  router.add('POST', '/_upgrade', upgrade);
  router.add('POST', '/{index}/_upgrade', upgrade);

  // ---- clear cache: the request cache is the one cache this engine keeps per shard
  node.copies.operations.set(CLEAR_CACHE, (idx, shards, b) => {
    if ((b as { request: boolean }).request) {
      const cache = nodeRequestCache(
        node.indices,
        node.settings.raw['indices.requests.cache.size'],
      );
      for (const n of shards) cache.clearShard(idx.shard(n));
    }
    return shards.map(() => null);
  });
  const clearCache: Handler = async (req) => {
    checkParams(req, [
      ...OPTS,
      'query',
      'request',
      'fielddata',
      'fields',
      'index',
      'request_cache',
      'field_data',
      'filter',
      'filter_cache',
      'recycler',
    ]);
    // ES ClearIndicesCacheRequest deprecated names
    const deprecated: Array<[string, string]> = [
      ['request_cache', 'request'],
      ['field_data', 'fielddata'],
      ['filter', 'query'],
      ['filter_cache', 'query'],
    ];
    for (const [old, now] of deprecated)
      if (param(req, old) !== undefined)
        req.warnings.push(`Deprecated field [${old}] used, expected [${now}] instead`);
    const flag = (name: string, old?: string): boolean =>
      boolParam(req, name, false) || (old !== undefined && boolParam(req, old, false));
    const request = flag('request', 'request_cache');
    const any =
      request ||
      flag('query', 'filter') ||
      flag('filter_cache') ||
      flag('fielddata', 'field_data') ||
      param(req, 'fields') !== undefined;
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    // ES: with no cache named, every cache is cleared.
    const run = await node.copies.run(CLEAR_CACHE, targets, { request: request || !any });
    return { status: 200, body: { _shards: run.shards } };
  };
  router.add('POST', '/_cache/clear', clearCache);
  router.add('POST', '/{index}/_cache/clear', clearCache);

  // ---- synced flush: a flush that marks each idle primary's commit with a sync id
  // every copy of a shard takes the sync id the coordinating node picked for it
  node.copies.operations.set(SYNCED_FLUSH, async (idx, shards, b) => {
    const ids = (b as { ids: Record<string, string[]> }).ids[idx.name] ?? [];
    await idx.flush();
    return shards.map((n) => {
      const shard = idx.shard(n);
      // a write that arrived during the flush is not in the commit: no sync id then
      if (shard.opsSinceFlush !== 0) return false;
      shard.syncId = ids[n] ?? randomBytes(15).toString('base64url');
      return true;
    });
  });
  const syncedFlush: Handler = async (req) => {
    checkParams(req, OPTS);
    const targets = resolve(req, STRICT_EXPAND_OPEN_FORBID_CLOSED);
    const ids: Record<string, string[]> = {};
    for (const idx of targets)
      ids[idx.name] = Array.from({ length: idx.numberOfShards }, () =>
        randomBytes(15).toString('base64url'),
      );
    const run = await node.copies.run<boolean>(SYNCED_FLUSH, targets, { ids });
    const body: Record<string, unknown> = {};
    let total = 0;
    let successful = 0;
    for (const idx of targets) {
      const copies = copiesOf(idx);
      const ok = run.copies.filter((c) => c.routing.index === idx.name && c.result).length;
      total += copies;
      successful += ok;
      // ES ShardsSyncedFlushResult: copies not synced (unassigned replicas too) are failed
      body[idx.name] = { total: copies, successful: ok, failed: copies - ok };
    }
    const failed = total - successful;
    return {
      status: failed === 0 ? 200 : 409,
      body: { _shards: { total, successful, failed }, ...body },
    };
  };
  router.add(['POST', 'GET'], '/_flush/synced', syncedFlush);
  router.add(['POST', 'GET'], '/{index}/_flush/synced', syncedFlush);
}
