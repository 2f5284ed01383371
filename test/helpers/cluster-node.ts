/**
 * What the cluster process tests share: the arguments of a node joining a test etcd on its own
 * loopback address with a short lease, and a JSON call that sends NDJSON when given a string.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd, type EtcdCluster } from './etcd.js';
import { startProcessNode, type ProcessNode } from './process-node.js';

export function clusterNodeArgs(host: string, name: string, etcd: EtcdCluster): string[] {
  return [
    '--host',
    host,
    '--node-name',
    name,
    '--transport-port',
    '0',
    '--etcd',
    etcd.endpoints.join(','),
    '-E',
    'discovery.etcd.lease_ttl=2s',
  ];
}

/** A request with a JSON body (an NDJSON one when `body` is a string); the answer parsed. */
export async function call(
  url: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const r = await fetch(url, {
    method,
    ...(body !== undefined
      ? {
          headers: {
            'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json',
          },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }
      : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : null };
}

/** Node processes joined through a test etcd, each on its own loopback address. */
export interface ProcessCluster {
  readonly etcd: EtcdCluster;
  readonly nodes: ProcessNode[];
  /** Where the nodes keep their data (and anything else the test puts there). */
  readonly dir: string;
  /** Stops every node and etcd, and removes the data. */
  stop(): Promise<void>;
}

/**
 * Starts etcd and `count` nodes (127.0.0.1…, named `d1`…, with `extraArgs`), then waits until
 * they all joined.
 */
export async function startProcessCluster(
  count: number,
  prefix: string,
  extraArgs: (dir: string) => string[] = () => [],
): Promise<ProcessCluster> {
  const dir = mkdtempSync(join(tmpdir(), `quarry-${prefix}-`));
  const etcd = await startEtcd();
  const nodes: ProcessNode[] = [];
  const stop = async () => {
    for (const n of nodes) await n.stop().catch(() => undefined);
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let k = 1; k <= count; k++)
      nodes.push(
        await startProcessNode(join(dir, `d${k}`), [
          ...clusterNodeArgs(`127.0.0.${k}`, `d${k}`, etcd),
          ...extraArgs(dir),
        ]),
      );
    await call(`${nodes[0]!.url}/_cluster/health?wait_for_nodes=${count}&timeout=10s`);
  } catch (e) {
    await stop();
    throw e;
  }
  return { etcd, nodes, dir, stop };
}
