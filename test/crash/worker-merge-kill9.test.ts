/**
 * Merges a build worker writes into the store itself (QUARRY_WORKER_WRITES_FROM=1 sends every
 * worker merge that way, QUARRY_BLOB_CHUNK_BYTES=512 writes each in several chunks): kill -9
 * while merges are written and named by commits, restart, and find every acknowledged document;
 * a commit point never names a missing blob or chunk, and the blobs and chunks a merge wrote
 * that no commit named are gone after the restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, expect, it } from 'vitest';
import { chunkLengths } from '../../src/search/index/segment-codec.js';
import { startProcessNode } from '../helpers/process-node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-worker-merge-kill9-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(url: string, method: string, path: string, body?: string) {
  const ct = path.includes('_bulk') ? 'application/x-ndjson' : 'application/json';
  const r = await fetch(url + path, {
    method,
    ...(body !== undefined ? { body, headers: { 'content-type': ct } } : {}),
  });
  return { status: r.status, json: (await r.json()) as any };
}

/**
 * The blob keys of the data path, the keys its commit points name, and the chunks those blobs
 * are written in (read-only, beside the node).
 */
function storeKeys(): { blobs: string[]; named: Set<string>; chunks: string[] } {
  const seg = open({ path: join(dir, 'segments.mdb'), maxDbs: 4, readOnly: true });
  const meta = open({ path: join(dir, 'quarry.mdb'), maxDbs: 4096, readOnly: true });
  try {
    const db = seg.openDB<Buffer, string>({ name: 'segments', encoding: 'binary' });
    const blobs = [...db.getKeys()] as string[];
    const named = new Set<string>();
    const m = meta.openDB<{ segments: Array<{ key: string }> }, string>({ name: 'meta', encoding: 'json' }); // prettier-ignore
    for (const { value } of m.getRange({ start: 'commit:', end: 'commit;' }))
      for (const s of value.segments) named.add(s.key);
    const chunks: string[] = [];
    for (const k of named) {
      const head = db.getBinary(k);
      const n = head ? (chunkLengths(head)?.length ?? 0) : 0;
      for (let i = 0; i < n; i++) chunks.push(`${k}#${i}`);
    }
    return { blobs, named, chunks };
  } finally {
    void seg.close();
    void meta.close();
  }
}

const env = { QUARRY_WORKER_WRITES_FROM: '1', QUARRY_BLOB_CHUNK_BYTES: '512' };

it(
  'loses no acknowledged write and leaves no orphan when killed while worker merges are written',
  { timeout: 240_000 },
  async () => {
    const n1 = await startProcessNode(dir, [], { env });
    let docs = 0;
    const bulk = async (url: string, refresh: boolean) => {
      let body = '';
      for (let i = 0; i < 50; i++, docs++) {
        body +=
          JSON.stringify({ index: { _index: 'wm', _type: '_doc', _id: String(docs) } }) + '\n';
        body += JSON.stringify({ n: docs, text: `document ${docs} of the merge test` }) + '\n';
      }
      const r = await call(url, 'POST', `/_bulk${refresh ? '?refresh=true' : ''}`, body);
      expect(r.json.errors).toBe(false);
    };
    try {
      expect((await call(n1.url, 'PUT', '/wm', JSON.stringify({ settings: { number_of_shards: 1, number_of_replicas: 0 } }))).status).toBe(200); // prettier-ignore
      // many small refreshed segments: the merge policy merges them on the worker
      for (let r = 0; r < 30; r++) await bulk(n1.url, true);
      await new Promise((res) => setTimeout(res, 1500));
      await call(n1.url, 'POST', '/wm/_flush');
      for (let r = 0; r < 25; r++) await bulk(n1.url, true);
      await new Promise((res) => setTimeout(res, 1000));
      await call(n1.url, 'POST', '/wm/_flush');
      // more merges under way at the kill
      for (let r = 0; r < 14; r++) await bulk(n1.url, true);
      const { named, chunks } = storeKeys();
      // the commits name blobs the worker wrote, in chunks (the path under test was taken)
      expect([...named].some((k) => /:m/.test(k))).toBe(true);
      expect(chunks.length).toBeGreaterThan(1);
    } finally {
      await n1.kill9();
    }
    const before = storeKeys();
    for (const k of before.named) expect(before.blobs, `commit names ${k}`).toContain(k);
    for (const k of before.chunks) expect(before.blobs, `a named blob's chunk ${k}`).toContain(k);

    const n2 = await startProcessNode(dir, [], { env });
    try {
      await call(n2.url, 'POST', '/wm/_refresh');
      const c = await call(n2.url, 'GET', '/wm/_count');
      expect(c.json.count).toBe(docs);
      for (const id of [0, 777, docs - 1]) {
        const g = await call(n2.url, 'GET', `/wm/_doc/${id}`);
        expect(g.json._source.n).toBe(id);
      }
      const s = await call(n2.url, 'POST', '/wm/_search', JSON.stringify({ query: { match: { text: 'document' } }, size: 0 })); // prettier-ignore
      expect(s.json.hits.total).toBe(docs);
      // orphans of the killed run (written, never named) are gone
      await new Promise((res) => setTimeout(res, 500));
      const after = storeKeys();
      const owner = (k: string) => k.replace(/#\d+$/, '');
      const orphans = after.blobs.filter((k) => /:m/.test(k) && !k.endsWith(':live') && !after.named.has(owner(k))); // prettier-ignore
      expect(orphans).toEqual([]);
      const chunks = new Set(after.chunks);
      expect(after.blobs.filter((k) => k.includes('#') && !chunks.has(k))).toEqual([]);
    } finally {
      await n2.stop();
    }
  },
);
