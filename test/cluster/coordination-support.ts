/** Shared pieces of the coordination tests against a real etcd. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isEsError } from '../../src/common/errors.js';
import {
  etcdCoordinator,
  type EtcdCoordinator,
} from '../../src/cluster/coordination/etcd-coordinator.js';
import type { StoredIndexMetadata } from '../../src/cluster/coordination/codec.js';
import type { DiscoveryNode } from '../../src/cluster/state.js';

export const TTL_SECONDS = 2;

export const node = (id: string): DiscoveryNode => ({
  id,
  name: `node-${id}`,
  ephemeralId: `eph-${id}-${Date.now()}`,
  transportAddress: '127.0.0.1:9300',
  httpAddress: '127.0.0.1:9200',
  attributes: {},
  version: '0.1.0',
  esVersion: '6.8.13',
  roles: ['master', 'data', 'ingest'],
});

export const index = (name: string, uuid: string, shards = 1): StoredIndexMetadata => ({
  name,
  uuid,
  state: 'open',
  settings: { 'index.number_of_shards': String(shards) },
  mappings: null,
  aliases: {},
  numberOfShards: shards,
  numberOfReplicas: 0,
  version: 1,
  mappingVersion: 1,
  settingsVersion: 1,
});

export function coordinator(
  endpoints: readonly string[],
  clusterName: string,
  leaseTtlSeconds = TTL_SECONDS,
): EtcdCoordinator {
  return etcdCoordinator(
    {
      endpoints,
      clusterName,
      leaseTtlSeconds,
      prefix: '/quarry',
    },
    process.env.COORD_DEBUG
      ? {
          log: (level, msg) =>
            console.log(`${Date.now() % 100000} ${clusterName} ${level}: ${msg}`),
        }
      : {},
  );
}

/** Polls `pred` every 25 ms; throws with `what` after `timeoutMs`. Resolves with the time taken. */
export async function waitUntil(pred: () => boolean, timeoutMs: number, what: string) {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - t0;
}

/** The one master among `cs`, waiting for exactly one to hold it and all to agree on it. */
export async function oneMaster(cs: readonly EtcdCoordinator[], timeoutMs = 10_000) {
  await waitUntil(
    () =>
      cs.filter((c) => c.isMaster()).length === 1 &&
      new Set(cs.map((c) => c.state().masterNodeId)).size === 1,
    timeoutMs,
    'exactly one master, agreed on by all',
  );
  return cs.find((c) => c.isMaster())!;
}

/** A coordinator in a child process (coordinator-child.ts), for crash tests. */
export async function startChild(
  endpoints: readonly string[],
  clusterName: string,
  nodeId: string,
): Promise<{ child: ChildProcess; kill9(): Promise<void> }> {
  // One process (node with tsx's loader), so SIGKILL reaches the coordinator itself.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./coordinator-child.ts', import.meta.url)),
      endpoints.join(','),
      clusterName,
      nodeId,
      String(TTL_SECONDS),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: fileURLToPath(new URL('../..', import.meta.url)) },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child ${nodeId} did not start: ${err}`)),
      20_000,
    );
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('"started":true')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child ${nodeId} exited with ${code}: ${err}`));
    });
  });
  return {
    child,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Runs `fn` again while it fails with a transport error (etcd unreachable a moment: the outcome
 * is unknown, and every StateOp is idempotent); an EsError (a refusal) is final.
 */
export async function retryTransient<T>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (isEsError(e) || Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
