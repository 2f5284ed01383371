/**
 * Starting and stopping one node: open the store, restore identity and indices, build the HTTP
 * app, listen. `startNode` is what `bin/quarry`, the tests and the conformance runner use.
 */
import {
  BUILD_WORKERS_SETTING,
  buildWorkerCount,
  configureBuildWorkers,
} from './search/index/build-pool.js';
import {
  configureSearchWorkers,
  PARALLEL_MIN_DOCS_SETTING,
  parallelMinDocs,
  SEARCH_WORKERS_SETTING,
  searchWorkerCount,
} from './search/parallel/search-pool.js';
import { failUnfinishedRestores } from './engine/snapshots/restore-marks.js';
import { setPercolatorQueryCheck } from './mapping/percolator.js';
import { checkPercolatorQuery } from './dsl/query/percolator-check.js';
import { localSearchService } from './dsl/search/local-search-service.js';
import { nodeRequestCache } from './dsl/search/shard-request-cache.js';
import { EsError } from './common/errors.js';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBase64Uuid } from './common/ids.js';
import { buildApp } from './http/app.js';
import type { NodeContext, NodeSettings } from './node-context.js';
import { Store } from './store/store.js';
import type { IndexService } from './engine/index-service.js';
import { DataPathLock } from './store/data-path-lock.js';
import { parseByteSize } from './common/units.js';
import { FileRealm } from './security/file-realm.js';
import { isLoopback, securitySettings } from './security/settings.js';
import { IndicesService } from './engine/indices-service.js';
import { setStoredScriptLookup } from './dsl/script/stored.js';
import { DocumentService } from './engine/documents.js';
import { localWrites } from './engine/write-executor.js';
import { localReads } from './engine/document-reader.js';
import { localBroadcast } from './engine/shard-broadcast.js';
import { localCopies } from './engine/copy-broadcast.js';
import { localMetadata, persistChanged } from './engine/metadata-writer.js';
import { localSummaries } from './engine/index-summaries.js';
import { clusterSummaries } from './cluster/index-summaries.js';
import { ScrollService } from './dsl/search/scroll.js';
import { runUpdateScript } from './dsl/search/scripts.js';
import {
  DEFAULT_MAX_NESTED_QUERY_DEPTH,
  MAX_NESTED_QUERY_DEPTH_SETTING,
  setMaxNestedQueryDepth,
} from './dsl/query/index.js';
import { intSetting } from './http/overload.js';
import { SCRIPT_METHODS } from './functions/index.js';

/** SQL's script helpers under both namespaces ES SQL emits. */
function sqlScriptMethods(): Record<string, (...a: unknown[]) => unknown> {
  const out: Record<string, (...a: unknown[]) => unknown> = {};
  for (const [k, fn] of Object.entries(SCRIPT_METHODS)) {
    out[`InternalSqlScriptUtils.${k}`] = fn as (...a: unknown[]) => unknown;
    out[`InternalQlScriptUtils.${k}`] = fn as (...a: unknown[]) => unknown;
  }
  return out;
}
import { effectiveClusterSettings } from './http/routes/cluster.js';
import { registerShardStats } from './cluster/routing/shard-stats.js';
import { clusterRoutingView } from './cluster/routing/routing-view.js';
import { localRoutingView } from './http/local-routing-view.js';
import { localMembersView } from './http/local-members-view.js';
import { clusterMembersView } from './cluster/members-view.js';
import { scanEnvironment } from './http/routes/by-query-worker.js';
import { withUpsertPipeline } from './http/ingest-writes.js';
import { localScanner } from './dsl/search/scan.js';
import { clusterScanner } from './cluster/by-query/cluster-scan.js';
import { sqlScriptMethods as adaptForSql } from './sql/execute/script-bridge.js';
import { joinCluster, wantsCluster, type ClusterMembership } from './cluster/membership.js';
import { startClusterIndices } from './cluster/cluster-indices.js';
import { PrimaryGroups, startClusterWritePath } from './cluster/writes/index.js';
import { clusterReads } from './cluster/reads/cluster-get.js';
import { pendingWrites } from './cluster/writes/pending-writes.js';
import { clusterExplainer } from './cluster/reads/cluster-explain.js';
import { localExplainer } from './dsl/search/explain-document.js';
import { localTermVectors } from './dsl/search/term-vectors.js';
import { clusterTermVectors } from './cluster/reads/cluster-termvectors.js';
import { searchLimits } from './http/routes/search.js';
import { clusterBroadcast } from './cluster/broadcast.js';
import { clusterCopies } from './cluster/copy-broadcast.js';
import { startClusterSearch } from './cluster/search/index.js';
import { saveRepositories } from './http/routes/snapshot-repositories.js';
import type { Repositories } from './engine/repositories.js';

export interface StartOptions {
  dataPath: string;
  port?: number;
  host?: string;
  clusterName?: string;
  nodeName?: string;
  maxContentLength?: number;
  settings?: Record<string, string>;
  /** Print the start and stop log lines (bin/quarry does). */
  log?: (line: string) => void;
}

/** Initial LMDB map size; lmdb-js grows the map (doubling) whenever a write needs more. */
const MAP_SIZE_SETTING = 'store.lmdb.map_size';

export interface RunningNode {
  readonly url: string;
  readonly port: number;
  readonly context: NodeContext;
  readonly app: FastifyInstance;
  readonly startMillis: number;
  /** Requests received and not yet answered. */
  readonly inFlight: number;
  /**
   * Graceful stop: stop accepting connections, let in-flight requests finish, write commit
   * points, close the store, release the data path. `reason` (e.g. `SIGTERM`) goes in the log.
   */
  close(reason?: string): Promise<void>;
}

interface NodeIdentity {
  nodeId: string;
  clusterUuid: string;
}

export function logLine(level: string, logger: string, nodeName: string, msg: string): string {
  const d = new Date();
  const ts = d.toISOString().replace('T', 'T').replace('Z', '').replace('.', ',');
  return `[${ts}][${level.padEnd(5)}][${logger}] [${nodeName}] ${msg}`;
}

/** A node's services without HTTP (in-process use: benchmarks, tools). */
export interface OpenNode {
  readonly context: NodeContext;
  close(): Promise<void>;
}

export async function openNode(opts: StartOptions): Promise<OpenNode> {
  const settings: NodeSettings = {
    clusterName: opts.clusterName ?? 'elasticsearch',
    nodeName: opts.nodeName ?? null,
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 9200,
    dataPath: opts.dataPath,
    maxContentLength: opts.maxContentLength ?? 100 * 1024 * 1024,
    raw: opts.settings ?? {},
  };
  // module percolator: stored queries are checked when their documents are indexed
  setPercolatorQueryCheck(checkPercolatorQuery);
  setMaxNestedQueryDepth(
    intSetting(settings.raw, MAX_NESTED_QUERY_DEPTH_SETTING, DEFAULT_MAX_NESTED_QUERY_DEPTH, 1),
  );
  // analysis and segment building at refresh run on worker threads (0: on this thread)
  configureBuildWorkers(buildWorkerCount(settings.raw[BUILD_WORKERS_SETTING]));
  // size-0 aggregations over large shards take slices on search worker threads (0: off)
  configureSearchWorkers(
    searchWorkerCount(settings.raw[SEARCH_WORKERS_SETTING]),
    parallelMinDocs(settings.raw[PARALLEL_MIN_DOCS_SETTING]),
  );
  const lock = DataPathLock.acquire(settings.dataPath);
  let store: Store | undefined;
  let indices: IndicesService;
  let releaseScripts = (): void => undefined;
  let identity: NodeIdentity | undefined;
  let nodeName: string;
  try {
    const mapSize = settings.raw[MAP_SIZE_SETTING];
    store = Store.open(settings.dataPath, {
      ...(mapSize !== undefined ? { mapSize: parseByteSize(mapSize, MAP_SIZE_SETTING) } : {}),
    });
    identity = store.getMeta<NodeIdentity>('node');
    if (!identity) {
      identity = { nodeId: randomBase64Uuid(), clusterUuid: randomBase64Uuid() };
      await store.putMeta('node', identity);
    }
    nodeName = settings.nodeName ?? identity.nodeId.slice(0, 7);
    indices = new IndicesService(store);
    const scripts = indices.scripts;
    releaseScripts = setStoredScriptLookup((id) => scripts.get(id));
    for (const f of [...indices.load(), ...(await failUnfinishedRestores(store, indices))]) {
      const msg = `index [${f.index}] could not be opened and is red: ${f.reason}`;
      opts.log?.(logLine('WARN', 'o.e.g.GatewayAllocator', nodeName, msg));
    }
  } catch (e) {
    releaseScripts();
    await store?.close().catch(() => undefined);
    lock.release();
    throw e;
  }
  const autoCreate = (settings.raw['action.auto_create_index'] ?? 'true') !== 'false';
  const scriptMethods = sqlScriptMethods();
  const documents = new DocumentService(indices, {
    autoCreateIndex: autoCreate,
    runScript: (script, ctx) => void runUpdateScript(script, ctx, scriptMethods),
  });
  const scrolls = new ScrollService();
  let clusterSettings = effectiveClusterSettings(store.getMeta('cluster:settings'));
  const context: NodeContext = {
    settings,
    clusterName: settings.clusterName,
    nodeName,
    nodeId: identity.nodeId,
    ephemeralId: randomBase64Uuid(),
    clusterUuid: identity.clusterUuid,
    startedAt: Date.now(),
    store,
    indices,
    documents,
    writes: localWrites(documents, store),
    reads: localReads(documents),
    // `context` is complete by the time a scan asks for it
    scans: localScanner(() => scanEnvironment(context)),
    explainer: localExplainer(() => searchLimits(context)),
    termVectors: localTermVectors(),
    nodeActions: new Map(),
    broadcast: localBroadcast(),
    copies: localCopies(() => identity.nodeId),
    metadata: localMetadata(indices),
    summaries: localSummaries(),
    searches: localSearchService(scrolls, () => identity.nodeId),
    routing: localRoutingView(() => context),
    members: localMembersView(() => context),
    scrolls,
    scriptMethods,
    runUpdateScript: (script, ctx) => runUpdateScript(script, ctx, scriptMethods),
    clusterSettings: () => clusterSettings,
    clusterSettingsChanged: (s) => {
      clusterSettings = s;
    },
    publishAddress: '',
  };
  return {
    context,
    async close() {
      releaseScripts();
      scrolls.close();
      try {
        await indices.close();
        await store.close();
      } finally {
        lock.release();
      }
    },
  };
}

/** The realm when security is on; logs how the node is protected (or that it is not). */
function securityFor(context: NodeContext, log: StartOptions['log']): FileRealm | undefined {
  const { settings, nodeName } = context;
  const sec = securitySettings(settings.raw, settings.dataPath);
  const say = (level: string, msg: string) =>
    log?.(logLine(level, 'o.e.x.s.Security', nodeName, msg));
  if (!sec.enabled) {
    if (!isLoopback(settings.host)) {
      say(
        'WARN',
        `security is disabled and the node listens on [${settings.host}], a non-loopback address: anyone who can reach it can read and change all data; enable authentication with [xpack.security.enabled: true] (or --auth)`,
      );
    }
    return undefined;
  }
  const realm = new FileRealm(sec.usersFile, {
    log: (msg) => say('WARN', msg),
  });
  const users = realm.load();
  say(
    'INFO',
    `security is enabled: HTTP basic authentication against [${sec.usersFile}] (${users} users)`,
  );
  if (users === 0) {
    say(
      'WARN',
      `no users are defined: every request will be refused; add one with [bin/quarry-users add <name> -r superuser]`,
    );
  }
  return realm;
}

export async function startNode(opts: StartOptions): Promise<RunningNode> {
  const t0 = performance.now();
  const opened = await openNode(opts);
  const { context } = opened;
  const { settings, nodeName } = context;
  let app: FastifyInstance;
  // Responses not yet closed: 'close' fires whether the response finished or the client went away.
  const live = new Set<ServerResponse>();
  let stopping = false;
  try {
    const realm = securityFor(context, opts.log);
    app = buildApp(context, {
      maxContentLength: settings.maxContentLength,
      ...(realm ? { realm } : {}),
    });
    // Counted on the server's 'request' event, ahead of Fastify, with one shared 'close'
    // listener: no Fastify hooks (an onSend hook alone puts every reply through the hook runner).
    // While stopping, answers close their connection (stop() marks those in flight): a keep-alive
    // socket left idle after its request would otherwise hold the stop until its timeout (72s).
    const server = app.server;
    const onClose = function (this: ServerResponse) {
      live.delete(this);
      if (stopping) setImmediate(() => server.closeIdleConnections());
    };
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      live.add(res);
      if (stopping) res.shouldKeepAlive = false;
      res.on('close', onClose);
    });
    let connections = 0;
    let connectionsTotal = 0;
    app.server.on('connection', (socket) => {
      connections++;
      connectionsTotal++;
      socket.once('close', () => connections--);
    });
    context.httpStats = () => ({ current_open: connections, total_opened: connectionsTotal });
    await app.listen({ port: settings.port, host: settings.host });
  } catch (e) {
    await opened.close();
    throw e;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : settings.port;
  const hostForUrl = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  context.publishAddress = `${settings.host}:${port}`;
  if (wantsCluster(settings.raw)) {
    try {
      context.cluster = await joinClusterOf(context, opts.log);
      // from now on searches read each shard on the node holding it
      if (context.clusterSearch) context.searches = context.clusterSearch;
      // node actions ask every node of the cluster state; health, shard listings and allocation
      // read the cluster's routing table and master
      context.members = clusterMembersView(context.cluster, context.nodeId);
      if (context.cluster.indices)
        context.routing = clusterRoutingView({
          clusterName: context.clusterName,
          membership: context.cluster,
          indices: context.cluster.indices,
        });
    } catch (e) {
      await app.close();
      await opened.close();
      throw e;
    }
  }
  const startMillis = Math.round(performance.now() - t0);
  opts.log?.(
    logLine(
      'INFO',
      'o.e.n.Node',
      nodeName,
      `started, publish_address {${context.publishAddress}}, cluster [${settings.clusterName}], data [${settings.dataPath}], started in ${startMillis}ms`,
    ),
  );
  let closing: Promise<void> | null = null;
  const stop = async (reason: string | undefined) => {
    const t = performance.now();
    const draining = live.size;
    stopping = true;
    // leave the cluster first: the others see the node go at once (its lease is revoked)
    context.clusterSearch?.close();
    await context.cluster?.stop();
    for (const res of live) if (!res.headersSent) res.shouldKeepAlive = false;
    // Fastify stops listening, closes idle keep-alive connections, answers in-flight requests
    // (with `Connection: close`) and resolves once every connection is gone.
    await app.close();
    const flushed = context.indices.all().filter((i) => !i.failed).length;
    await opened.close();
    opts.log?.(
      logLine(
        'INFO',
        'o.e.n.Node',
        nodeName,
        `stopped${reason ? ` on ${reason}` : ''} in ${Math.round(performance.now() - t)}ms: closed HTTP after ${draining} in-flight requests, wrote commit points of ${flushed} indices, closed the store`,
      ),
    );
  };
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    context,
    app,
    startMillis,
    get inFlight() {
      return live.size;
    },
    close(reason?: string) {
      closing ??= stop(reason);
      return closing;
    },
  };
}

/** An index's aliases and state as the master publishes them, copied as they are now. */
const metaChange = (i: IndexService) => ({
  name: i.name,
  uuid: i.uuid,
  aliases: structuredClone(i.meta.aliases),
  state: i.meta.state,
});

/**
 * Joins the cluster the settings name (`discovery.etcd.endpoints`) and answers the other nodes'
 * requests for this node's part of `_nodes`, `_nodes/stats` and `_cat/nodes`.
 */
async function joinClusterOf(
  context: NodeContext,
  log: StartOptions['log'],
): Promise<ClusterMembership> {
  const say = (level: string, msg: string) =>
    log?.(logLine(level, 'o.e.c.s.ClusterApplierService', context.nodeName, msg));
  const membership = await joinCluster({
    settings: context.settings.raw,
    clusterName: context.clusterName,
    nodeId: context.nodeId,
    nodeName: context.nodeName,
    ephemeralId: context.ephemeralId,
    httpAddress: context.publishAddress,
    log: say,
  });
  for (const [action, handler] of context.nodeActions) membership.handle(action, handler);
  const groups = new PrimaryGroups();
  const clusterIndices = startClusterIndices({
    membership,
    indices: context.indices,
    documents: context.documents,
    store: context.store,
    clusterSettings: () => context.clusterSettings?.() ?? {},
    groups,
    log: say,
  });
  membership.indices = clusterIndices;
  // the primaries' writes in flight, which realtime GETs here wait for
  const pending = pendingWrites();
  context.writes = startClusterWritePath({
    pending,
    upsertPipeline: (r) => withUpsertPipeline(context.ingest, context.indices, r),
    membership,
    clusterIndices,
    groups,
    indices: context.indices,
    documents: context.documents,
    store: context.store,
    log: say,
  });
  context.broadcast = clusterBroadcast(membership, context.indices);
  // the operations the routes registered, now run on every node's copies
  context.copies = clusterCopies(membership, context.indices, context.copies.operations);
  context.summaries = clusterSummaries(membership, context.indices);
  registerShardStats(context.nodeId, context.indices, membership);
  context.metadata = {
    indexCreated: (idx, waitMs, also = []) =>
      clusterIndices.publishCreated(idx, waitMs, also.map(metaChange)),
    putMapping: (idx, type, mapping) =>
      clusterIndices.putMapping(idx.name, idx.uuid, type, mapping),
    putSettings: (targets, update, preserve) =>
      clusterIndices.putSettings(
        targets.map((i) => ({ name: i.name, uuid: i.uuid })),
        update,
        preserve,
      ),
    indicesChanged: async (changed) => {
      // taken before any wait: a state applied meanwhile resets the local copies to the
      // published metadata, which this change is about to replace
      const changes = changed.map(metaChange);
      await persistChanged(changed);
      await clusterIndices.putIndicesMeta(changes);
    },
    deleteIndices: (list) => clusterIndices.delete(list.map((i) => i.name)),
    clusterSettingsChanged: (s) => clusterIndices.putClusterSettings(s.persistent, s.transient),
    repositoriesChanged: (r) => clusterIndices.putRepositories(r),
    createIndex: async (name, body) => {
      await clusterIndices.create(name, body, 30_000);
      // every node applied the state before the create is acknowledged: it is open here
      if (!context.indices.get(name))
        throw new EsError('index_not_found_exception', `no such index [${name}]`, 404, { meta: { index: name } }); // prettier-ignore
    },
  };
  // snapshot repositories too: every node keeps the published set in its store, applied with the
  // rest of each state, so a change is acknowledged once every node has it
  clusterIndices.onApply(async (prev, next) => {
    if (prev && prev.metadata.repositories === next.metadata.repositories) return;
    await saveRepositories(context, Object.fromEntries(next.metadata.repositories ?? []) as Repositories); // prettier-ignore
  });
  // ingest pipelines live in the cluster state: the master's pipeline APIs publish them
  const ingest = context.ingest;
  if (ingest) {
    ingest.onChange = () => clusterIndices.putPipelines(ingest.all());
    // applied with the rest of each state, so a change is acknowledged once every node has it
    clusterIndices.onApply(async (prev, next) => {
      if (prev && prev.metadata.pipelines === next.metadata.pipelines) return;
      const all = Object.fromEntries(next.metadata.pipelines ?? []) as Parameters<typeof ingest.replaceAll>[0]; // prettier-ignore
      await ingest.replaceAll(all);
    });
  }
  // every node takes the cluster settings the master published, stored before the state counts
  // as applied here (a change is acknowledged once every node reads it back)
  clusterIndices.onApply(async (_prev, next) => {
    const { persistentSettings: persistent, transientSettings: transient } = next.metadata;
    const mine = context.store.getMeta<{ persistent: Record<string, string>; transient: Record<string, string> }>('cluster:settings'); // prettier-ignore
    if (JSON.stringify(mine ?? { persistent: {}, transient: {} }) === JSON.stringify({ persistent, transient })) return; // prettier-ignore
    const s = { persistent: { ...persistent }, transient: { ...transient } };
    await context.store.putMeta('cluster:settings', s);
    context.clusterSettingsChanged?.(effectiveClusterSettings(s));
  });
  const peerOf = (id: string) => {
    const n = membership.state().nodes.get(id);
    if (!n) throw new EsError('node_not_connected_exception', `[${id}] not in the cluster`, 500);
    return { id: n.id, name: n.name, transportAddress: n.transportAddress };
  };
  const single = {
    nodeId: context.nodeId,
    coordinator: membership.coordinator,
    transport: membership.transport,
    indices: context.indices,
    peerOf,
  };
  context.reads = clusterReads({ ...single, local: localReads(context.documents), pending });
  context.explainer = clusterExplainer({ ...single, local: context.explainer });
  context.termVectors = clusterTermVectors({ ...single, local: context.termVectors });
  // by-query tasks scan each shard on its primary's node
  context.scans = clusterScanner({
    state: () => membership.state(),
    localNodeId: context.nodeId,
    transport: membership.transport,
    peerOf,
    index: (name) => context.indices.get(name),
    env: () => scanEnvironment(context),
  });
  context.clusterSearch = startClusterSearch({
    state: () => membership.state(),
    transport: membership.transport,
    host: {
      nodeId: context.nodeId,
      index: (name) => context.indices.get(name),
      bucketBreaker: () => context.overload?.breakers.bucketChecker(),
      requestCache: () =>
        nodeRequestCache(context.indices, context.settings.raw['indices.requests.cache.size']),
      // plain DSL searches get the adapted table too: ES SQL's translations are valid DSL
      get scriptMethods() {
        return context.scriptMethods ? adaptForSql(context.scriptMethods) : undefined;
      },
      get sqlScriptMethods() {
        return context.scriptMethods ? adaptForSql(context.scriptMethods) : undefined;
      },
    },
  });
  await membership.start();
  const state = membership.state();
  say(
    'INFO',
    `joined cluster [${context.clusterName}] through etcd: ${state.nodes.size} node(s), transport on [${membership.localNode.transportAddress}]`,
  );
  return membership;
}
