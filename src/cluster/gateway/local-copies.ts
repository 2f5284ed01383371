/**
 * The shard copies a node holds on disk, each with the allocation id it had when it last started
 * (ES writes it in the shard's state file). The master lists them from every node (ES
 * TransportNodesListGatewayStartedShards) to put a returning replica back on the node that has its
 * data at once, and to bring primaries back after a full restart from in-sync copies only.
 */
import type { Store } from '../../store/store.js';

const PREFIX = 'cluster:copy:';

export const LIST_STARTED_SHARDS_ACTION = 'internal:gateway/local/started_shards';

/** `indexUuid/shard` to the allocation id, as stored. */
export type LocalCopies = Record<string, string>;

export const copyKey = (indexUuid: string, shard: number) => `${indexUuid}/${shard}`;

export function localCopies(store: Store): LocalCopies {
  const out: LocalCopies = {};
  for (const k of store.metaKeys(PREFIX)) {
    const aid = store.getMeta<string>(k);
    if (typeof aid === 'string') out[k.slice(PREFIX.length)] = aid;
  }
  return out;
}

export function recordCopy(
  store: Store,
  indexUuid: string,
  shard: number,
  aid: string,
): Promise<boolean> {
  return store.putMeta(PREFIX + copyKey(indexUuid, shard), aid);
}

/** The copies of a listing whose index the cluster still has (by index uuid). */
export function keptCopies(copies: LocalCopies, uuids: ReadonlySet<string>): LocalCopies {
  const out: LocalCopies = {};
  for (const [k, aid] of Object.entries(copies))
    if (uuids.has(k.slice(0, k.indexOf('/')))) out[k] = aid;
  return out;
}

export async function forgetIndexCopies(store: Store, indexUuid: string): Promise<void> {
  for (const k of store.metaKeys(`${PREFIX}${indexUuid}/`)) await store.removeMeta(k);
}

/**
 * The master's view of every node's on-disk copies (AllocationContext.copies), filled from the
 * listings nodes answer; a node's listing replaces what it said before.
 */
export class CopyListing {
  private readonly byNode = new Map<string, LocalCopies>();

  update(nodeId: string, copies: LocalCopies): void {
    this.byNode.set(nodeId, copies);
  }

  copies(indexUuid: string, shard: number): Map<string, string> {
    const key = copyKey(indexUuid, shard);
    const out = new Map<string, string>();
    for (const [node, copies] of this.byNode) {
      const aid = copies[key];
      if (aid !== undefined) out.set(node, aid);
    }
    return out;
  }
}
