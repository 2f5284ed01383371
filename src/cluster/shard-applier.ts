/**
 * What a node does with each cluster state (ES IndicesClusterStateService): it opens the indices
 * the cluster has (with the cluster's uuid and settings), removes the ones the cluster deleted,
 * starts the copies the master assigned to it — a new primary at once, a replica after peer
 * recovery from its primary over the transport — and tells the master each copy it started.
 * Primaries follow the term the cluster state gives them.
 */
import { fromStateSettings } from './state-settings.js';
import type { IndexService } from '../engine/index-service.js';
import type { IndicesService } from '../engine/indices-service.js';
import type { IndexTemplate } from '../engine/templates.js';
import type { StoredScriptSource } from '../engine/stored-scripts.js';
import type { Coordinator } from './coordination/coordinator.js';
import { recoverFromPrimary } from './replication/shard-transport.js';
import type { ClusterState, IndexMetadata, ShardRouting } from './state.js';
import type { Transport, TransportPeer } from './transport/transport.js';

/** Settings the cluster sets itself; a node passes the rest when it creates its copy. */
const PRIVATE = new Set([
  'index.uuid',
  'index.creation_date',
  'index.version.created',
  'index.provided_name',
]);

export interface ShardApplierDeps {
  readonly nodeId: string;
  readonly indices: IndicesService;
  readonly transport: Transport;
  /** Tells the master a copy started (it marks it STARTED and in sync, then reroutes). */
  reportStarted(index: string, shard: number, allocationId: string): Promise<void>;
  /**
   * Tells the master a copy could not start (ES ShardStateAction.localShardFailed): it unassigns
   * it and allocates it again (ES counts the attempts, `index.allocation.max_retries`).
   */
  reportFailed?(allocationId: string, reason: string): Promise<void>;
  log?: (level: string, msg: string) => void;
}

export interface ShardApplier {
  /** Runs `fn` on every new state, as part of applying it (what the node keeps besides indices). */
  onApply(fn: (prev: ClusterState | null, next: ClusterState) => Promise<void>): void;
  /** Resolves once this node applied a state of at least `version` (indices, metadata, copies started or under way). */
  whenApplied(version: number, timeoutMs: number): Promise<void>;
  stop(): void;
}

const peerOf = (state: ClusterState, nodeId: string): TransportPeer => {
  const n = state.nodes.get(nodeId);
  if (!n) throw new Error(`node [${nodeId}] is not in the cluster`);
  return { id: n.id, name: n.name, transportAddress: n.transportAddress };
};

export function startShardApplier(coordinator: Coordinator, deps: ShardApplierDeps): ShardApplier {
  /** Allocation ids this node is starting or started (each is started once). */
  const handled = new Set<string>();
  /** Copies started here and reported to the master, with when they were last reported. */
  const reported = new Map<string, number>();
  /**
   * ES IndicesClusterStateService: a copy started here that the state still shows initializing —
   * the master lost the report (it changed), or it placed the same in-sync store here again after
   * this node left and came back — is reported again, at most once a second, until the master
   * marks it started. Without this the copy would stay initializing for good.
   */
  const reportAgain = (index: string, shard: number, aid: string) => {
    const last = reported.get(aid)!;
    if (Date.now() - last >= 1000) {
      reported.set(aid, Date.now());
      void deps
        .reportStarted(index, shard, aid)
        .catch((e: unknown) => deps.log?.('WARN', `[${index}][${shard}] failed to report started again: ${String(e)}`)); // prettier-ignore
    }
    retrySoon();
  };
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  /** One creation per index, whichever copy asks first (copies start in parallel). */
  const opening = new Map<string, Promise<IndexService>>();
  const ensureIndex = (meta: IndexMetadata): Promise<IndexService> => {
    let p = opening.get(meta.uuid);
    if (!p) {
      p = openIndex(meta);
      opening.set(meta.uuid, p);
      p.catch(() => opening.delete(meta.uuid));
    }
    return p;
  };

  const openIndex = async (meta: IndexMetadata): Promise<IndexService> => {
    const local = deps.indices.get(meta.name);
    if (local && local.uuid === meta.uuid) return local;
    if (local) await deps.indices.delete([local]);
    const settings: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(fromStateSettings(meta.settings)))
      if (!PRIVATE.has(k)) settings[k] = v;
    const idx = await deps.indices.create(
      meta.name,
      { settings, ...(meta.mappings ? { mappings: meta.mappings } : {}) },
      {
        uuid: meta.uuid,
        creationDate: Number(meta.settings['index.creation_date'] ?? Date.now()),
        published: true,
      },
    );
    mappingApplied.set(meta.uuid, meta.mappingVersion);
    return idx;
  };

  /** The settings version of each index this node applied last (by uuid). */
  const settingsApplied = new Map<string, number>();
  /** Takes the settings the master published (PUT _settings, number_of_replicas, blocks...). */
  const applySettings = async (idx: IndexService, meta: IndexMetadata) => {
    const seen = settingsApplied.get(meta.uuid);
    settingsApplied.set(meta.uuid, meta.settingsVersion);
    if (seen === undefined || seen >= meta.settingsVersion) return;
    const local = idx.meta.settings;
    let changed = false;
    const published = fromStateSettings(meta.settings);
    for (const [k, v] of Object.entries(published)) {
      if (JSON.stringify(local[k]) === JSON.stringify(v)) continue;
      local[k] = v;
      changed = true;
    }
    for (const k of Object.keys(local))
      if (!(k in published) && !PRIVATE.has(k)) {
        delete local[k];
        changed = true;
      }
    if (!changed) return;
    idx.settingsChanged();
    idx.meta.version++;
    await idx.persist();
  };
  /** Takes the aliases and open/closed state the master published, when they differ. */
  const applyAliases = async (idx: IndexService, meta: IndexMetadata) => {
    const same = JSON.stringify(idx.meta.aliases) === JSON.stringify(meta.aliases);
    if (same && idx.meta.state === meta.state) return;
    idx.meta.aliases = structuredClone(meta.aliases) as typeof idx.meta.aliases;
    idx.meta.state = meta.state;
    idx.meta.version++;
    await idx.persist();
  };
  /** The mapping version of each index this node merged last (by uuid). */
  const mappingApplied = new Map<string, number>();
  /** Merges a mapping the master published (a dynamic update from some primary, a put mapping). */
  const applyMapping = async (idx: IndexService, meta: IndexMetadata) => {
    if (!meta.mappings || (mappingApplied.get(meta.uuid) ?? 0) >= meta.mappingVersion) return;
    mappingApplied.set(meta.uuid, meta.mappingVersion);
    for (const [type, mapping] of Object.entries(meta.mappings)) {
      await idx.updateMapping(type, mapping);
    }
  };

  const startCopy = async (state: ClusterState, meta: IndexMetadata, copy: ShardRouting) => {
    const aid = copy.allocationId!.id;
    const idx = await ensureIndex(meta);
    idx.shard(copy.shard).raisePrimaryTerm(meta.terms[copy.shard]?.primaryTerm ?? 1);
    // a replica, or the target of a primary's relocation, recovers from the active primary
    const relocating = copy.relocatingNodeId !== null && !!copy.allocationId?.relocationId;
    if (!copy.primary || relocating) {
      const primary = state.routing
        .get(meta.name)
        ?.shards[copy.shard]?.find(
          (c) => c.primary && (c.state === 'STARTED' || c.state === 'RELOCATING'),
        );
      if (!primary?.nodeId) {
        // tried again on the latest state once the primary is active (no new state may come)
        handled.delete(aid);
        retrySoon();
        return;
      }
      const startMs = Date.now();
      const stats = await recoverFromPrimary(
        deps.transport,
        peerOf(state, primary.nodeId),
        idx,
        copy.shard,
        aid,
        -1,
      );
      deps.log?.(
        'INFO',
        `[${meta.name}][${copy.shard}] recovered from [${primary.nodeId}]: ${stats.operations} operations, ${stats.rolledBack} rolled back`,
      );
      const from = peerOf(state, primary.nodeId);
      idx.shard(copy.shard).recovery = {
        type: 'PEER',
        startMs,
        stopMs: Date.now(),
        replayedOps: stats.operations,
        source: {
          id: from.id,
          name: from.name ?? from.id,
          transportAddress: from.transportAddress,
        },
      };
    }
    await deps.reportStarted(meta.name, copy.shard, aid);
    reported.set(aid, Date.now());
  };

  const apply = async (prev: ClusterState | null, state: ClusterState) => {
    // indices the cluster deleted go here too (local indices the cluster never had stay)
    if (prev) {
      for (const [name, meta] of prev.metadata.indices) {
        if (state.metadata.indices.get(name)?.uuid === meta.uuid) continue;
        const local = deps.indices.get(name);
        if (local && local.uuid === meta.uuid) await deps.indices.delete([local]);
      }
    }
    for (const fn of extra)
      await fn(prev, state).catch((e: unknown) => deps.log?.('WARN', `failed to apply the cluster state: ${String(e)}`)); // prettier-ignore
    // templates as the master published them (created indices already carry what they applied)
    if (!prev || prev.metadata.templates !== state.metadata.templates)
      await deps.indices.templates
        .replaceAll([...state.metadata.templates.values()] as IndexTemplate[])
        .catch((e: unknown) => deps.log?.('WARN', `failed to apply templates: ${String(e)}`));
    if (!prev || prev.metadata.scripts !== state.metadata.scripts)
      await deps.indices.scripts
        .replaceAll(
          Object.fromEntries(state.metadata.scripts) as Record<string, StoredScriptSource>,
        )
        .catch((e: unknown) => deps.log?.('WARN', `failed to apply stored scripts: ${String(e)}`));
    // every node holds every index's metadata (ES: IndexMetaData is in every node's state), so
    // names, aliases and mappings resolve on any node; only assigned copies hold documents
    for (const meta of state.metadata.indices.values()) {
      try {
        const idx = await ensureIndex(meta);
        await applyMapping(idx, meta);
        await applySettings(idx, meta);
        await applyAliases(idx, meta);
      } catch (e) {
        deps.log?.('WARN', `[${meta.name}] failed to apply its metadata: ${String(e)}`);
      }
    }
    const work: Promise<void>[] = [];
    for (const [name, table] of state.routing) {
      const meta = state.metadata.indices.get(name);
      if (!meta) continue;
      for (const copies of table.shards) {
        for (const copy of copies) {
          if (copy.nodeId !== deps.nodeId || !copy.allocationId) continue;
          if (copy.state === 'STARTED' && copy.primary) {
            deps.indices
              .get(name)
              ?.shard(copy.shard)
              .raisePrimaryTerm(meta.terms[copy.shard]?.primaryTerm ?? 1);
          }
          if (copy.state !== 'INITIALIZING') continue;
          if (handled.has(copy.allocationId.id)) {
            if (reported.has(copy.allocationId.id))
              reportAgain(name, copy.shard, copy.allocationId.id);
            continue;
          }
          handled.add(copy.allocationId.id);
          work.push(
            startCopy(state, meta, copy).catch((e: unknown) => {
              // retried here a few times (a peer that just left, a connection being replaced),
              // then handed back to the master, which allocates it again
              const aid = copy.allocationId!.id;
              const n = (failures.get(aid) ?? 0) + 1;
              failures.set(aid, n);
              deps.log?.('WARN', `[${name}][${copy.shard}] failed to start: ${String(e)}`);
              if (n < 3) {
                handled.delete(aid);
                retrySoon();
              } else if (deps.reportFailed) {
                void deps.reportFailed(aid, `failed to start: ${String(e)}`).catch(() => {
                  // the master did not hear it: try the whole start again later
                  handled.delete(aid);
                  failures.delete(aid);
                  retrySoon();
                });
              }
            }),
          );
        }
      }
    }
    // copies start (and replicas recover) in the background: applying a state never waits on them
    void Promise.all(work);
  };

  const extra: Array<(prev: ClusterState | null, next: ClusterState) => Promise<void>> = [];
  /** Failed starts by allocation id. */
  const failures = new Map<string, number>();
  let retryTimer: NodeJS.Timeout | null = null;
  /** Applies the latest state again shortly (a copy waited for its primary, or failed to start). */
  const retrySoon = () => {
    if (retryTimer || stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      const s = coordinator.state();
      enqueue(s, s);
    }, 500);
    retryTimer.unref();
  };
  let appliedVersion = -1;
  const waiters = new Set<{ version: number; done: () => void }>();
  const enqueue = (prev: ClusterState | null, next: ClusterState) => {
    running = running
      .then(() => (stopped ? undefined : apply(prev, next)))
      .finally(() => {
        appliedVersion = Math.max(appliedVersion, next.version);
        for (const w of waiters) if (w.version <= appliedVersion) w.done();
      });
  };
  const unsubscribe = coordinator.onState((prev, next) => enqueue(prev, next));
  enqueue(null, coordinator.state());
  return {
    onApply(fn) {
      extra.push(fn);
    },
    whenApplied(version, timeoutMs) {
      if (appliedVersion >= version) return Promise.resolve();
      return new Promise((resolve) => {
        const w = {
          version,
          done: () => {
            clearTimeout(t);
            waiters.delete(w);
            resolve();
          },
        };
        const t = setTimeout(w.done, timeoutMs);
        waiters.add(w);
      });
    },
    stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      unsubscribe();
      for (const w of [...waiters]) w.done();
    },
  };
}
