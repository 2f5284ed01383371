/**
 * Every index has one LMDB document database, and the environment holds a fixed number of them
 * (maxDbs). Refused index creations used to leave theirs behind: after ~4,000 of them (the
 * 1,000,000-input fuzz run) every creation failed with a 500 MDB_DBS_FULL. A refused creation
 * now drops its database, and a start drops databases no index owns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode } from '../../src/node.js';
import { Store } from '../../src/store/store.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-dbs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(url: string, method: string, path: string, body?: unknown) {
  const r = await fetch(url + path, {
    method,
    ...(body !== undefined
      ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  return { status: r.status, json: (await r.json()) as any };
}

describe('index document databases', () => {
  it('a refused index creation leaves no database behind', async () => {
    const node = await startNode({ dataPath: dir, port: 0 });
    try {
      const databases = () => node.context.store.docDatabases().length;
      expect((await call(node.url, 'PUT', '/kept/_doc/1?refresh=true', { n: 1 })).status).toBe(201);
      const before = databases();
      for (let i = 0; i < 20; i++) {
        const m = await call(node.url, 'PUT', '/refused', {
          mappings: { _doc: { properties: 5 } },
        });
        expect(m.status).toBe(400);
        const a = await call(node.url, 'PUT', '/refused', {
          aliases: { al: { filter: { term: 'x' } } },
        });
        expect(a.status).toBe(400);
        expect((await call(node.url, 'PUT', '/gone', {})).status).toBe(200);
        expect((await call(node.url, 'DELETE', '/gone')).status).toBe(200);
      }
      await new Promise((r) => setTimeout(r, 100)); // drops are queued write transactions
      expect(databases()).toBe(before);
    } finally {
      await node.close();
    }
  });

  it('a start drops the databases no index owns, and keeps the indices', async () => {
    const store = Store.open(dir);
    const owned = store.docDatabases();
    for (const uuid of ['orphan-1', 'orphan-2'])
      await store.putDoc(store.docs(uuid), Buffer.from('k'), Buffer.from('v'));
    expect(store.docDatabases()).toHaveLength(owned.length + 2);
    await store.close();
    const node = await startNode({ dataPath: dir, port: 0 });
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(node.context.store.docDatabases().sort()).toEqual(owned.sort());
      expect((await call(node.url, 'GET', '/kept/_doc/1')).json._source).toEqual({ n: 1 });
    } finally {
      await node.close();
    }
  });
});
