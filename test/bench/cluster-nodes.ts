/**
 * The processes of one bench configuration: a one-member etcd and `n` `bin/quarry` nodes on
 * 127.0.0.1..n (node names n1..n), each with its own data path, or one node without etcd
 * (`standalone`). Node processes may get extra Node flags (`--cpu-prof`), which is why they are
 * spawned here rather than with test/helpers/process-node.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS, nodeLaunchEnv } from '../../src/cli/node-launch.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';

export interface BenchNode {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** The end of the node's log, for a report when it died. */
  logTail(): string;
}

export interface BenchCluster {
  readonly nodes: readonly BenchNode[];
  readonly etcd: EtcdCluster | null;
  /** Stops every node (SIGTERM, so a CPU profile is written), then etcd; removes the data. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly root: string;
  readonly nodes: number;
  /** One node without etcd: the engine's own write path, no cluster. */
  readonly standalone?: boolean;
  /** Node flags for every node process, e.g. ['--cpu-prof', '--cpu-prof-dir=...']. */
  readonly nodeFlags?: readonly string[];
}

function startNode(
  root: string,
  name: string,
  host: string,
  dataPath: string,
  extra: readonly string[],
  nodeFlags: readonly string[],
): Promise<BenchNode> {
  return new Promise((resolve, reject) => {
    const args = [
      ...NODE_FLAGS,
      ...nodeFlags,
      join(root, 'bin/quarry'),
      '--host',
      host,
      '--port',
      '0',
    ];
    args.push('--data', dataPath, '--node-name', name, ...extra);
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: nodeLaunchEnv(),
    });
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${name} did not start within 60 s: ${log.slice(-2000)}`));
    }, 60_000);
    child.stderr!.on('data', (d: Buffer) => (log = (log + d).slice(-20_000)));
    const onData = (d: Buffer) => {
      log = (log + d).slice(-20_000);
      const m = /publish_address \{([^}]+)\}/.exec(log);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const url = `http://${m[1]}`;
      child.stdout!.on('data', (x: Buffer) => (log = (log + x).slice(-20_000)));
      resolve({ name, url, port: Number(m[1]!.split(':').pop()), pid: child.pid!, child, logTail: () => log.slice(-1500) }); // prettier-ignore
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node ${name} exited (${code}): ${log.slice(-2000)}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startCluster(o: ClusterOptions): Promise<BenchCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-cluster-'));
  let etcd: EtcdCluster | null = null;
  const nodes: BenchNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => stopChild(n.child)));
    await etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (!o.standalone) etcd = await startEtcd();
    for (let k = 1; k <= o.nodes; k++) {
      const extra = etcd
        ? ['--transport-port', '0', '--etcd', etcd.endpoints.join(','), '-E', 'discovery.etcd.lease_ttl=2s'] // prettier-ignore
        : [];
      nodes.push(
        await startNode(o.root, `n${k}`, `127.0.0.${k}`, join(dir, `n${k}`), extra, o.nodeFlags ?? []), // prettier-ignore
      );
    }
    if (etcd) {
      const r = await fetch(
        `${nodes[0]!.url}/_cluster/health?wait_for_nodes=${o.nodes}&timeout=30s`,
      );
      const h = (await r.json()) as { number_of_nodes?: number };
      if (h.number_of_nodes !== o.nodes)
        throw new Error(`cluster did not form: ${JSON.stringify(h)}`);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { nodes, etcd, stop };
}
