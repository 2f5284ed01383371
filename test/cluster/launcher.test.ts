/**
 * `npm run cluster`: the launcher starts a real etcd and real nodes on 127.0.0.k, prints where
 * they are, and stops every process on Ctrl-C (SIGINT).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'quarry-cluster-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Ports unlikely to be taken: every run picks its own. */
const base = 20000 + Math.floor(Math.random() * 20000);

describe('npm run cluster', () => {
  it('starts etcd and two nodes on 127.0.0.1 and 127.0.0.2, and stops them on SIGINT', async () => {
    const args = ['--nodes', '2', '--data', dir, '--http-port', String(base)];
    args.push('--transport-port', String(base + 1), '--etcd-port', String(base + 2));
    const child = spawn(process.execPath, [join(root, 'bin/quarry-cluster'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    try {
      const until = Date.now() + 40_000;
      while (!out.includes('Ctrl-C stops it') && Date.now() < until) {
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(out, out).toContain(
        `node-2  http://127.0.0.2:${base}  transport 127.0.0.2:${base + 1}`,
      );
      for (const host of ['127.0.0.1', '127.0.0.2']) {
        const r = await fetch(`http://${host}:${base}/`);
        expect(r.status).toBe(200);
        expect(((await r.json()) as { name: string }).name).toBe(
          host === '127.0.0.1' ? 'node-1' : 'node-2',
        );
      }
      const etcd = await fetch(`http://127.0.0.1:${base + 2}/health`);
      expect(etcd.status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(out).toContain('cluster stopped');
    await expect(fetch(`http://127.0.0.2:${base}/`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${base + 2}/health`)).rejects.toThrow();
  }, 60_000);
});
