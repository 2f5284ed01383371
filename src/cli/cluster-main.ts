/**
 * `npm run cluster -- --nodes 3`: a local cluster to try: one etcd (Debian's etcd-server) and N
 * Quarry nodes, node k on 127.0.0.k (all of 127.0.0.0/8 is loopback, so every node can use the
 * same HTTP and transport ports), data under `./data/cluster/`. Ctrl-C stops the nodes
 * gracefully, then etcd.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS, nodeLaunchEnv } from './node-launch.js';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLUSTER_USAGE = `Usage: npm run cluster -- [options]
  --nodes N            number of nodes, 1 to 9 (default 3); node k listens on 127.0.0.k
  --data DIR           data of etcd and the nodes (default ./data/cluster)
  --http-port N        HTTP port of every node (default 9200)
  --transport-port N   transport port of every node (default 9300)
  --etcd-port N        etcd client port on 127.0.0.1 (default 2379; the peer port is N+1)
  --etcd-bin PATH      etcd binary (default /usr/bin/etcd, Debian's etcd-server)
  --cluster-name NAME  cluster name (default "elasticsearch")
  -E key=value         a setting for every node
  -h, --help           this help`;

export interface ClusterOptions {
  nodes: number;
  dataDir: string;
  httpPort: number;
  transportPort: number;
  etcdPort: number;
  etcdBin: string;
  clusterName: string;
  settings: string[];
  help: boolean;
}

/** Pure: the launcher's options, or an error. */
export function parseClusterArgs(argv: string[], cwd: string): ClusterOptions {
  const o: ClusterOptions = {
    nodes: 3,
    dataDir: resolve(cwd, 'data/cluster'),
    httpPort: 9200,
    transportPort: 9300,
    etcdPort: 2379,
    etcdBin: '/usr/bin/etcd',
    clusterName: 'elasticsearch',
    settings: [],
    help: false,
  };
  const port = (v: string, flag: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`invalid ${flag} [${v}]`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const val = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`missing value for ${a}`);
      return v;
    };
    switch (a) {
      case '-h':
      case '--help':
        o.help = true;
        break;
      case '--nodes': {
        const v = val();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 9)
          throw new Error(`invalid --nodes [${v}]: 1 to 9`);
        o.nodes = n;
        break;
      }
      case '--data':
        o.dataDir = resolve(cwd, val());
        break;
      case '--http-port':
        o.httpPort = port(val(), a);
        break;
      case '--transport-port':
        o.transportPort = port(val(), a);
        break;
      case '--etcd-port':
        o.etcdPort = port(val(), a);
        if (o.etcdPort === 65535) throw new Error('invalid --etcd-port: the peer port is N+1');
        break;
      case '--etcd-bin':
        o.etcdBin = val();
        break;
      case '--cluster-name':
        o.clusterName = val();
        break;
      case '-E':
        o.settings.push(val());
        break;
      default:
        throw new Error(`unknown option [${a}]`);
    }
  }
  return o;
}

export interface NodePlan {
  name: string;
  host: string;
  dataDir: string;
  args: string[];
}

/** Pure: the etcd command line and each node's, for the options. */
export function planCluster(o: ClusterOptions): { etcd: string[]; nodes: NodePlan[] } {
  const client = `http://127.0.0.1:${o.etcdPort}`;
  const peer = `http://127.0.0.1:${o.etcdPort + 1}`;
  const etcd = [
    '--name',
    'quarry-etcd',
    '--data-dir',
    resolve(o.dataDir, 'etcd'),
    '--listen-client-urls',
    client,
    '--advertise-client-urls',
    client,
    '--listen-peer-urls',
    peer,
    '--initial-advertise-peer-urls',
    peer,
    '--initial-cluster',
    `quarry-etcd=${peer}`,
  ];
  const nodes: NodePlan[] = [];
  for (let k = 1; k <= o.nodes; k++) {
    const name = `node-${k}`;
    const host = `127.0.0.${k}`;
    const dataDir = resolve(o.dataDir, name);
    nodes.push({
      name,
      host,
      dataDir,
      args: [
        '--host',
        host,
        '--port',
        String(o.httpPort),
        '--transport-port',
        String(o.transportPort),
        '--data',
        dataDir,
        '--node-name',
        name,
        '--cluster-name',
        o.clusterName,
        '--etcd',
        client,
        ...o.settings.flatMap((s) => ['-E', s]),
      ],
    });
  }
  return { etcd, nodes };
}

/** Resolves once `url` answers 200, or fails after `ms`. */
async function waitHttp(url: string, ms: number, child: ChildProcess): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before answering ${url}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url} within ${ms}ms`);
}

/** Prefixes every line a child writes with its name. */
function pipeLines(child: ChildProcess, name: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop()!;
      for (const l of lines) process.stdout.write(`[${name}] ${l}\n`);
    });
  }
}

/** SIGTERM, then SIGKILL after `ms`; resolves when the child is gone. */
function stopChild(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

export async function main(argv: string[]): Promise<void> {
  let o: ClusterOptions;
  try {
    o = parseClusterArgs(argv, process.cwd());
  } catch (e) {
    process.stderr.write(`quarry-cluster: ${(e as Error).message}\n${CLUSTER_USAGE}\n`);
    process.exit(64);
  }
  if (o.help) {
    process.stdout.write(CLUSTER_USAGE + '\n');
    return;
  }
  if (!existsSync(o.etcdBin)) {
    process.stderr.write(
      `quarry-cluster: etcd not found at [${o.etcdBin}]: install Debian's etcd-server (apt-get install etcd-server) or give --etcd-bin\n`,
    );
    process.exit(1);
  }
  const plan = planCluster(o);
  mkdirSync(o.dataDir, { recursive: true });
  const quarry = fileURLToPath(new URL('../../../bin/quarry', import.meta.url));
  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = async (why: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`stopping the cluster (${why})\n`);
    const [etcd, ...nodes] = children;
    await Promise.all(nodes.map((c) => stopChild(c, 15_000)));
    if (etcd) await stopChild(etcd, 5_000);
    process.stdout.write('cluster stopped\n');
  };
  process.on('SIGINT', () => void stopAll('SIGINT').then(() => process.exit(0)));
  process.on('SIGTERM', () => void stopAll('SIGTERM').then(() => process.exit(0)));
  try {
    const etcd = spawn(o.etcdBin, plan.etcd, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(etcd);
    pipeLines(etcd, 'etcd');
    await waitHttp(`http://127.0.0.1:${o.etcdPort}/health`, 15_000, etcd);
    for (const n of plan.nodes) {
      mkdirSync(n.dataDir, { recursive: true });
      const child = spawn(process.execPath, [...NODE_FLAGS, quarry, ...n.args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: nodeLaunchEnv(),
      });
      children.push(child);
      pipeLines(child, n.name);
      child.once('exit', (code, signal) => {
        if (!stopping) process.stdout.write(`[${n.name}] exited (${code ?? signal})\n`);
      });
    }
    await Promise.all(
      plan.nodes.map((n, i) =>
        waitHttp(`http://${n.host}:${o.httpPort}/`, 30_000, children[i + 1]!),
      ),
    );
  } catch (e) {
    process.stderr.write(`quarry-cluster: ${(e as Error).message}\n`);
    await stopAll('start failed');
    process.exit(1);
  }
  process.stdout.write(
    [
      '',
      `cluster [${o.clusterName}]: etcd http://127.0.0.1:${o.etcdPort}, data ${o.dataDir}`,
      ...plan.nodes.map(
        (n) =>
          `  ${n.name}  http://${n.host}:${o.httpPort}  transport ${n.host}:${o.transportPort}`,
      ),
      'Ctrl-C stops it',
      '',
    ].join('\n'),
  );
}
