/**
 * The system under test for the fault test: etcd members and Quarry node processes on loopback,
 * each on an address of its own and (as root) under a uid of its own, so the nemesis can cut any
 * of them off — node k's transport binds 127.0.0.(20+k), and its etcd client, which cannot bind,
 * is told apart by its owner. Nobody uses 127.0.0.1: every unbound loopback socket leaves from
 * there, so a rule naming it would cut everything. The harness's own clients bind CLIENT_ADDRESS,
 * which no partition names. Node output goes to a log file per node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';

export const CLIENT_ADDRESS = '127.0.0.100';
export const nodeAddress = (k: number) => `127.0.0.${20 + k}`;
export const etcdAddress = (k: number) => `127.0.0.${10 + k}`;
const NODE_UID_BASE = 60_020;
const ETCD_UID_BASE = 60_010;

const bin = fileURLToPath(new URL('./node-main.mjs', import.meta.url));

export interface ClusterNode {
  readonly name: string;
  readonly address: string;
  readonly uid: number | undefined;
  readonly dataPath: string;
  /** `http://host:port` of the running process (the port changes on restart). */
  url: string;
  child: ChildProcess | null;
  pid(): number;
}

export interface ClusterOptions {
  readonly nodes: number;
  /** 1 or 3 etcd members. */
  readonly etcdMembers: 1 | 3;
  /** Work dir: node data and logs. */
  readonly dir: string;
  /** Run each process under its own uid (needs root): partitions then also cut etcd traffic. */
  readonly owners: boolean;
  readonly leaseTtl?: string;
  readonly extraSettings?: readonly string[];
}

export interface Cluster {
  readonly nodes: readonly ClusterNode[];
  readonly etcd: EtcdCluster;
  /**
   * Exits nobody in the test asked for: anything but a SIGKILL (the nemesis) or the final stop,
   * e.g. a crash, or a signal from outside the test.
   */
  readonly unexpectedExits: ReadonlyArray<{
    node: string;
    at: string;
    code: number | null;
    signal: string | null;
  }>;
  /** Address → uid, for the nemesis (empty without owners). */
  readonly owners: Readonly<Record<string, number>>;
  readonly etcdAddresses: readonly string[];
  start(node: ClusterNode): Promise<void>;
  kill9(node: ClusterNode): Promise<void>;
  stop(): Promise<void>;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((res) => {
    const t = setTimeout(() => res(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      res(true);
    });
  });
}

/** Address → uid of every process of a cluster run with owners (the nemesis needs it first). */
export function clusterOwners(nodes: number, etcdMembers: number): Record<string, number> {
  const owners: Record<string, number> = {};
  for (let i = 1; i <= etcdMembers; i++) owners[etcdAddress(i)] = ETCD_UID_BASE + i;
  for (let k = 1; k <= nodes; k++) owners[nodeAddress(k)] = NODE_UID_BASE + k;
  return owners;
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const owners = o.owners ? clusterOwners(o.nodes, o.etcdMembers) : {};
  const etcdAddresses = Array.from({ length: o.etcdMembers }, (_, i) => etcdAddress(i + 1));
  const etcd = await startEtcd({
    members: o.etcdMembers,
    prefix: 'jepsen',
    logDir: o.dir,
    hosts: etcdAddresses,
    ...(o.owners ? { uids: etcdAddresses.map((a) => owners[a]!) } : {}),
  });
  // the nodes' own uids must reach their data paths (mkdtemp makes 0700 dirs)
  if (o.owners) chmodSync(o.dir, 0o755);
  const logs = new Map<ClusterNode, WriteStream>();
  const unexpectedExits: Array<{
    node: string;
    at: string;
    code: number | null;
    signal: string | null;
  }> = [];
  let stopping = false;
  const nodes: ClusterNode[] = [];
  for (let k = 1; k <= o.nodes; k++) {
    const dataPath = join(o.dir, `n${k}`);
    mkdirSync(dataPath, { recursive: true });
    const uid = o.owners ? NODE_UID_BASE + k : undefined;
    if (uid !== undefined) chownSync(dataPath, uid, uid);
    const node: ClusterNode = {
      name: `n${k}`,
      address: nodeAddress(k),
      uid,
      dataPath,
      url: '',
      child: null,
      pid() {
        if (!node.child?.pid) {
          const last = unexpectedExits.filter((e) => e.node === node.name).at(-1);
          throw new Error(
            `${node.name} is not running` +
              (last
                ? ` (it exited unasked at ${last.at}: code ${last.code}, signal ${last.signal})`
                : ''),
          );
        }
        return node.child.pid;
      },
    };
    logs.set(node, createWriteStream(join(o.dir, `n${k}.log`), { flags: 'a' }));
    nodes.push(node);
  }
  const args = (n: ClusterNode) => [
    bin,
    '--port',
    '0',
    '--data',
    n.dataPath,
    '--host',
    n.address,
    '--node-name',
    n.name,
    '--transport-port',
    '0',
    '--etcd',
    etcd.endpoints.join(','),
    '-E',
    `discovery.etcd.lease_ttl=${o.leaseTtl ?? '2s'}`,
    ...(o.extraSettings ?? []).flatMap((s) => ['-E', s]),
  ];

  const start = (n: ClusterNode): Promise<void> =>
    new Promise((resolve, reject) => {
      if (n.child) return resolve();
      const log = logs.get(n)!;
      log.write(`--- start ${new Date().toISOString()}\n`);
      const child = spawn(process.execPath, args(n), {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(n.uid !== undefined ? { uid: n.uid, gid: n.uid } : {}),
      });
      n.child = child;
      let head = '';
      let started = false;
      const timer = setTimeout(() => {
        if (!started) {
          child.kill('SIGKILL');
          reject(new Error(`${n.name} did not start within 30 s:\n${head.slice(-2000)}`));
        }
      }, 30_000);
      // Output is drained for the whole life of the process: a full pipe would block the node.
      child.stderr!.on('data', (d: Buffer) => {
        log.write(d);
        if (!started) head += d;
      });
      child.stdout!.on('data', (d: Buffer) => {
        log.write(d);
        if (started) return;
        head += d;
        const m = /publish_address \{([^}]+)\}/.exec(head);
        if (m) {
          started = true;
          clearTimeout(timer);
          n.url = `http://${m[1]}`;
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        const at = new Date().toISOString();
        log.write(`--- exit ${code ?? signal} ${at}\n`);
        if (!stopping && signal !== 'SIGKILL')
          unexpectedExits.push({ node: n.name, at, code, signal });
        if (n.child === child) n.child = null;
        if (!started) {
          clearTimeout(timer);
          reject(new Error(`${n.name} exited with ${code ?? signal}:\n${head.slice(-2000)}`));
        }
      });
    });

  const kill9 = async (n: ClusterNode) => {
    const child = n.child;
    if (!child) return;
    child.kill('SIGKILL');
    await waitExit(child, 10_000);
  };

  const cluster: Cluster = {
    nodes,
    etcd,
    owners,
    etcdAddresses,
    unexpectedExits,
    start,
    kill9,
    async stop() {
      stopping = true;
      await Promise.all(
        nodes.map(async (n) => {
          const child = n.child;
          if (!child) return;
          child.kill('SIGCONT');
          child.kill('SIGTERM');
          if (!(await waitExit(child, 5_000))) await kill9(n);
        }),
      );
      await etcd.stop();
      await Promise.all([...logs.values()].map((l) => new Promise<void>((r) => l.end(() => r()))));
    },
  };
  // an etcd member dying is no fault of the schedule either
  for (const m of etcd.members)
    m.child?.once('exit', (code, signal) => {
      const at = new Date().toISOString();
      if (!stopping) unexpectedExits.push({ node: `etcd ${m.name}`, at, code, signal });
    });
  try {
    await Promise.all(nodes.map(start));
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  return cluster;
}
