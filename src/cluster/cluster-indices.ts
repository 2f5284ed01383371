/**
 * Indices in a cluster: the master creates and deletes them and places their copies (master
 * service + allocation), every node opens the copies assigned to it and recovers replicas from
 * their primaries over the transport (shard applier), and reports each started copy to the master.
 * The requests reach the master from any node (`indices:admin/create`, `indices:admin/delete`,
 * `internal:cluster/shard/started`).
 */
import { toStateSettings } from './state-settings.js';
import { notPrimaryHere } from './writes/primary-bulk.js';
import { randomBase64Uuid } from '../common/ids.js';
import { EsError } from '../common/errors.js';
import type { DocumentService } from '../engine/documents.js';
import type { IndicesService } from '../engine/indices-service.js';
import type { IndexService } from '../engine/index-service.js';
import type { Store } from '../store/store.js';
import {
  applyRerouteCommands,
  explainAllocation,
  reroute,
  shardFailed,
  type ExplainRequest,
  type RerouteCommand,
  shardStarted,
  updateNumberOfReplicas,
  type AllocationContext,
} from './allocation/index.js';
import { applySettingsUpdate } from '../engine/metadata-writer.js';
import { recoveryEntry } from '../engine/recovery-entry.js';
import type { IndexTemplate } from '../engine/templates.js';
import type { FlatSettings } from '../engine/index-settings.js';
import { indexNotFoundFor } from '../engine/documents.js';
import { createIndexUpdate, deleteIndexUpdate } from './master/create-index.js';
import {
  startMasterService,
  type MasterService,
  type PendingTask,
} from './master/master-service.js';
import type { ClusterMembership } from './membership.js';
import {
  CopyCheckpoints,
  registerRecoverySource,
  registerShardHandlers,
} from './replication/shard-transport.js';
import { startShardApplier, type ShardApplier } from './shard-applier.js';
import { primaryOf, type ClusterState } from './state.js';
import { copiesOf, type PrimaryGroups } from './writes/primary-groups.js';
import {
  CopyListing,
  keptCopies,
  LIST_STARTED_SHARDS_ACTION,
  localCopies,
  recordCopy,
  type LocalCopies,
} from './gateway/local-copies.js';

/** How many times the master asks again a node that did not answer the shard store listing. */
const LISTING_RETRIES = 5;

export const CREATE_INDEX_ACTION = 'indices:admin/create';
export const DELETE_INDEX_ACTION = 'indices:admin/delete';
export const SHARD_STARTED_ACTION = 'internal:cluster/shard/started';
export const SHARD_FAILED_ACTION = 'internal:cluster/shard/failure';
/** ES MappingUpdatedAction's `indices:admin/mapping/auto_put` and PUT _mapping's action. */
export const PUT_MAPPING_ACTION = 'indices:admin/mapping/put';
export const PUT_SETTINGS_ACTION = 'indices:admin/settings/update';
export const ALIASES_ACTION = 'indices:admin/aliases';
export const TEMPLATES_ACTION = 'indices:admin/template/put';
export const CLUSTER_SETTINGS_ACTION = 'cluster:admin/settings/update';
export const SCRIPTS_ACTION = 'cluster:admin/script/put';
export const PIPELINES_ACTION = 'cluster:admin/ingest/pipeline/put';
export const REPOSITORIES_ACTION = 'cluster:admin/repository/put';
export const REROUTE_ACTION = 'cluster:admin/reroute';
export const EXPLAIN_ACTION = 'cluster:monitor/allocation/explain';
export const PENDING_TASKS_ACTION = 'cluster:monitor/task';
export const RECOVERY_ACTION = 'indices:monitor/recovery[n]';
/** Answered once the node applied a state version (ES's publish acknowledgement). */
export const STATE_APPLIED_ACTION = 'internal:cluster/coordination/applied';

export interface IndexMetaChange {
  readonly name: string;
  readonly uuid: string;
  readonly aliases: Readonly<Record<string, unknown>>;
  readonly state: 'open' | 'close';
}

export interface ClusterIndices {
  /** Creates an index through the master; resolves when its primaries are active (or the wait ends). */
  create(
    name: string,
    body: { settings?: unknown; mappings?: unknown; aliases?: unknown },
    waitMs: number,
  ): Promise<{ shardsAcknowledged: boolean }>;
  /**
   * Merges `mapping` into the index's mapping on the master and publishes the result; resolves
   * once this node applied it. Dynamic updates of primaries and PUT _mapping both come here.
   */
  putMapping(index: string, uuid: string, type: string, mapping: unknown): Promise<void>;
  /** Applies a settings update on the master, all or nothing, and publishes it. */
  putSettings(
    targets: ReadonlyArray<{ name: string; uuid: string }>,
    update: FlatSettings,
    preserveExisting: boolean,
  ): Promise<void>;
  /** Publishes the aliases and open/closed state of indices as the master's APIs left them. */
  putIndicesMeta(changes: readonly IndexMetaChange[]): Promise<void>;
  /** Publishes the cluster settings as the master's PUT _cluster/settings left them. */
  putClusterSettings(
    persistent: Readonly<Record<string, string>>,
    transient: Readonly<Record<string, string>>,
  ): Promise<void>;
  /** Publishes the ingest pipelines as the master's pipeline APIs left them. */
  putPipelines(pipelines: Readonly<Record<string, unknown>>): Promise<void>;
  /** Publishes the snapshot repositories as the master's repository APIs left them. */
  putRepositories(repositories: Readonly<Record<string, unknown>>): Promise<void>;
  /** `_cluster/reroute` on the master: applies the commands (unless a dry run) and reroutes. */
  reroute(
    commands: readonly RerouteCommand[],
    opts: { dryRun: boolean; explain: boolean; retryFailed: boolean },
  ): Promise<{ explanations?: unknown[] }>;
  /** `_cluster/allocation/explain` on the master (which holds the shard store listing). */
  explain(request: ExplainRequest & { includeYesDecisions: boolean; includeDiskInfo: boolean }): Promise<unknown>; // prettier-ignore
  /** `_recovery` entries of every started copy of `indices`, from the nodes holding them. */
  recoveries(
    indices: readonly string[],
    human: boolean,
    activeOnly: boolean,
  ): Promise<Record<string, unknown[]>>;
  /** The master's queued state updates (`_cluster/pending_tasks`). */
  pendingTasks(): Promise<PendingTask[]>;
  /**
   * Publishes an index the master just created on its own copy (PUT /{index} runs on the master);
   * resolves when its primaries are active (or the wait ends) and every node applied it.
   */
  publishCreated(
    idx: IndexService,
    waitMs: number,
    also?: readonly IndexMetaChange[],
  ): Promise<{ shardsAcknowledged: boolean }>;
  /** Runs `fn` as part of applying every new state (before the state counts as applied here). */
  onApply(fn: (prev: ClusterState | null, next: ClusterState) => Promise<void>): void;
  /** Tells the master a copy failed (it unassigns it and reroutes). */
  /**
   * `primaryTerm`: the term the failure was seen in; the master ignores it once the shard moved to
   * another term (ES ShardStateAction's primary term check), so a late or repeated report never
   * fails a newer incarnation of the copy.
   */
  shardFailed(
    allocationId: string,
    reason: string,
    markAsStale: boolean,
    primaryTerm?: number,
  ): Promise<void>;
  /** Deletes indices (exact names) through the master. */
  delete(names: readonly string[]): Promise<void>;
  stop(): void;
}

export interface ClusterIndicesDeps {
  readonly membership: ClusterMembership;
  readonly indices: IndicesService;
  readonly documents: DocumentService;
  readonly store: Store;
  /** Effective cluster settings, for allocation. */
  readonly clusterSettings: () => Readonly<Record<string, string>>;
  /** The replication groups of this node's primaries (recoveries start tracking their copy). */
  readonly groups: PrimaryGroups;
  log?: (level: string, msg: string) => void;
}

const primariesActive = (state: ClusterState, name: string): boolean => {
  const table = state.routing.get(name);
  return !!table && table.shards.every((c) => c.some((x) => x.primary && x.state === 'STARTED'));
};

export function startClusterIndices(deps: ClusterIndicesDeps): ClusterIndices {
  const { membership } = deps;
  const { coordinator, transport } = membership;
  membership.handle(STATE_APPLIED_ACTION, async (b) => {
    const { version } = b as { version: number };
    await coordinator.waitForVersion(version, 10_000);
    await applier.whenApplied(version, 10_000);
    return {};
  });
  /**
   * Resolves once every node applied `version` (or did not answer within the timeout, as ES's
   * publish acknowledgement times out), so a change acknowledged to a client is seen on any node.
   */
  const appliedEverywhere = async (version: number) => {
    await membership.collect(STATE_APPLIED_ACTION, { version }, 10_000);
  };
  const listing = new CopyListing();
  // A node offers every copy it holds: a node that has just joined may not have applied the
  // cluster state yet, so it cannot tell which indices still exist; the master, which can, keeps
  // only copies of indices in its own metadata (keptCopies).
  membership.handle(LIST_STARTED_SHARDS_ACTION, () => localCopies(deps.store));
  const allocation = (): AllocationContext => ({
    now: Date.now(),
    settings: deps.clusterSettings(),
    // the shard store listing, as the nodes last answered it
    copies: (uuid, shard) => listing.copies(uuid, shard),
    newAllocationId: randomBase64Uuid,
  });
  const peerOf = (nodeId: string) => {
    const n = coordinator.state().nodes.get(nodeId);
    if (!n) throw new EsError('node_not_connected_exception', `[${nodeId}] not in the cluster`, 500); // prettier-ignore
    return { id: n.id, name: n.name, transportAddress: n.transportAddress };
  };
  const host = {
    documents: deps.documents,
    store: deps.store,
    index: (name: string) => deps.indices.get(name),
  };
  // only the recovery of the copy the applied state has initializing here may write to it
  registerShardHandlers(transport, host, new CopyCheckpoints(), (index, shard, aid) =>
    copiesOf(coordinator.state(), index, shard).some(
      (c) =>
        c.nodeId === membership.localNode.id &&
        c.state === 'INITIALIZING' &&
        c.allocationId?.id === aid,
    ),
  );
  /** The tracker of this node's primary of a shard (recoveries are served by the primary). */
  const primaryTracker = (index: string, shard: number) => {
    const state = coordinator.state();
    const meta = state.metadata.indices.get(index);
    const p = primaryOf(state, index, shard);
    const idx = deps.indices.get(index);
    if (!meta || !idx || !p?.allocationId || p.nodeId !== membership.localNode.id) return null;
    return deps.groups.tracker(p.allocationId.id, idx.shard(shard).maxSeqNo, meta.terms[shard]?.inSync ?? []); // prettier-ignore
  };
  /**
   * Only the started primary serves a recovery: a node that is not (yet, or any more) the primary
   * of the shard here could not send the copy the live writes of the recovery, and a copy that
   * missed them must never report itself started (ES IndexShard.initiateTracking and
   * markAllocationIdAsInSync fail the recovery the same way). The copy's node tries again.
   */
  const trackerFor = (index: string, shard: number) => {
    const t = primaryTracker(index, shard);
    if (!t) throw notPrimaryHere(index, shard, `cannot serve a recovery: not the primary on node [${membership.localNode.id}]`); // prettier-ignore
    return t;
  };
  // a recovering copy receives live writes from the moment its recovery starts; the master adds
  // it to the cluster's in-sync set when the copy reports itself started, which it does only
  // once the primary marked it in sync here
  registerRecoverySource(transport, host, peerOf, {
    canServe: (index, shard) => void trackerFor(index, shard),
    startTracking: (index, shard, aid) => trackerFor(index, shard).initiateTracking(aid),
    markInSync: (index, shard, aid, checkpoint) =>
      trackerFor(index, shard).markInSyncWhenCaughtUp(aid, checkpoint),
  });
  const master: MasterService = startMasterService(coordinator, {
    allocation,
    ...(deps.log ? { log: deps.log } : {}),
  });
  /**
   * ES MetaDataCreateIndexService on the master: the index is created on the master's own copy of
   * the metadata first — every check a lone node makes, templates applied — then published from
   * it; if publishing fails, the master's copy goes again.
   */
  /** `also`: aliases and state of other indices changed in the same update (rollover). */
  const publishCreated = async (
    idx: IndexService,
    also: readonly IndexMetaChange[] = [],
  ): Promise<number> => {
    const settings: Record<string, string> = {};
    for (const [k, v] of Object.entries(toStateSettings(idx.meta.settings)))
      if (!CLUSTER_SET.has(k)) settings[k] = v;
    const m = idx.meta.mapping;
    const req = {
      name: idx.name,
      settings,
      ...(m ? { mappings: { [m.type]: m.json } } : {}),
      aliases: idx.meta.aliases as Record<string, Record<string, unknown>>,
      providedName: String(idx.meta.settings['index.provided_name'] ?? idx.name),
    };
    try {
      const create = createIndexUpdate(req, idx.uuid, { ...allocation(), now: idx.meta.creationDate }); // prettier-ignore
      const state = await master.submit(`create-index [${idx.name}]`, (s) => withMetaChanges(create(s), also)); // prettier-ignore
      return state.version;
    } catch (e) {
      await deps.indices.delete([idx]).catch(() => undefined);
      throw e;
    }
  };
  membership.handle(CREATE_INDEX_ACTION, async (b) => {
    // an index a write creates (auto-create): the master's create, with templates
    const { name } = b as { name: string };
    const idx = await deps.indices.create(name, undefined, { includeTypeName: true });
    return { version: await publishCreated(idx) };
  });
  membership.handle(PUT_MAPPING_ACTION, async (b) => {
    const { index, uuid, type, mapping } = b as { index: string; uuid: string; type: string; mapping: unknown }; // prettier-ignore
    const idx = deps.indices.get(index);
    if (!idx || idx.uuid !== uuid) throw indexNotFoundFor(index);
    // merged into the master's own copy first: a conflicting update fails here, as in ES
    await idx.updateMapping(type, mapping);
    const merged = idx.meta.mapping!;
    const state = await master.submit(`put-mapping [${index}]`, (s) => {
      const m = s.metadata.indices.get(index);
      if (!m || m.uuid !== uuid) return s;
      const next = {
        ...m,
        mappings: { [merged.type]: merged.json },
        mappingVersion: m.mappingVersion + 1,
        version: m.version + 1,
      };
      const indices = new Map(s.metadata.indices).set(index, next);
      return { ...s, metadata: { ...s.metadata, indices } };
    });
    return { version: state.version };
  });
  membership.handle(PUT_SETTINGS_ACTION, async (b) => {
    const { indices, update, preserve } = b as { indices: Array<{ name: string; uuid: string }>; update: FlatSettings; preserve: boolean }; // prettier-ignore
    const targets = indices.map(({ name, uuid }) => {
      const idx = deps.indices.get(name);
      if (!idx || idx.uuid !== uuid) throw indexNotFoundFor(name);
      return idx;
    });
    // validated and applied on the master's own copy first (all or nothing), as ES's
    // MetaDataUpdateSettingsService does on the master
    await applySettingsUpdate(targets, update, preserve);
    const state = await master.submit('update-settings', (s) => {
      let next = s;
      for (const idx of targets) {
        const m = next.metadata.indices.get(idx.name);
        if (!m || m.uuid !== idx.uuid) continue;
        const settings = toStateSettings(idx.meta.settings);
        const replicas = Number(settings['index.number_of_replicas'] ?? m.numberOfReplicas);
        if (replicas !== m.numberOfReplicas)
          next = updateNumberOfReplicas(next, idx.name, replicas, Date.now());
        const meta = { ...m, settings, numberOfReplicas: replicas, settingsVersion: m.settingsVersion + 1, version: m.version + 1 }; // prettier-ignore
        next = { ...next, metadata: { ...next.metadata, indices: new Map(next.metadata.indices).set(idx.name, meta) } }; // prettier-ignore
      }
      return reroute(next, allocation()).state;
    });
    return { version: state.version };
  });
  // templates live in the cluster state: the master's template APIs publish the whole set
  membership.handle(TEMPLATES_ACTION, async (b) => {
    const { templates } = b as { templates: IndexTemplate[] };
    const state = await master.submit('index-templates', (s) => ({
      ...s,
      metadata: { ...s.metadata, templates: new Map(templates.map((t) => [t.name, t])) },
    }));
    return { version: state.version };
  });
  deps.indices.templates.onChange = async () => {
    const r = (await membership.toMaster(TEMPLATES_ACTION, { templates: deps.indices.templates.all() })) as { version: number }; // prettier-ignore
    await appliedEverywhere(r.version);
  };
  membership.handle(CLUSTER_SETTINGS_ACTION, async (b) => {
    const { persistent, transient } = b as { persistent: Record<string, string>; transient: Record<string, string> }; // prettier-ignore
    // allocation settings may move copies: the new settings are the master's already
    const state = await master.submit(
      'cluster-update-settings',
      (s) =>
      reroute({ ...s, metadata: { ...s.metadata, persistentSettings: persistent, transientSettings: transient } }, allocation()).state, // prettier-ignore
    );
    return { version: state.version };
  });
  // stored scripts too: the master's script APIs publish the whole set
  membership.handle(SCRIPTS_ACTION, async (b) => {
    const { scripts } = b as { scripts: Record<string, unknown> };
    const state = await master.submit('stored-scripts', (s) => ({
      ...s,
      metadata: { ...s.metadata, scripts: new Map(Object.entries(scripts)) },
    }));
    return { version: state.version };
  });
  deps.indices.scripts.onChange = async () => {
    const r = (await membership.toMaster(SCRIPTS_ACTION, { scripts: deps.indices.scripts.all() })) as { version: number }; // prettier-ignore
    await appliedEverywhere(r.version);
  };
  membership.handle(PIPELINES_ACTION, async (b) => {
    const { pipelines } = b as { pipelines: Record<string, unknown> };
    const state = await master.submit('ingest-pipelines', (s) => ({
      ...s,
      metadata: { ...s.metadata, pipelines: new Map(Object.entries(pipelines)) },
    }));
    return { version: state.version };
  });
  membership.handle(REPOSITORIES_ACTION, async (b) => {
    const { repositories } = b as { repositories: Record<string, unknown> };
    const state = await master.submit('put-repositories', (s) => ({
      ...s,
      metadata: { ...s.metadata, repositories: new Map(Object.entries(repositories)) },
    }));
    return { version: state.version };
  });
  membership.handle(REROUTE_ACTION, async (b) => {
    const { commands, opts } = b as { commands: RerouteCommand[]; opts: { dryRun: boolean; explain: boolean; retryFailed: boolean } }; // prettier-ignore
    if (opts.dryRun) {
      const r = applyRerouteCommands(coordinator.state(), commands, allocation(), opts);
      return { explanations: r.explanations, version: coordinator.state().version };
    }
    let explanations: unknown[] | undefined;
    const state = await master.submit('cluster_reroute (api)', (s) => {
      const r = applyRerouteCommands(s, commands, allocation(), opts);
      explanations = r.explanations;
      return r.state;
    });
    return { explanations, version: state.version };
  });
  membership.handle(PENDING_TASKS_ACTION, () => master.pending());
  membership.handle(RECOVERY_ACTION, (b) => {
    const { indices, human } = b as { indices: string[]; human: boolean };
    const state = coordinator.state();
    const me = membership.localNode;
    const self = { id: me.id, name: me.name, transportAddress: me.transportAddress };
    const out: Record<string, Array<Record<string, unknown>>> = {};
    for (const name of indices) {
      const idx = deps.indices.get(name);
      for (const copies of state.routing.get(name)?.shards ?? [])
        for (const c of copies) {
          if (!idx || c.nodeId !== me.id || (c.state !== 'STARTED' && c.state !== 'RELOCATING')) continue; // prettier-ignore
          (out[name] ??= []).push(recoveryEntry(c.shard, idx.shard(c.shard).recovery, c.primary, self, human)); // prettier-ignore
        }
    }
    return out;
  });
  membership.handle(EXPLAIN_ACTION, (b) =>
    explainAllocation(
      coordinator.state(),
      allocation(),
      b as Parameters<typeof explainAllocation>[2],
    ),
  );
  membership.handle(ALIASES_ACTION, async (b) => {
    const { changes } = b as { changes: IndexMetaChange[] };
    const state = await master.submit('index-aliases-and-state', (s) => withMetaChanges(s, changes)); // prettier-ignore
    return { version: state.version };
  });
  membership.handle(SHARD_FAILED_ACTION, async (b) => {
    const { allocationId, reason, markAsStale, primaryTerm } = b as { allocationId: string; reason: string; markAsStale: boolean; primaryTerm?: number }; // prettier-ignore
    await master.submit('shard-failed', (s) => {
      if (primaryTerm !== undefined && termOfCopy(s, allocationId) !== primaryTerm) return s;
      return reroute(shardFailed(s, allocationId, reason, Date.now(), { markAsStale }), allocation()).state; // prettier-ignore
    });
    return {};
  });
  membership.handle(DELETE_INDEX_ACTION, async (b) => {
    const { names } = b as { names: string[] };
    const state = await master.submit(`delete-index ${JSON.stringify(names)}`, deleteIndexUpdate(names)); // prettier-ignore
    return { version: state.version };
  });
  membership.handle(SHARD_STARTED_ACTION, async (b) => {
    const { allocationId } = b as { allocationId: string };
    await master.submit('shard-started', (s) => reroute(shardStarted(s, allocationId), allocation()).state); // prettier-ignore
    return {};
  });
  // ES GatewayAllocator: the master lists the on-disk copies of nodes that join (all of them when
  // it becomes master), then reroutes, so a returning copy goes back where its data is
  let relist: NodeJS.Timeout | undefined;
  const listFrom = async (nodeIds: readonly string[], attempt = 0): Promise<void> => {
    const r = await membership.collect(LIST_STARTED_SHARDS_ACTION, {}, 10_000);
    // a node that did not answer (busy, still starting) is asked again, as ES's async shard
    // fetch retries a failed node on the next reroute; otherwise its copies stay unknown
    const unanswered = r.failures.map((f) => f.nodeId).filter((id) => nodeIds.includes(id));
    if (unanswered.length > 0 && attempt < LISTING_RETRIES) {
      deps.log?.('WARN', `shard store listing: no answer from ${unanswered.join(', ')}; asking again`); // prettier-ignore
      relist = setTimeout(
        () => {
          const members = unanswered.filter((id) => coordinator.state().nodes.has(id));
          if (members.length > 0 && coordinator.isMaster())
            void listFrom(members, attempt + 1).catch(() => undefined);
        },
        1_000 * (attempt + 1),
      );
      relist.unref();
    }
    const uuids = new Set([...coordinator.state().metadata.indices.values()].map((m) => m.uuid));
    for (const [nodeId, copies] of r.results)
      if (nodeIds.includes(nodeId)) listing.update(nodeId, keptCopies(copies as LocalCopies, uuids)); // prettier-ignore
    if (coordinator.isMaster())
      await master.submit('reroute after shard store listing', (s) => reroute(s, allocation()).state); // prettier-ignore
  };
  const listingOff = coordinator.onState((prev, next) => {
    if (!coordinator.isMaster()) return;
    const becameMaster = prev.masterNodeId !== next.masterNodeId;
    const joined = [...next.nodes.keys()].filter((id) => becameMaster || !prev.nodes.has(id));
    if (joined.length > 0)
      void listFrom(joined).catch((e: unknown) => deps.log?.('WARN', `shard store listing failed: ${String(e)}`)); // prettier-ignore
  });
  if (coordinator.isMaster())
    void listFrom([...coordinator.state().nodes.keys()]).catch(() => undefined);
  const pruneOff = coordinator.onState((_p, next) => deps.groups.prune(next, membership.localNode.id)); // prettier-ignore
  const applier: ShardApplier = startShardApplier(coordinator, {
    nodeId: membership.localNode.id,
    indices: deps.indices,
    transport,
    reportFailed: async (allocationId, reason) => {
      await membership.toMaster(SHARD_FAILED_ACTION, { allocationId, reason, markAsStale: false });
    },
    reportStarted: async (index, shard, allocationId) => {
      const meta = coordinator.state().metadata.indices.get(index);
      if (meta) await recordCopy(deps.store, meta.uuid, shard, allocationId);
      await membership.toMaster(SHARD_STARTED_ACTION, { allocationId });
    },
    ...(deps.log ? { log: deps.log } : {}),
  });
  return {
    async putMapping(index, uuid, type, mapping) {
      const r = (await membership.toMaster(PUT_MAPPING_ACTION, { index, uuid, type, mapping })) as {
        version: number;
      };
      await appliedEverywhere(r.version);
    },
    async putSettings(targets, update, preserve) {
      const indices = targets.map(({ name, uuid }) => ({ name, uuid }));
      const r = (await membership.toMaster(PUT_SETTINGS_ACTION, { indices, update, preserve })) as {
        version: number;
      };
      await appliedEverywhere(r.version);
    },
    async reroute(commands, opts) {
      const r = (await membership.toMaster(REROUTE_ACTION, { commands, opts })) as { explanations?: unknown[]; version: number }; // prettier-ignore
      await appliedEverywhere(r.version);
      return r.explanations ? { explanations: r.explanations } : {};
    },
    explain: (request) => membership.toMaster(EXPLAIN_ACTION, request),
    async recoveries(indices, human, activeOnly) {
      // every recovery here has finished once its copy is started
      if (activeOnly) return {};
      const r = await membership.collect(RECOVERY_ACTION, { indices, human }, 10_000);
      const out: Record<string, Array<Record<string, unknown>>> = {};
      for (const part of r.results.values())
        for (const [name, entries] of Object.entries(
          part as Record<string, Array<Record<string, unknown>>>,
        ))
          // prettier-ignore
          (out[name] ??= []).push(...entries);
      for (const list of Object.values(out))
        list.sort((a, b) => (a.id as number) - (b.id as number) || (a.primary ? -1 : 1));
      return out;
    },
    pendingTasks: async () =>
      (await membership.toMaster(PENDING_TASKS_ACTION, {})) as PendingTask[],
    async putPipelines(pipelines) {
      const r = (await membership.toMaster(PIPELINES_ACTION, { pipelines })) as { version: number };
      await appliedEverywhere(r.version);
    },
    async putRepositories(repositories) {
      const r = (await membership.toMaster(REPOSITORIES_ACTION, { repositories })) as { version: number }; // prettier-ignore
      await appliedEverywhere(r.version);
    },
    async putClusterSettings(persistent, transient) {
      const r = (await membership.toMaster(CLUSTER_SETTINGS_ACTION, { persistent, transient })) as { version: number }; // prettier-ignore
      await appliedEverywhere(r.version);
    },
    async putIndicesMeta(changes) {
      const r = (await membership.toMaster(ALIASES_ACTION, { changes })) as { version: number };
      await appliedEverywhere(r.version);
    },
    async shardFailed(allocationId, reason, markAsStale, primaryTerm) {
      await membership.toMaster(SHARD_FAILED_ACTION, { allocationId, reason, markAsStale, ...(primaryTerm !== undefined ? { primaryTerm } : {}) }); // prettier-ignore
    },
    onApply: (fn) => applier.onApply(fn),
    async publishCreated(idx, waitMs, also) {
      const version = await publishCreated(idx, also);
      await appliedEverywhere(version);
      const end = Date.now() + waitMs;
      while (!primariesActive(coordinator.state(), idx.name)) {
        if (Date.now() >= end) return { shardsAcknowledged: false };
        await new Promise((r) => setTimeout(r, 50));
      }
      return { shardsAcknowledged: true };
    },
    async create(name, body, waitMs) {
      const r = (await membership.toMaster(CREATE_INDEX_ACTION, { name, ...body })) as { version: number }; // prettier-ignore
      await appliedEverywhere(r.version);
      const end = Date.now() + waitMs;
      while (!primariesActive(coordinator.state(), name)) {
        if (Date.now() >= end) return { shardsAcknowledged: false };
        await new Promise((r) => setTimeout(r, 50));
      }
      return { shardsAcknowledged: true };
    },
    async delete(names) {
      const r = (await membership.toMaster(DELETE_INDEX_ACTION, { names })) as { version: number };
      await appliedEverywhere(r.version);
    },
    stop() {
      pruneOff();
      listingOff();
      clearTimeout(relist);
      applier.stop();
      master.stop();
    },
  };
}

/** The state with these indices' aliases and open/closed state as the master's APIs left them. */
function withMetaChanges(s: ClusterState, changes: readonly IndexMetaChange[]): ClusterState {
  if (changes.length === 0) return s;
  const indices = new Map(s.metadata.indices);
  for (const c of changes) {
    const m = indices.get(c.name);
    const aliases = c.aliases as Record<string, Record<string, unknown>>;
    if (m && m.uuid === c.uuid) indices.set(c.name, { ...m, aliases, state: c.state, version: m.version + 1 }); // prettier-ignore
  }
  return { ...s, metadata: { ...s.metadata, indices } };
}

/** Settings the cluster's create-index update sets itself. */
const CLUSTER_SET = new Set([
  'index.uuid',
  'index.creation_date',
  'index.version.created',
  'index.provided_name',
]);

/** The primary term of the shard a copy belongs to (undefined: no such copy). */
function termOfCopy(state: ClusterState, allocationId: string): number | undefined {
  for (const [name, table] of state.routing)
    for (const copies of table.shards)
      for (const c of copies)
        if (c.allocationId?.id === allocationId)
          return state.metadata.indices.get(name)?.terms[c.shard]?.primaryTerm;
  return undefined;
}
