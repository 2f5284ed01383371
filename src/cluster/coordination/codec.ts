/**
 * The cluster state to and from etcd key-values (layout in keys.ts). Pure: `decodeState` builds
 * the state from a read of the whole prefix, `applyEvents` folds watch events into it, and both go
 * through the same fold, so a watcher and a node that re-read everything at the same revision
 * hold equal states.
 *
 * Beside the ClusterState the fold keeps what the state itself cannot hold but later events need:
 * the election candidates (when the leader's key goes, the next-lowest create revision leads) and
 * each index's raw keys (its terms or routing may be written before or after its metadata).
 */
import type {
  ClusterState,
  DiscoveryNode,
  IndexMetadata,
  IndexRoutingTable,
  ShardRouting,
  ShardTerms,
} from '../state.js';
import {
  keyForClusterMeta,
  keyForIndex,
  keyForNode,
  keyForRouting,
  keyForScript,
  keyForPipeline,
  keyForRepository,
  keyForSettings,
  keyForTemplate,
  keyForTerms,
  keySpace,
  parseKey,
  type KeySpace,
} from './keys.js';

/** One key-value as etcd holds it (keys absolute, revisions as numbers). */
export interface Kv {
  readonly key: string;
  readonly value: string;
  readonly createRevision: number;
  readonly modRevision: number;
}

/** A watch event; `modRevision` is the revision of the change (for a delete, the deletion's). */
export interface KvEvent {
  readonly type: 'put' | 'delete';
  readonly key: string;
  /** Empty for a delete. */
  readonly value: string;
  readonly createRevision: number;
  readonly modRevision: number;
}

/** IndexMetadata as stored under `meta/indices/<uuid>`: the terms live under `terms/`. */
export type StoredIndexMetadata = Omit<IndexMetadata, 'terms'>;

export interface Candidate {
  readonly nodeId: string;
  readonly createRevision: number;
}

/** The raw keys of one index uuid. */
interface IndexKeys {
  readonly meta: StoredIndexMetadata | null;
  /** The revision the metadata was written at: of two indices claiming one name, the newer shows. */
  readonly metaRevision: number;
  readonly routing: ReadonlyMap<number, readonly ShardRouting[]>;
  readonly terms: ReadonlyMap<number, ShardTerms>;
}

/** The state plus what the fold needs to apply later events. */
export interface StateView {
  readonly keys: KeySpace;
  readonly state: ClusterState;
  /** Election candidates by campaign key. */
  readonly candidates: ReadonlyMap<string, Candidate>;
  /** The leading candidate's key and create revision (the master's fencing value); null when none. */
  readonly leader: { readonly key: string; readonly createRevision: number } | null;
  readonly indices: ReadonlyMap<string, IndexKeys>;
}

/** ES prints `_na_` while a cluster has no uuid yet. */
export const UNKNOWN_CLUSTER_UUID = '_na_';

/** The primary term and in-sync set of a shard no term was written for. */
export const INITIAL_TERMS: ShardTerms = { primaryTerm: 0, inSync: [] };

export function emptyState(clusterName: string): ClusterState {
  return {
    clusterName,
    version: 0,
    masterNodeId: null,
    nodes: new Map(),
    metadata: {
      clusterUuid: UNKNOWN_CLUSTER_UUID,
      indices: new Map(),
      templates: new Map(),
      scripts: new Map(),
      pipelines: new Map(),
      repositories: new Map(),
      persistentSettings: {},
      transientSettings: {},
    },
    routing: new Map(),
  };
}

export function emptyView(clusterName: string, prefix?: string): StateView {
  return {
    keys: keySpace(clusterName, prefix),
    state: emptyState(clusterName),
    candidates: new Map(),
    leader: null,
    indices: new Map(),
  };
}

/** The state of a whole-prefix read at `revision` (its version). */
export function decodeState(
  kvs: readonly Kv[],
  revision: number,
  clusterName: string,
  prefix?: string,
): StateView {
  const events = kvs.map((kv): KvEvent => ({ type: 'put', ...kv }));
  const view = applyEvents(emptyView(clusterName, prefix), events);
  return { ...view, state: { ...view.state, version: revision } };
}

// ---- values ----

export const encodeNode = (node: DiscoveryNode): string => JSON.stringify(node);
export const encodeIndexMetadata = (meta: StoredIndexMetadata | IndexMetadata): string => {
  const { terms: _terms, ...stored } = meta as IndexMetadata;
  return JSON.stringify(stored);
};
export const encodeTerms = (terms: ShardTerms): string =>
  JSON.stringify({ primaryTerm: terms.primaryTerm, inSync: terms.inSync });
export const encodeRouting = (copies: readonly ShardRouting[]): string => JSON.stringify(copies);
export const encodeSettings = (
  persistent: Readonly<Record<string, string>>,
  transient: Readonly<Record<string, string>>,
): string => JSON.stringify({ persistent, transient });
export const encodeClusterMeta = (clusterUuid: string): string => JSON.stringify({ clusterUuid });
/** Templates and stored scripts are stored as the body the API keeps. */
export const encodeBody = (body: unknown): string => JSON.stringify(body);

export function decodeTerms(value: string): ShardTerms | null {
  const v = parseJson(value) as { primaryTerm?: unknown; inSync?: unknown } | undefined;
  if (!v || typeof v.primaryTerm !== 'number' || !Array.isArray(v.inSync)) return null;
  return { primaryTerm: v.primaryTerm, inSync: v.inSync.map(String) };
}

/** A value another writer corrupted must not stop every watcher: it reads as absent. */
function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The key-values of a whole state (every key but the election's): what `decodeState` reads back
 * into an equal state. A lone node seeds its store with it.
 */
export function encodeState(ks: KeySpace, state: ClusterState): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  const m = state.metadata;
  for (const node of state.nodes.values())
    out.push({ key: keyForNode(ks, node.id), value: encodeNode(node) });
  if (m.clusterUuid !== UNKNOWN_CLUSTER_UUID)
    out.push({ key: keyForClusterMeta(ks), value: encodeClusterMeta(m.clusterUuid) });
  if (Object.keys(m.persistentSettings).length || Object.keys(m.transientSettings).length)
    out.push({
      key: keyForSettings(ks),
      value: encodeSettings(m.persistentSettings, m.transientSettings),
    });
  for (const [name, body] of m.templates)
    out.push({ key: keyForTemplate(ks, name), value: encodeBody(body) });
  for (const [id, source] of m.scripts)
    out.push({ key: keyForScript(ks, id), value: encodeBody(source) });
  for (const [id, config] of m.pipelines ?? [])
    out.push({ key: keyForPipeline(ks, id), value: encodeBody(config) });
  for (const [name, repo] of m.repositories ?? [])
    out.push({ key: keyForRepository(ks, name), value: encodeBody(repo) });
  for (const index of m.indices.values()) {
    out.push({ key: keyForIndex(ks, index.uuid), value: encodeIndexMetadata(index) });
    index.terms.forEach((t, shard) => {
      if (t.primaryTerm !== INITIAL_TERMS.primaryTerm || t.inSync.length > 0)
        out.push({ key: keyForTerms(ks, index.uuid, shard), value: encodeTerms(t) });
    });
  }
  for (const table of state.routing.values())
    table.shards.forEach((copies, shard) => {
      if (copies.length > 0)
        out.push({
          key: keyForRouting(ks, table.indexUuid, shard),
          value: encodeRouting(copies),
        });
    });
  return out;
}

// ---- the fold ----

/**
 * Folds events, in the order given (etcd's revision order), into a new view; the version becomes
 * the highest revision seen. The view passed in is not changed.
 */
export function applyEvents(view: StateView, events: readonly KvEvent[]): StateView {
  if (events.length === 0) return view;
  const ks = view.keys;
  const s = view.state;
  let nodes: Map<string, DiscoveryNode> | null = null;
  let templates: Map<string, unknown> | null = null;
  let scripts: Map<string, unknown> | null = null;
  let pipelines: Map<string, unknown> | null = null;
  let repositories: Map<string, unknown> | null = null;
  let candidates: Map<string, Candidate> | null = null;
  let indices: Map<string, IndexKeys> | null = null;
  let settings: { persistent: Record<string, string>; transient: Record<string, string> } | null =
    null;
  let clusterUuid = s.metadata.clusterUuid;
  const touched = new Set<string>();
  let version = s.version;

  for (const ev of events) {
    version = Math.max(version, ev.modRevision);
    const parsed = parseKey(ks, ev.key);
    if (!parsed) continue;
    const put = ev.type === 'put';
    const value = put ? parseJson(ev.value) : undefined;
    switch (parsed.kind) {
      case 'node':
        nodes ??= new Map(s.nodes);
        if (put && isObject(value)) nodes.set(parsed.nodeId, value as unknown as DiscoveryNode);
        else nodes.delete(parsed.nodeId);
        break;
      case 'campaign':
        candidates ??= new Map(view.candidates);
        if (put) candidates.set(ev.key, { nodeId: ev.value, createRevision: ev.createRevision });
        else candidates.delete(ev.key);
        break;
      case 'template':
        templates ??= new Map(s.metadata.templates);
        if (put && value !== undefined) templates.set(parsed.name, value);
        else templates.delete(parsed.name);
        break;
      case 'script':
        scripts ??= new Map(s.metadata.scripts);
        if (put && value !== undefined) scripts.set(parsed.id, value);
        else scripts.delete(parsed.id);
        break;
      case 'pipeline':
        pipelines ??= new Map(s.metadata.pipelines ?? []);
        if (put && value !== undefined) pipelines.set(parsed.id, value);
        else pipelines.delete(parsed.id);
        break;
      case 'repository':
        repositories ??= new Map(s.metadata.repositories ?? []);
        if (put && value !== undefined) repositories.set(parsed.name, value);
        else repositories.delete(parsed.name);
        break;
      case 'settings':
        settings =
          put && isObject(value)
            ? {
                persistent: stringRecord(value.persistent),
                transient: stringRecord(value.transient),
              }
            : { persistent: {}, transient: {} };
        break;
      case 'cluster':
        clusterUuid =
          put && isObject(value) && typeof value.clusterUuid === 'string'
            ? value.clusterUuid
            : UNKNOWN_CLUSTER_UUID;
        break;
      case 'index':
      case 'routing':
      case 'terms': {
        indices ??= new Map(view.indices);
        const cur = indices.get(parsed.uuid) ?? {
          meta: null,
          metaRevision: 0,
          routing: new Map(),
          terms: new Map(),
        };
        let next: IndexKeys;
        if (parsed.kind === 'index') {
          const meta = put && isObject(value) ? (value as StoredIndexMetadata) : null;
          next = { ...cur, meta, metaRevision: meta ? ev.modRevision : 0 };
        } else if (parsed.kind === 'routing') {
          const routing = new Map(cur.routing);
          if (put && Array.isArray(value)) routing.set(parsed.shard, value as ShardRouting[]);
          else routing.delete(parsed.shard);
          next = { ...cur, routing };
        } else {
          const terms = new Map(cur.terms);
          const t = put ? decodeTerms(ev.value) : null;
          if (t) terms.set(parsed.shard, t);
          else terms.delete(parsed.shard);
          next = { ...cur, terms };
        }
        if (!next.meta && next.routing.size === 0 && next.terms.size === 0)
          indices.delete(parsed.uuid);
        else indices.set(parsed.uuid, next);
        touched.add(parsed.uuid);
        break;
      }
    }
  }

  const nextCandidates = candidates ?? view.candidates;
  const leader = candidates ? leadingCandidate(nextCandidates) : view.leader;
  const nextIndices = indices ?? view.indices;
  let indexMeta = s.metadata.indices;
  let routing = s.routing;
  if (touched.size > 0) {
    const metaMap = new Map(indexMeta);
    const routingMap = new Map(routing);
    const names = new Set<string>();
    for (const uuid of touched)
      for (const raw of [view.indices.get(uuid), nextIndices.get(uuid)]) {
        const name = raw && nameOf(raw);
        if (name !== undefined) names.add(name);
      }
    for (const name of names) deriveIndex(name, nextIndices, metaMap, routingMap);
    indexMeta = metaMap;
    routing = routingMap;
  }
  return {
    keys: ks,
    candidates: nextCandidates,
    leader,
    indices: nextIndices,
    state: {
      clusterName: s.clusterName,
      version,
      masterNodeId: leader ? (nextCandidates.get(leader.key)?.nodeId ?? null) : null,
      nodes: nodes ?? s.nodes,
      metadata: {
        clusterUuid,
        indices: indexMeta,
        templates: templates ?? s.metadata.templates,
        scripts: scripts ?? s.metadata.scripts,
        pipelines: pipelines ?? s.metadata.pipelines ?? new Map(),
        repositories: repositories ?? s.metadata.repositories ?? new Map(),
        persistentSettings: settings ? settings.persistent : s.metadata.persistentSettings,
        transientSettings: settings ? settings.transient : s.metadata.transientSettings,
      },
      routing,
    },
  };
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(v)) for (const [k, x] of Object.entries(v)) out[k] = String(x);
  return out;
}

/** etcd's election: the candidate with the lowest create revision leads. */
function leadingCandidate(
  candidates: ReadonlyMap<string, Candidate>,
): { key: string; createRevision: number } | null {
  let best: { key: string; createRevision: number } | null = null;
  for (const [key, c] of candidates)
    if (!best || c.createRevision < best.createRevision)
      best = { key, createRevision: c.createRevision };
  return best;
}

/** The name an index's raw keys go by: its metadata's, or its copies' before metadata exists. */
const nameOf = (raw: IndexKeys): string | undefined =>
  raw.meta?.name ?? firstCopy(raw.routing)?.index;

/**
 * Rebuilds the metadata and routing entries of one index name from the raw keys. Writers delete
 * an index before reusing its name, but if two uuids claim it at once, the one with the newest
 * metadata shows (then the greater uuid), whatever order the keys were seen in.
 */
function deriveIndex(
  name: string,
  indices: ReadonlyMap<string, IndexKeys>,
  metaMap: Map<string, IndexMetadata>,
  routingMap: Map<string, IndexRoutingTable>,
): void {
  metaMap.delete(name);
  routingMap.delete(name);
  let best: [string, IndexKeys] | null = null;
  for (const [uuid, raw] of indices) {
    if (nameOf(raw) !== name) continue;
    if (
      !best ||
      raw.metaRevision > best[1].metaRevision ||
      (raw.metaRevision === best[1].metaRevision && uuid > best[0])
    )
      best = [uuid, raw];
  }
  if (!best) return;
  const [uuid, raw] = best;
  if (raw.meta) {
    const terms = Array.from(
      { length: raw.meta.numberOfShards },
      (_, i) => raw.terms.get(i) ?? INITIAL_TERMS,
    );
    metaMap.set(name, { ...raw.meta, uuid, terms });
  }
  if (raw.routing.size > 0) {
    const length = Math.max(...raw.routing.keys()) + 1;
    const shards = Array.from({ length }, (_, i) => raw.routing.get(i) ?? []);
    routingMap.set(name, { index: name, indexUuid: uuid, shards });
  }
}

function firstCopy(
  routing: ReadonlyMap<number, readonly ShardRouting[]>,
): ShardRouting | undefined {
  for (const copies of routing.values()) if (copies[0]) return copies[0];
  return undefined;
}
