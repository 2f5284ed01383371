/**
 * Which copy of each shard a search reads (ES OperationRouting.searchShards): the active copies
 * (STARTED, or RELOCATING away and still serving), ordered by the request's `preference`; the
 * first is asked, the others are where a failed shard request moves on to.
 */
import { illegalArgument } from '../../common/errors.js';
import type { ClusterState, ShardRouting } from '../state.js';

export interface ShardCopies {
  readonly index: string;
  readonly shard: number;
  /** Node ids in the order to try; empty when the shard has no active copy here. */
  readonly nodes: readonly string[];
}

/** Where the round-robin of requests without a preference stands (one per coordinating node). */
export interface RoundRobin {
  next(): number;
}

export function roundRobin(start = 0): RoundRobin {
  let n = start;
  return { next: () => n++ };
}

const isActive = (c: ShardRouting) =>
  c.nodeId !== null && (c.state === 'STARTED' || c.state === 'RELOCATING');

/** Java String.hashCode, so a custom preference string picks the same copy every time. */
function stringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

const rotate = <T>(list: readonly T[], by: number): T[] => {
  if (list.length === 0) return [];
  const k = ((by % list.length) + list.length) % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
};

/** A node spec of `_only_nodes:`/`_prefer_nodes:`: an id or a name, `*` wildcards allowed. */
function nodeMatcher(state: ClusterState, specs: readonly string[]): (nodeId: string) => boolean {
  const res = specs.map(
    (s) => new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`),
  );
  return (id) => {
    const name = state.nodes.get(id)?.name;
    return res.some((re) => re.test(id) || (name !== undefined && re.test(name)));
  };
}

/**
 * The copies to try for each shard of `targets` (in the given order) under `preference`.
 * Throws ES's errors for an unknown `_` preference and for `_only_nodes` matching no copy.
 */
export function selectShardCopies(
  state: ClusterState,
  localNodeId: string,
  targets: readonly { index: string; shard: number }[],
  preference: string | undefined,
  rr: RoundRobin,
): ShardCopies[] {
  let pref = preference ?? '';
  let onlyShards: Set<number> | null = null;
  if (pref.startsWith('_shards:')) {
    const bar = pref.indexOf('|');
    const list = pref.slice('_shards:'.length, bar < 0 ? undefined : bar);
    onlyShards = new Set(list.split(',').map((x) => Number(x.trim())));
    pref = bar < 0 ? '' : pref.slice(bar + 1);
  }
  const turn = pref === '' ? rr.next() : 0;
  const out: ShardCopies[] = [];
  for (const t of targets) {
    if (onlyShards && !onlyShards.has(t.shard)) continue;
    const copies = (state.routing.get(t.index)?.shards[t.shard] ?? []).filter(isActive);
    out.push({ index: t.index, shard: t.shard, nodes: order(copies, t).map((c) => c.nodeId!) });
  }
  return out;

  function order(copies: ShardRouting[], t: { index: string; shard: number }): ShardRouting[] {
    const preferring = (pred: (c: ShardRouting) => boolean) => [
      ...copies.filter(pred),
      ...copies.filter((c) => !pred(c)),
    ];
    if (pref === '') return rotate(copies, turn + t.shard);
    if (!pref.startsWith('_')) return rotate(copies, stringHash(pref) * 31 + t.shard);
    const colon = pref.indexOf(':');
    const kind = colon < 0 ? pref : pref.slice(0, colon);
    const arg = colon < 0 ? '' : pref.slice(colon + 1);
    switch (kind) {
      case '_local':
        return preferring((c) => c.nodeId === localNodeId);
      case '_only_local':
        return copies.filter((c) => c.nodeId === localNodeId);
      case '_primary':
        return copies.filter((c) => c.primary);
      case '_replica':
        return copies.filter((c) => !c.primary);
      case '_primary_first':
        return preferring((c) => c.primary);
      case '_replica_first':
        return preferring((c) => !c.primary);
      case '_prefer_nodes': {
        const m = nodeMatcher(state, arg.split(','));
        return preferring((c) => m(c.nodeId!));
      }
      case '_only_nodes': {
        const m = nodeMatcher(state, arg.split(','));
        const only = copies.filter((c) => m(c.nodeId!));
        if (only.length === 0)
          throw illegalArgument(
            `no data nodes with criteria [${arg}] found for shard: [${t.index}][${t.shard}]`,
          );
        return only;
      }
      default:
        throw illegalArgument(`no Preference for [${kind}]`);
    }
  }
}
