/**
 * The nemesis against real sockets and processes on loopback: an nftables partition between
 * 127.0.0.2 and 127.0.0.3 makes connections time out (and only between those two), healing
 * restores them; SIGSTOP makes a child server stop answering and SIGCONT brings it back; kill -9
 * kills it; no rule outlives the nemesis, even when its process exits or is interrupted.
 * Needs nftables and root: without them the suite fails with a message saying so.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertLoopback,
  checkNftables,
  createNemesis,
  crossPairs,
  DEFAULT_TABLE,
  faultTotals,
  NFT,
  type Nemesis,
} from './nemesis.js';

const TABLE = DEFAULT_TABLE;
const tableExists = () => {
  try {
    execFileSync(NFT, ['list', 'table', 'inet', TABLE], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

function echoServer(host: string): Promise<net.Server> {
  return new Promise((res, rej) => {
    const s = net.createServer((c) => c.pipe(c));
    s.on('error', rej);
    s.listen(0, host, () => res(s));
  });
}
const portOf = (s: net.Server) => (s.address() as net.AddressInfo).port;

/** Connects from `from` and round-trips one line; 'timeout' when nothing comes back in time. */
function roundTrip(from: string, host: string, port: number, ms = 400): Promise<string> {
  return new Promise((res) => {
    const s = net.connect({ host, port, localAddress: from });
    const done = (r: string) => {
      clearTimeout(t);
      s.destroy();
      res(r);
    };
    const t = setTimeout(() => done('timeout'), ms);
    s.on('connect', () => s.write('ping\n'));
    s.on('data', (d) => done(d.toString().includes('ping') ? 'ok' : 'garbage'));
    s.on('error', (e) => done(`error ${(e as NodeJS.ErrnoException).code}`));
  });
}

const nemeses: Nemesis[] = [];
const make = (o: Parameters<typeof createNemesis>[0] = {}) => {
  const n = createNemesis(o);
  nemeses.push(n);
  return n;
};
afterEach(async () => {
  for (const n of nemeses.splice(0)) await n.dispose();
});

beforeAll(async () => {
  // A clear failure, not a skip: CI installs nftables and runs as root.
  await checkNftables();
});

describe('addresses', () => {
  it('refuses anything outside 127.0.0.0/8', async () => {
    for (const bad of [
      '10.0.0.1',
      '128.0.0.1',
      '::1',
      'localhost',
      '127.0.0.256',
      '127.1',
      '0.0.0.0',
    ])
      expect(() => assertLoopback(bad), bad).toThrow(/only 127\.0\.0\.0\/8/);
    expect(() => assertLoopback('127.255.0.9')).not.toThrow();
    const n = make();
    await expect(n.partition([['127.0.0.2', '192.168.1.1']])).rejects.toThrow(/refusing/);
    await expect(n.isolate('8.8.8.8', ['127.0.0.2'])).rejects.toThrow(/refusing/);
    expect(tableExists()).toBe(false);
  });

  it('crossPairs splits two groups', () => {
    expect(crossPairs(['127.0.0.2'], ['127.0.0.3', '127.0.0.4'])).toEqual([
      ['127.0.0.2', '127.0.0.3'],
      ['127.0.0.2', '127.0.0.4'],
    ]);
  });
});

describe('partitions', () => {
  let a: net.Server;
  let b: net.Server;
  beforeAll(async () => {
    a = await echoServer('127.0.0.2');
    b = await echoServer('127.0.0.3');
  });
  afterAll(() => {
    a.close();
    b.close();
  });

  it('cuts 127.0.0.2 from 127.0.0.3 both ways, and nothing else; heal restores it', async () => {
    const n = make();
    expect(await roundTrip('127.0.0.2', '127.0.0.3', portOf(b))).toBe('ok');
    await n.partition([['127.0.0.2', '127.0.0.3']]);
    expect(tableExists()).toBe(true);
    expect(await roundTrip('127.0.0.2', '127.0.0.3', portOf(b))).toBe('timeout');
    expect(await roundTrip('127.0.0.3', '127.0.0.2', portOf(a))).toBe('timeout');
    expect(await roundTrip('127.0.0.4', '127.0.0.3', portOf(b))).toBe('ok');
    expect(await roundTrip('127.0.0.4', '127.0.0.2', portOf(a))).toBe('ok');
    await n.heal();
    expect(tableExists()).toBe(false);
    expect(await roundTrip('127.0.0.2', '127.0.0.3', portOf(b))).toBe('ok');
    expect(await roundTrip('127.0.0.3', '127.0.0.2', portOf(a))).toBe('ok');
    await n.heal(); // idempotent
    const f = n.faults();
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ kind: 'partition', target: '127.0.0.2<->127.0.0.3' });
    expect(f[0]!.end).toBeGreaterThan(f[0]!.start);
  });

  it('stalls an established connection, which resumes after heal', async () => {
    const n = make();
    const s = net.connect({ host: '127.0.0.3', port: portOf(b), localAddress: '127.0.0.2' });
    try {
      await new Promise<void>((r, j) => s.once('connect', () => r()).once('error', j));
      let got = '';
      s.on('data', (d) => (got += d));
      await n.isolate('127.0.0.2', ['127.0.0.3', '127.0.0.4']);
      s.write('during\n');
      await new Promise((r) => setTimeout(r, 400));
      expect(got).toBe('');
      await n.heal();
      for (let i = 0; i < 100 && !got.includes('during'); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(got).toBe('during\n');
    } finally {
      s.destroy();
    }
  });

  it('a partition heals itself after its time bound', async () => {
    const n = make({ maxFaultMillis: 300 });
    await n.partition([['127.0.0.2', '127.0.0.3']]);
    expect(await roundTrip('127.0.0.2', '127.0.0.3', portOf(b), 200)).toBe('timeout');
    for (let i = 0; i < 40 && tableExists(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(tableExists()).toBe(false);
    expect(await roundTrip('127.0.0.2', '127.0.0.3', portOf(b))).toBe('ok');
  });

  it('stops at its fault budget', async () => {
    const n = make({ maxFaults: 2 });
    await n.partition([['127.0.0.2', '127.0.0.3']]);
    await n.partition([['127.0.0.2', '127.0.0.4']]);
    await expect(n.partition([['127.0.0.2', '127.0.0.5']])).rejects.toThrow(/budget of 2/);
    expect(faultTotals(n.faults(), n.faults()[1]!.start + 1e6).partition.count).toBe(2);
  });
});

describe('processes', () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
    child = null;
  });

  async function startChild(): Promise<{ proc: ChildProcess; port: number }> {
    const code =
      "const s=require('net').createServer(c=>c.pipe(c));" +
      "s.listen(0,'127.0.0.5',()=>console.log(s.address().port))";
    const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    child = proc;
    const port = await new Promise<number>((res, rej) => {
      proc.stdout!.once('data', (d) => res(Number(String(d).trim())));
      proc.once('exit', () => rej(new Error('child server died')));
    });
    return { proc, port };
  }

  it('pause stops a server answering, resume brings it back', async () => {
    const n = make();
    const { proc, port } = await startChild();
    expect(await roundTrip('127.0.0.1', '127.0.0.5', port)).toBe('ok');
    n.pause(proc.pid!, 'echo');
    expect(await roundTrip('127.0.0.1', '127.0.0.5', port)).toBe('timeout');
    n.resume(proc.pid!);
    expect(await roundTrip('127.0.0.1', '127.0.0.5', port, 2_000)).toBe('ok');
    expect(n.faults().map((f) => [f.kind, f.target, f.end !== undefined])).toEqual([
      ['pause', 'echo', true],
    ]);
  });

  it('heal resumes paused processes; a pause also ends at its time bound', async () => {
    const n = make({ maxFaultMillis: 300 });
    const { proc, port } = await startChild();
    n.pause(proc.pid!);
    expect(await roundTrip('127.0.0.1', '127.0.0.5', port, 150)).toBe('timeout');
    await new Promise((r) => setTimeout(r, 300));
    expect(await roundTrip('127.0.0.1', '127.0.0.5', port, 2_000)).toBe('ok');
    n.pause(proc.pid!);
    await n.heal();
    expect(await roundTrip('127.0.0.1', '127.0.0.5', port, 2_000)).toBe('ok');
  });

  it('kill9 kills', async () => {
    const n = make();
    const { proc, port } = await startChild();
    const exited = new Promise((r) => proc.once('exit', (_c, sig) => r(sig)));
    n.kill9(proc.pid!, 'echo');
    expect(await exited).toBe('SIGKILL');
    expect(await roundTrip('127.0.0.1', '127.0.0.5', port)).toBe('error ECONNREFUSED');
    expect(() => n.kill9(process.pid)).toThrow(/refusing pid/);
    expect(() => n.pause(1)).toThrow(/refusing pid/);
  });
});

describe('no rule outlives the test', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-nemesis-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const root = resolve(__dirname, '../..');
  const script = (ending: string) => {
    const file = join(dir, `child-${Math.random().toString(36).slice(2)}.mts`);
    writeFileSync(
      file,
      `import { createNemesis } from ${JSON.stringify(resolve(__dirname, 'nemesis.ts'))};\n` +
        `const n = createNemesis();\n` +
        `await n.partition([['127.0.0.2', '127.0.0.3']]);\n` +
        `console.log('partitioned');\n${ending}\n`,
    );
    return file;
  };
  const run = (file: string) =>
    new Promise<{ out: string; code: number | null; signal: string | null }>((res) => {
      // node itself (not the tsx wrapper), so the signal it dies of is its own
      const p = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.on('exit', (code, signal) => res({ out, code, signal }));
    });

  it('on exit', { timeout: 20_000 }, async () => {
    const r = await run(script('process.exit(3);'));
    expect(r.out).toContain('partitioned');
    expect(r.code).toBe(3);
    expect(tableExists()).toBe(false);
  });

  it('on SIGINT', { timeout: 20_000 }, async () => {
    const r = await run(script("process.kill(process.pid, 'SIGINT'); setTimeout(() => {}, 5000);"));
    expect(r.out).toContain('partitioned');
    expect(r.signal).toBe('SIGINT');
    expect(tableExists()).toBe(false);
  });
});

describe('processes that cannot bind their source address (owners by uid)', () => {
  // Echo server on its address; on stdin, `<id> probe <host> <port> <ms>` opens a fresh unbound
  // connection (source 127.0.0.1), `<id> open <host> <port>` keeps one, `<id> send <ms>` pings on it.
  const CHILD = `
const net = require('net');
const [host] = process.argv.slice(1);
const srv = net.createServer((c) => c.pipe(c)).listen(0, host, () => console.log('port ' + srv.address().port));
let kept = null, waiting = null;
const reply = (id, r) => console.log(id + ' ' + r);
function ping(sock, ms, id, close) {
  let done = false;
  const finish = (r) => { if (done) return; done = true; clearTimeout(t); if (close) sock.destroy(); else waiting = null; reply(id, r); };
  const t = setTimeout(() => finish('timeout'), ms);
  if (close) sock.once('data', () => finish('ok')); else waiting = () => finish('ok');
  sock.on('error', (e) => finish('error ' + e.code));
  sock.write('ping\\n');
}
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const [id, cmd, a, b, c] = line.split(' ');
  if (cmd === 'probe') { const s = net.connect(Number(b), a); ping(s, Number(c), id, true); }
  if (cmd === 'open') { kept = net.connect(Number(b), a, () => reply(id, 'ok')); kept.on('data', () => waiting && waiting()); }
  if (cmd === 'send') ping(kept, Number(a), id, false);
});`;

  interface Peer {
    proc: ChildProcess;
    port: number;
    ask(cmd: string): Promise<string>;
  }
  const peers: ChildProcess[] = [];
  afterAll(() => {
    for (const p of peers) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  });

  async function startPeer(host: string, uid: number): Promise<Peer> {
    const proc = spawn(process.execPath, ['-e', CHILD, host], {
      uid,
      gid: uid,
      cwd: '/',
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    peers.push(proc);
    const waiters = new Map<string, (r: string) => void>();
    let port = 0;
    let ready: () => void;
    const started = new Promise<void>((r) => (ready = r));
    let buf = '';
    proc.stdout!.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const [id, ...rest] = line.split(' ');
        if (id === 'port') {
          port = Number(rest[0]);
          ready();
        } else waiters.get(id!)?.(rest.join(' '));
      }
    });
    await started;
    let n = 0;
    return {
      proc,
      port,
      ask: (cmd) =>
        new Promise((res) => {
          const id = String(++n);
          waiters.set(id, res);
          proc.stdin!.write(`${id} ${cmd}\n`);
        }),
    };
  }

  it('cuts new and established connections both ways, and only between the two', async () => {
    const A = '127.0.0.11';
    const B = '127.0.0.12';
    const n = make({ owners: { [A]: 60011, [B]: 60012 } });
    await n.track(); // before any connection, so the kept ones are tagged
    expect(tableExists()).toBe(true);
    const a = await startPeer(A, 60011);
    const b = await startPeer(B, 60012);
    expect(await a.ask(`open ${B} ${b.port}`)).toBe('ok');
    expect(await b.ask(`open ${A} ${a.port}`)).toBe('ok');
    expect(await a.ask(`probe ${B} ${b.port} 1000`)).toBe('ok');
    expect(await b.ask(`probe ${A} ${a.port} 1000`)).toBe('ok');
    expect(await a.ask('send 1000')).toBe('ok');
    expect(await b.ask('send 1000')).toBe('ok');

    await n.partition([[A, B]]);
    const [pa, pb, sa, sb] = await Promise.all([
      a.ask(`probe ${B} ${b.port} 400`),
      b.ask(`probe ${A} ${a.port} 400`),
      a.ask('send 400'),
      b.ask('send 400'),
    ]);
    expect({ pa, pb, sa, sb }).toEqual({
      pa: 'timeout',
      pb: 'timeout',
      sa: 'timeout',
      sb: 'timeout',
    });
    // the test itself (127.0.0.1, no owner) still reaches both
    expect(await roundTrip('127.0.0.1', A, a.port)).toBe('ok');
    expect(await roundTrip('127.0.0.1', B, b.port)).toBe('ok');

    await n.heal();
    expect(tableExists()).toBe(true); // only the tagging chain is left
    expect(await a.ask(`probe ${B} ${b.port} 1000`)).toBe('ok');
    expect(await b.ask(`probe ${A} ${a.port} 1000`)).toBe('ok');
    // the kept connections recover once TCP retransmits
    expect(await a.ask('send 5000')).toBe('ok');
    expect(await b.ask('send 5000')).toBe('ok');
    await n.dispose();
    expect(tableExists()).toBe(false);
  });

  it('refuses owners outside loopback', () => {
    expect(() => createNemesis({ owners: { '10.1.1.1': 60011 } })).toThrow(/refusing/);
  });
});
