/**
 * A private, mutable working copy of the routing table and the per-shard terms (ES RoutingNodes
 * plus IndexMetaDataUpdater). Every public allocation function opens one from a state, changes
 * it, and closes it into a NEW state, so callers only ever see immutable states.
 */
import type {
  ClusterState,
  DiscoveryNode,
  IndexMetadata,
  IndexRoutingTable,
  RecoverySource,
  ShardRouting,
  ShardTerms,
  UnassignedInfo,
} from '../state.js';

/** ES ExistingStoreRecoverySource.FORCED_ALLOCATION_ID: the in-sync placeholder of a forced stale primary. */
export const FORCED_ALLOCATION_ID = '_forced_allocation_';

export interface Work {
  readonly base: ClusterState;
  /** Effective cluster settings, flat. */
  readonly settings: Readonly<Record<string, string>>;
  readonly now: number;
  /** Open indices' shard groups, by index name; every array is this work's own. */
  readonly tables: Map<string, ShardRouting[][]>;
  readonly terms: Map<string, { primaryTerm: number; inSync: string[] }[]>;
  readonly termsChanged: Set<string>;
  /** Data nodes, sorted by id so every decision is deterministic. */
  readonly dataNodes: readonly DiscoveryNode[];
  /** Manual commands bypass `*.allocation.enable` (ES RoutingAllocation.ignoreDisable). */
  ignoreDisable: boolean;
  /**
   * Relocation targets started in this round: ES counts inactive copies once per round, so
   * relocations it starts do not stop the round's own rebalancing (cluster_concurrent_rebalance does).
   */
  readonly roundTargets: Set<string>;
}

export function openWork(
  state: ClusterState,
  settings: Readonly<Record<string, string>>,
  now: number,
): Work {
  const tables = new Map<string, ShardRouting[][]>();
  const terms = new Map<string, { primaryTerm: number; inSync: string[] }[]>();
  for (const [name, table] of state.routing) {
    const meta = state.metadata.indices.get(name);
    if (!meta || meta.state !== 'open') continue;
    tables.set(
      name,
      table.shards.map((g) => [...g]),
    );
  }
  for (const [name, meta] of state.metadata.indices) {
    const ts = meta.terms.map((t) => ({ primaryTerm: t.primaryTerm, inSync: [...t.inSync] }));
    // Metadata built without terms gets ES's starting point (term 0, nothing in sync).
    while (ts.length < meta.numberOfShards) ts.push({ primaryTerm: 0, inSync: [] });
    terms.set(name, ts);
  }
  const dataNodes = [...state.nodes.values()]
    .filter((n) => n.roles.includes('data'))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    base: state,
    settings,
    now,
    tables,
    terms,
    termsChanged: new Set(),
    dataNodes,
    ignoreDisable: false,
    roundTargets: new Set(),
  };
}

/** The new state: routing rebuilt from the work, changed index metadata with version + 1. */
export function closeWork(work: Work): ClusterState {
  const routing = new Map<string, IndexRoutingTable>(work.base.routing);
  for (const [name, groups] of work.tables) {
    const old = work.base.routing.get(name)!;
    routing.set(name, {
      index: old.index,
      indexUuid: old.indexUuid,
      shards: groups.map((g) => [...g]),
    });
  }
  let indices = work.base.metadata.indices;
  if (work.termsChanged.size > 0) {
    const next = new Map(indices);
    for (const name of work.termsChanged) {
      const meta = next.get(name);
      if (!meta) continue;
      const terms: ShardTerms[] = work.terms
        .get(name)!
        .map((t) => ({ primaryTerm: t.primaryTerm, inSync: [...t.inSync] }));
      next.set(name, { ...meta, terms, version: meta.version + 1 });
    }
    indices = next;
  }
  return { ...work.base, routing, metadata: { ...work.base.metadata, indices } };
}

export function metaOf(work: Work, index: string): IndexMetadata {
  const meta = work.base.metadata.indices.get(index);
  if (!meta) throw new Error(`no metadata for index [${index}]`);
  return meta;
}

export function termsOf(work: Work, index: string, shard: number) {
  const t = work.terms.get(index)?.[shard];
  if (!t) throw new Error(`no terms for [${index}][${shard}]`);
  return t;
}

export function bumpTerm(work: Work, index: string, shard: number): void {
  termsOf(work, index, shard).primaryTerm += 1;
  work.termsChanged.add(index);
}

export function setInSync(work: Work, index: string, shard: number, ids: readonly string[]): void {
  const t = termsOf(work, index, shard);
  const next = [...new Set(ids)];
  if (next.length === t.inSync.length && next.every((id) => t.inSync.includes(id))) return;
  t.inSync = next;
  work.termsChanged.add(index);
}

export function groupOf(work: Work, index: string, shard: number): ShardRouting[] {
  const g = work.tables.get(index)?.[shard];
  if (!g) throw new Error(`no routing for [${index}][${shard}]`);
  return g;
}

export function* allCopies(work: Work): Generator<ShardRouting> {
  for (const groups of work.tables.values()) for (const g of groups) for (const c of g) yield c;
}

export function copiesOnNode(work: Work, nodeId: string): ShardRouting[] {
  const out: ShardRouting[] = [];
  for (const c of allCopies(work)) if (c.nodeId === nodeId) out.push(c);
  return out;
}

/** Replaces `from` (by identity) in its shard group with `to`, or removes it when `to` is null. */
export function replace(work: Work, from: ShardRouting, to: ShardRouting | null): void {
  const g = groupOf(work, from.index, from.shard);
  const i = g.indexOf(from);
  if (i < 0) throw new Error('copy not in its group');
  if (to) g[i] = to;
  else g.splice(i, 1);
}

export function findByAllocationId(work: Work, allocationId: string): ShardRouting | undefined {
  for (const c of allCopies(work)) if (c.allocationId?.id === allocationId) return c;
  return undefined;
}

export const isActive = (c: ShardRouting): boolean =>
  c.state === 'STARTED' || c.state === 'RELOCATING';

/** ES RoutingNodes.activePrimary. */
export function activePrimary(work: Work, index: string, shard: number): ShardRouting | undefined {
  return groupOf(work, index, shard).find((c) => c.primary && isActive(c));
}

/** The copy that is a relocation's other half. */
export function relocationPeer(work: Work, copy: ShardRouting): ShardRouting | undefined {
  const rid = copy.allocationId?.relocationId;
  if (!rid) return undefined;
  return groupOf(work, copy.index, copy.shard).find((c) => c.allocationId?.id === rid);
}

export const isRelocationTarget = (c: ShardRouting): boolean =>
  c.state === 'INITIALIZING' && c.relocatingNodeId !== null;

// --- copy transitions (ES ShardRouting's immutable builders) ---------------------------------

export function unassignedCopy(
  base: Pick<ShardRouting, 'index' | 'indexUuid' | 'shard'>,
  primary: boolean,
  info: UnassignedInfo,
  recoverySource: RecoverySource,
): ShardRouting {
  return {
    index: base.index,
    indexUuid: base.indexUuid,
    shard: base.shard,
    primary,
    state: 'UNASSIGNED',
    nodeId: null,
    relocatingNodeId: null,
    allocationId: null,
    unassignedInfo: info,
    recoverySource,
  };
}

export function unassignedInfo(
  reason: UnassignedInfo['reason'],
  at: number,
  opts: Partial<Omit<UnassignedInfo, 'reason' | 'at'>> = {},
): UnassignedInfo {
  const info: UnassignedInfo = {
    reason,
    at,
    delayed: opts.delayed ?? false,
    failedAttempts: opts.failedAttempts ?? 0,
    lastAllocationStatus: opts.lastAllocationStatus ?? 'no_attempt',
    ...(opts.details !== undefined ? { details: opts.details } : {}),
    ...(opts.lastNodeId !== undefined ? { lastNodeId: opts.lastNodeId } : {}),
  };
  return info;
}

/** UNASSIGNED -> INITIALIZING on `nodeId`. Keeps unassigned_info, as ES does until started. */
export function initialized(
  copy: ShardRouting,
  nodeId: string,
  allocationId: string,
  recoverySource?: RecoverySource,
): ShardRouting {
  return {
    ...copy,
    state: 'INITIALIZING',
    nodeId,
    relocatingNodeId: null,
    allocationId: { id: allocationId },
    recoverySource: recoverySource ?? copy.recoverySource ?? { type: 'PEER' },
  };
}

export function started(copy: ShardRouting): ShardRouting {
  return {
    ...copy,
    state: 'STARTED',
    relocatingNodeId: null,
    allocationId: { id: copy.allocationId!.id },
    unassignedInfo: null,
    recoverySource: null,
  };
}

/** A primary moved to unassigned recovers from its existing store once it has ever been active. */
export function primaryRecoveryAfterLoss(copy: ShardRouting): RecoverySource {
  if (copy.state === 'INITIALIZING' && copy.relocatingNodeId === null && copy.recoverySource)
    return copy.recoverySource.type === 'PEER' ? { type: 'EXISTING_STORE' } : copy.recoverySource;
  return { type: 'EXISTING_STORE' };
}

export function settingOf(work: Work, index: string, key: string): string | undefined {
  return metaOf(work, index).settings[key];
}

export function nodeById(work: Work, id: string): DiscoveryNode | undefined {
  return work.base.nodes.get(id);
}
