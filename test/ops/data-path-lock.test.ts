/**
 * One node per data path: a second `bin/quarry` on a path in use exits 1 with a message naming
 * the holder; a lock left by a killed node is taken over; in one process a second open of the
 * same path is refused too, and a lock of a former process with our pid (container restarts)
 * counts as stale.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNode } from '../../src/node.js';
import { DataPathLock } from '../../src/store/data-path-lock.js';
import { spawnQuarry, startChildNode } from './child-node.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'quarry-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('data path lock', () => {
  it('refuses a second node on the same path and takes over a dead node’s lock', async () => {
    const dir = tmp();
    const first = await startChildNode(dir);
    const owner = JSON.parse(readFileSync(join(dir, 'node.lock'), 'utf8'));
    expect(owner.pid).toBe(first.child.pid);

    const second = spawnQuarry(['--port', '0', '--data', dir]);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(
      `[ERROR][o.e.b.Bootstrap] [-] node failed to start: failed to obtain node lock on data path [${dir}]: it is in use by another node (pid [${first.child.pid}] on host [${hostname()}], lock file [${join(dir, 'node.lock')}])`,
    );
    expect(second.stdout()).not.toContain('started');
    // The first node is unaffected.
    expect((await fetch(first.url + '/')).status).toBe(200);

    first.signal('SIGKILL');
    await first.exited;
    // The dead node's lock is still there, and is taken over.
    expect(JSON.parse(readFileSync(join(dir, 'node.lock'), 'utf8')).pid).toBe(first.child.pid);
    const third = await startChildNode(dir);
    try {
      expect(JSON.parse(readFileSync(join(dir, 'node.lock'), 'utf8')).pid).toBe(third.child.pid);
      expect((await fetch(third.url + '/')).status).toBe(200);
    } finally {
      third.signal('SIGTERM');
      expect(await third.exited).toBe(0);
    }
  });

  it('refuses a second open in the same process and frees the path on close', async () => {
    const dir = tmp();
    const a = await openNode({ dataPath: dir });
    await expect(openNode({ dataPath: dir })).rejects.toThrow(
      /failed to obtain node lock on data path .* it is in use by another node \(pid \[\d+\]/,
    );
    await a.close();
    const b = await openNode({ dataPath: dir });
    await b.close();
  });

  it('treats a lock with our own pid from a former process as stale', () => {
    const dir = tmp();
    const stale = { pid: process.pid, host: hostname(), procStart: '1', bootId: null, nonce: 'x' };
    writeFileSync(join(dir, 'node.lock'), JSON.stringify(stale));
    const lock = DataPathLock.acquire(dir);
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).nonce).not.toBe('x');
    lock.release();
  });

  it('keeps a lock whose process is alive', () => {
    const dir = tmp();
    // The parent of this test process is alive: a lock naming it must hold.
    const other = {
      pid: process.ppid,
      host: hostname(),
      procStart: null,
      bootId: null,
      nonce: 'y',
    };
    writeFileSync(join(dir, 'node.lock'), JSON.stringify(other));
    expect(() => DataPathLock.acquire(dir)).toThrow(`pid [${process.ppid}]`);
  });
});
