/**
 * Starting and stopping one node: open the store, restore identity and indices, build the HTTP
 * app, listen. `startNode` is what `bin/quarry`, the tests and the conformance runner use.
 */
import type { FastifyInstance } from 'fastify';
import { randomBase64Uuid } from './common/ids.js';
import { buildApp } from './http/app.js';
import type { NodeContext, NodeSettings } from './node-context.js';
import { Store } from './store/store.js';
import { IndicesService } from './engine/indices-service.js';
import { DocumentService } from './engine/documents.js';
import { ScrollService } from './dsl/search/scroll.js';
import { runUpdateScript } from './dsl/search/scripts.js';
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

export interface RunningNode {
  readonly url: string;
  readonly port: number;
  readonly context: NodeContext;
  readonly app: FastifyInstance;
  readonly startMillis: number;
  close(): Promise<void>;
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
  const store = Store.open(settings.dataPath);
  let identity = store.getMeta<NodeIdentity>('node');
  if (!identity) {
    identity = { nodeId: randomBase64Uuid(), clusterUuid: randomBase64Uuid() };
    await store.putMeta('node', identity);
  }
  const nodeName = settings.nodeName ?? identity.nodeId.slice(0, 7);
  const indices = new IndicesService(store);
  indices.load();
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
    clusterUuid: identity.clusterUuid,
    startedAt: Date.now(),
    store,
    indices,
    documents,
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
      scrolls.close();
      await indices.close();
      await store.close();
    },
  };
}

export async function startNode(opts: StartOptions): Promise<RunningNode> {
  const t0 = performance.now();
  const opened = await openNode(opts);
  const { context } = opened;
  const { settings, nodeName } = context;
  const app = buildApp(context, { maxContentLength: settings.maxContentLength });
  await app.listen({ port: settings.port, host: settings.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : settings.port;
  const hostForUrl = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  context.publishAddress = `${settings.host}:${port}`;
  const startMillis = Math.round(performance.now() - t0);
  opts.log?.(
    logLine(
      'INFO',
      'o.e.n.Node',
      nodeName,
      `started, publish_address {${context.publishAddress}}, cluster [${settings.clusterName}], data [${settings.dataPath}], started in ${startMillis}ms`,
    ),
  );
  let closed = false;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    context,
    app,
    startMillis,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await opened.close();
      opts.log?.(logLine('INFO', 'o.e.n.Node', nodeName, 'stopped'));
    },
  };
}
