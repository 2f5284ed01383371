/**
 * Real etcd processes for cluster tests: one member on 127.0.0.1, or three on 127.0.0.1/.2/.3 (so
 * later fault tests can cut one member off by address). Each member gets a temp data dir and free
 * client and peer ports; `stop()` terminates every member (SIGTERM, then SIGKILL) and removes the
 * dirs, and is safe to call twice or from an `afterAll` after a failed start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ETCD_BIN = '/usr/bin/etcd';

export interface EtcdMember {
  readonly name: string;
  readonly host: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  /** The running process, or null while stopped. */
  readonly child: ChildProcess | null;
  /**
   * Starts the member (again) on the same data dir and ports and waits until it answers; pass
   * false to skip the wait (a member of a 3-member cluster is only healthy once a quorum runs).
   */
  start(wait?: boolean): Promise<void>;
  /** Resolves when the member reports a leader (20 s at most). */
  healthy(): Promise<void>;
  /** SIGTERM, then SIGKILL after 2 s. Keeps the data dir. */
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  /** Client URLs of every member. */
  readonly endpoints: readonly string[];
  /** Stops every member and removes the data dirs. */
  stop(): Promise<void>;
}

export interface EtcdOptions {
  /** 1 (default) or 3. */
  readonly members?: 1 | 3;
  /** Addresses of the members (default 127.0.0.1, .2, .3). */
  readonly hosts?: readonly string[];
  /**
   * Runs member i under uid/gid `uids[i]` (as root): a fault test tells an etcd member's traffic
   * apart by its owner, since etcd dials its peers from 127.0.0.1 (test/jepsen/README.md).
   */
  readonly uids?: readonly number[];
  /** Prefix of the data dirs and cluster token (default `quarry`). */
  readonly prefix?: string;
  /** Appends each member's output to `<logDir>/<name>.log` (default: kept in memory only). */
  readonly logDir?: string;
}

/** A port free on `host` now (bind to 0, read it, release it). */
export function freePort(host: string): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

/** Polls `/health` until the member reports a leader, or fails after `timeoutMs`. */
async function waitHealthy(member: EtcdMember, stderr: () => string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!member.child || member.child.exitCode !== null || member.child.signalCode !== null)
      throw new Error(`etcd ${member.name} exited while starting:\n${stderr().slice(-2000)}`);
    try {
      const res = await fetch(`${member.clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { health?: string };
      if (body.health === 'true') return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `etcd ${member.name} not healthy within ${timeoutMs} ms:\n${stderr().slice(-2000)}`,
  );
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

/** Starts an etcd cluster and waits until every member answers. */
async function startEtcdOnce(opts: EtcdOptions = {}): Promise<EtcdCluster> {
  if (!existsSync(ETCD_BIN))
    throw new Error(
      `${ETCD_BIN} is missing: install Debian's etcd-server to run the cluster tests`,
    );
  const count = opts.members ?? 1;
  const hosts = (opts.hosts ?? ['127.0.0.1', '127.0.0.2', '127.0.0.3']).slice(0, count);
  if (hosts.length < count) throw new Error(`startEtcd: ${count} members need ${count} hosts`);
  const prefix = opts.prefix ?? 'quarry';
  const token = `${prefix}-test-${process.pid}-${Date.now()}`;
  const specs = await Promise.all(
    hosts.map(async (host, i) => ({
      name: `m${i + 1}`,
      host,
      clientUrl: `http://${host}:${await freePort(host)}`,
      peerUrl: `http://${host}:${await freePort(host)}`,
      dataDir: await mkdtemp(join(tmpdir(), `${prefix}-etcd-m${i + 1}-`)),
      uid: opts.uids?.[i],
    })),
  );
  for (const s of specs) if (s.uid !== undefined) await chown(s.dataDir, s.uid, s.uid);
  const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
  const members: (EtcdMember & { child: ChildProcess | null })[] = specs.map(({ uid, ...spec }) => {
    let log = '';
    const member: EtcdMember & { child: ChildProcess | null } = {
      ...spec,
      child: null,
      healthy: () => waitHealthy(member, () => log),
      async start(wait = true) {
        if (member.child) return;
        log = '';
        const child = spawn(
          ETCD_BIN,
          [
            `--name=${spec.name}`,
            `--data-dir=${spec.dataDir}`,
            `--listen-client-urls=${spec.clientUrl}`,
            `--advertise-client-urls=${spec.clientUrl}`,
            `--listen-peer-urls=${spec.peerUrl}`,
            `--initial-advertise-peer-urls=${spec.peerUrl}`,
            `--initial-cluster=${initialCluster}`,
            '--initial-cluster-state=new',
            `--initial-cluster-token=${token}`,
            // Fast elections so fault tests stay short.
            '--heartbeat-interval=50',
            '--election-timeout=500',
            '--logger=zap',
            '--log-level=error',
          ],
          {
            stdio: ['ignore', 'ignore', 'pipe'],
            ...(uid !== undefined ? { uid, gid: uid } : {}),
          },
        );
        child.stderr!.on('data', (d) => {
          log = (log + d).slice(-20_000);
          if (opts.logDir) appendFileSync(join(opts.logDir, `${spec.name}.log`), d);
        });
        child.once('exit', () => {
          if (member.child === child) member.child = null;
        });
        member.child = child;
        if (wait) await waitHealthy(member, () => log);
      },
      async stop() {
        const child = member.child;
        if (!child) return;
        child.kill('SIGTERM');
        if (!(await waitExit(child, 2000))) {
          child.kill('SIGKILL');
          await waitExit(child, 5000);
        }
        member.child = null;
      },
      async kill9() {
        const child = member.child;
        if (!child) return;
        child.kill('SIGKILL');
        await waitExit(child, 5000);
        member.child = null;
      },
    };
    return member;
  });
  let stopped = false;
  const cluster: EtcdCluster = {
    members,
    endpoints: members.map((m) => m.clientUrl),
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all(members.map((m) => m.stop()));
      await Promise.all(specs.map((s) => rm(s.dataDir, { recursive: true, force: true })));
    },
  };
  try {
    await Promise.all(members.map((m) => m.start(false)));
    await Promise.all(members.map((m) => m.healthy()));
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  return cluster;
}

/**
 * Starts etcd, again with fresh ports (at most three times) when a port picked as free was taken
 * by another process before etcd bound it: tests run in parallel.
 */
export async function startEtcd(opts: EtcdOptions = {}): Promise<EtcdCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEtcdOnce(opts);
    } catch (e) {
      if (attempt >= 3 || !String(e).includes('address already in use')) throw e;
    }
  }
}
