/**
 * The LMDB map grows with the data: a node started with a 256kb initial map
 * (`store.lmdb.map_size`) takes ~16mb of documents (lmdb-js's LMDB doubles the map when a write
 * needs pages past its end), flushes commit points bigger than the initial map, and restarts
 * with everything. A bad value for the setting stops the start with ES's size-parsing message.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode } from '../../src/node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-mapsize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings = { 'store.lmdb.map_size': '256kb' };

const ndjson = (path: string) =>
  /\/_(bulk|msearch)\b/.test(path) ? 'application/x-ndjson' : 'application/json';

async function call(url: string, method: string, path: string, body?: string) {
  const r = await fetch(url + path, {
    method,
    // NDJSON only where ES reads a stream (RestController answers 406 elsewhere)
    ...(body !== undefined ? { body, headers: { 'content-type': ndjson(path) } } : {}),
  });
  return { status: r.status, json: (await r.json()) as any };
}

describe('LMDB map size', () => {
  it('grows past a small initial map as documents are written', async () => {
    const node = await startNode({ dataPath: dir, port: 0, settings });
    // The environment's own view of its map (not part of Store's API).
    const mapSize = () =>
      (
        node.context.store as unknown as { root: { getStats(): { mapSize: number } } }
      ).root.getStats().mapSize;
    expect(mapSize()).toBeLessThanOrEqual(1024 * 1024);
    const filler = 'x'.repeat(2000);
    try {
      for (let batch = 0; batch < 8; batch++) {
        let body = '';
        for (let i = 0; i < 1000; i++) {
          const id = batch * 1000 + i;
          body += `{"index":{"_index":"big","_type":"_doc","_id":"${id}"}}\n`;
          body += JSON.stringify({ n: id, text: `${filler} ${id}` }) + '\n';
        }
        const r = await call(node.url, 'POST', '/_bulk', body);
        expect(r.status).toBe(200);
        expect(r.json.errors).toBe(false);
      }
      expect((await call(node.url, 'POST', '/big/_flush')).status).toBe(200);
      expect((await call(node.url, 'GET', '/big/_count')).json.count).toBe(8000);
      expect(mapSize()).toBeGreaterThan(16 * 1024 * 1024);
    } finally {
      await node.close();
    }
    expect(statSync(join(dir, 'quarry.mdb')).size).toBeGreaterThan(16 * 1024 * 1024);

    const again = await startNode({ dataPath: dir, port: 0, settings });
    try {
      expect((await call(again.url, 'GET', '/big/_count')).json.count).toBe(8000);
      const doc = await call(again.url, 'GET', '/big/_doc/7999');
      expect(doc.json._source.n).toBe(7999);
      const put = await call(again.url, 'PUT', '/big/_doc/8000?refresh=true', '{"n":8000}');
      expect(put.status).toBe(201);
    } finally {
      await again.close();
    }
  });

  it('rejects an unparsable map size', async () => {
    const other = mkdtempSync(join(tmpdir(), 'quarry-mapsize-bad-'));
    try {
      await expect(
        startNode({ dataPath: other, port: 0, settings: { 'store.lmdb.map_size': 'lots' } }),
      ).rejects.toThrow('failed to parse setting [store.lmdb.map_size] with value [lots]');
      // The failed start released the data path.
      const n = await startNode({ dataPath: other, port: 0 });
      await n.close();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
