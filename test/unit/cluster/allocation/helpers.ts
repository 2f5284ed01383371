/** Builders for allocation tests: nodes, indices, a context, and a loop that lets recoveries finish. */
import {
  newIndexRouting,
  newIndexTerms,
  reroute,
  shardStarted,
  type AllocationContext,
} from '../../../../src/cluster/allocation/index.js';
import type {
  ClusterState,
  DiscoveryNode,
  IndexMetadata,
  ShardRouting,
} from '../../../../src/cluster/state.js';
import { allShards } from '../../../../src/cluster/state.js';

export const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

export function node(id: string, attributes: Record<string, string> = {}, k = 1): DiscoveryNode {
  return {
    id,
    name: `name-${id}`,
    ephemeralId: `eph-${id}`,
    transportAddress: `127.0.0.${k}:9300`,
    httpAddress: `127.0.0.${k}:9200`,
    attributes,
    version: '0.1.0',
    esVersion: '6.8.13',
    roles: ['master', 'data', 'ingest'],
  };
}

export function nodes(...ids: string[]): DiscoveryNode[] {
  return ids.map((id, i) => node(id, {}, i + 1));
}

export function indexMeta(
  name: string,
  shards: number,
  replicas: number,
  settings: Record<string, string> = {},
): IndexMetadata {
  return {
    name,
    uuid: `${name}-uuid`,
    state: 'open',
    settings: {
      'index.number_of_shards': String(shards),
      'index.number_of_replicas': String(replicas),
      ...settings,
    },
    mappings: null,
    aliases: {},
    numberOfShards: shards,
    numberOfReplicas: replicas,
    version: 1,
    mappingVersion: 1,
    settingsVersion: 1,
    terms: newIndexTerms(shards),
  };
}

export function clusterState(ns: DiscoveryNode[], indices: IndexMetadata[] = []): ClusterState {
  let s: ClusterState = {
    clusterName: 'test',
    version: 1,
    masterNodeId: ns[0]?.id ?? null,
    nodes: new Map(ns.map((n) => [n.id, n])),
    metadata: {
      clusterUuid: 'cuuid',
      indices: new Map(),
      templates: new Map(),
      scripts: new Map(),
      persistentSettings: {},
      transientSettings: {},
    },
    routing: new Map(),
  };
  for (const m of indices) s = addIndex(s, m);
  return s;
}

export function addIndex(s: ClusterState, m: IndexMetadata, now = T0): ClusterState {
  const indices = new Map(s.metadata.indices).set(m.name, m);
  const routing = new Map(s.routing).set(m.name, newIndexRouting(m, now));
  return { ...s, metadata: { ...s.metadata, indices }, routing };
}

/** On-disk copies, kept by the test as nodes start copies (or set by hand). */
export interface Disks {
  get(uuid: string, shard: number): Map<string, string>;
  /** Records every assigned copy of the state as on disk. */
  record(s: ClusterState): void;
}

export function disks(): Disks {
  const byShard = new Map<string, Map<string, string>>();
  const get = (uuid: string, shard: number) => {
    const k = `${uuid}/${shard}`;
    let m = byShard.get(k);
    if (!m) byShard.set(k, (m = new Map()));
    return m;
  };
  return {
    get,
    record(s) {
      for (const c of allShards(s))
        if (c.nodeId !== null && c.allocationId)
          get(c.indexUuid, c.shard).set(c.nodeId, c.allocationId.id);
    },
  };
}

/** Shared by every context, so ids never repeat within a test file. */
let allocationIds = 0;

export function context(
  opts: { now?: number; settings?: Record<string, string>; disks?: Disks } = {},
): AllocationContext & { disks: Disks; time: { now: number } } {
  const store = opts.disks ?? disks();
  const time = { now: opts.now ?? T0 };
  return {
    get now() {
      return time.now;
    },
    time,
    settings: opts.settings ?? {},
    disks: store,
    copies: (uuid, shard) => store.get(uuid, shard),
    newAllocationId: () => `aid-${++allocationIds}`,
  };
}

export function initializing(s: ClusterState): ShardRouting[] {
  return [...allShards(s)].filter((c) => c.state === 'INITIALIZING');
}

/** Reroute, start every initializing copy, repeat until nothing changes (bounded). */
export function settle(
  s: ClusterState,
  ctx: ReturnType<typeof context>,
  rounds = 50,
): ClusterState {
  for (let i = 0; i < rounds; i++) {
    const r = reroute(s, ctx);
    s = r.state;
    const init = initializing(s);
    if (init.length === 0 && !r.changed) return s;
    for (const c of init) s = shardStarted(s, c.allocationId!.id);
    ctx.disks.record(s);
  }
  throw new Error('did not settle');
}

export function copies(s: ClusterState, index: string, shard: number): readonly ShardRouting[] {
  return s.routing.get(index)!.shards[shard]!;
}

export function countByNode(s: ClusterState, index?: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of allShards(s))
    if (c.nodeId !== null && c.state !== 'RELOCATING' && (index === undefined || c.index === index))
      out[c.nodeId] = (out[c.nodeId] ?? 0) + 1;
  return out;
}
