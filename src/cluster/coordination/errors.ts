/** The errors of coordination, with Elasticsearch 6.8's type names (all 500 unless noted). */
import { EsError } from '../../common/errors.js';

/** ES NotMasterException: the write was not committed, and no later master can see it. */
export const notMaster = (reason = 'no longer master') =>
  new EsError('not_master_exception', reason, 500);

/** ES MasterNotDiscoveredException (503): the node holds no lease, so it has no master. */
export const masterNotDiscovered = () => new EsError('master_not_discovered_exception', null, 503);

/** ES ShardStateAction.NoLongerPrimaryShardException: the shard's term moved on. */
export const noLongerPrimary = (indexUuid: string, shard: number, reason: string) =>
  new EsError('no_longer_primary_shard_exception', reason, 500, {
    meta: { index_uuid: indexUuid, shard: String(shard) },
  });

/**
 * A master write computed from a state older than a shard's terms (a primary changed its in-sync
 * set meanwhile): nothing was written; the master runs the update again on a newer state. ES's
 * masters serialize these changes themselves; here primaries write terms directly, so the master
 * must never put back an in-sync set a primary has since narrowed.
 */
export const staleTerms = (revision: number) =>
  new EsError('failed_to_commit_cluster_state_exception', `a shard's terms changed after revision [${revision}]`, 500); // prettier-ignore

/** A second live node with the same persistent node id. */
export const nodeIdTaken = (nodeId: string) =>
  new EsError('illegal_state_exception', `node id [${nodeId}] is already in the cluster`, 500);
