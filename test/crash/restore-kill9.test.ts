/**
 * A node killed with -9 while it restores a snapshot: restarted on the same data path, the index
 * is red (never a half-filled green one), deleting it works, and a fresh restore completes; a
 * completed restore stays green across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcessNode, type ProcessNode } from '../helpers/process-node.js';
import { call } from './harness/http.js';

const dataDir = mkdtempSync(join(tmpdir(), 'quarry-rkill-'));
const repoDir = mkdtempSync(join(tmpdir(), 'quarry-rkill-repo-'));
const started: ProcessNode[] = [];
afterAll(async () => {
  for (const n of started) await n.kill9().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(repoDir, { recursive: true, force: true });
});

const DOCS = 3000;
const start = async (env?: Record<string, string>) => {
  const n = await startProcessNode(dataDir, ['-E', `path.repo=${repoDir}`], env ? { env } : {});
  started.push(n);
  return n;
};
const health = async (url: string) =>
  (await call(url, 'GET', '/_cluster/health/big?timeout=1s')).json.status as string;

describe('kill -9 during a restore', () => {
  it('leaves the index red and deletable, then a fresh restore completes', async () => {
    const n1 = await start();
    await call(n1.url, 'PUT', '/big', { settings: { number_of_shards: 2, number_of_replicas: 0 } }); // prettier-ignore
    let body = '';
    for (let i = 0; i < DOCS; i++)
      body += JSON.stringify({ index: { _index: 'big', _type: '_doc', _id: String(i) } }) + '\n' + JSON.stringify({ n: i }) + '\n'; // prettier-ignore
    const bulk = await call(n1.url, 'POST', '/_bulk', body, 'application/x-ndjson');
    expect(bulk.json.errors).toBe(false);
    // ES's restore throttle, set low, so the kill lands mid-restore (about 30 KB at 16 KB/s)
    expect((await call(n1.url, 'PUT', '/_snapshot/repo', { type: 'fs', settings: { location: 'r', max_restore_bytes_per_sec: '16kb' } })).status).toBe(200); // prettier-ignore
    const snap = await call(n1.url, 'PUT', '/_snapshot/repo/s1?wait_for_completion=true', { indices: 'big' }); // prettier-ignore
    expect(snap.json.snapshot.state).toBe('SUCCESS');
    expect((await call(n1.url, 'DELETE', '/big')).status).toBe(200);

    const restoring = call(n1.url, 'POST', '/_snapshot/repo/s1/_restore?wait_for_completion=true').catch((e: Error) => e); // prettier-ignore
    let exists = false;
    for (let i = 0; i < 200 && !exists; i++) {
      exists = (await call(n1.url, 'HEAD', '/big').catch(() => ({ status: 0 }))).status === 200;
      if (!exists) await new Promise((r) => setTimeout(r, 10));
    }
    expect(exists).toBe(true);
    await new Promise((r) => setTimeout(r, 400)); // a batch or two in, far from the end
    await n1.kill9();
    expect(await restoring).toBeInstanceOf(Error); // it never answered

    const n2 = await start();
    // never a half-filled index served as if whole
    expect(await health(n2.url)).toBe('red');
    const cat = await call(n2.url, 'GET', '/_cat/indices/big?format=json');
    expect(cat.json[0].health).toBe('red');
    expect((await call(n2.url, 'DELETE', '/big')).status).toBe(200);
    const again = await call(n2.url, 'POST', '/_snapshot/repo/s1/_restore?wait_for_completion=true'); // prettier-ignore
    expect(again.status).toBe(200);
    expect(again.json.snapshot.shards).toEqual({ total: 2, failed: 0, successful: 2 });
    expect(await health(n2.url)).toBe('green');
    expect((await call(n2.url, 'GET', '/big/_count')).json.count).toBe(DOCS);
    await n2.stop();

    // the completed restore left nothing behind that a restart would take for an unfinished one
    const n3 = await start();
    expect(await health(n3.url)).toBe('green');
    expect((await call(n3.url, 'GET', '/big/_count')).json.count).toBe(DOCS);
    await n3.stop();
  }, 120_000);
});
