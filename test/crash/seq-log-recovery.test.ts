/**
 * Restart from a commit point reads only the records written after it (through the store's
 * sequence-number log), not every record header: kill -9 after updates and deletes before and
 * after a flush, restart in process, and find the same counts, versions, seq_nos and max_seq_no.
 * A commit of an older version (no live count, no log) still opens by scanning, once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcessNode } from '../helpers/process-node.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { Store } from '../../src/store/store.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-seqlog-'));
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

const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'k', 'l'];

/** What a restart must reproduce: the count, each document's version and seq_no, max_seq_no. */
async function state(url: string) {
  await call(url, 'POST', '/logs/_refresh');
  const count = (await call(url, 'GET', '/logs/_count')).json.count as number;
  const docs: Record<string, unknown> = {};
  for (const id of ids) {
    const r = await call(url, 'GET', `/logs/_doc/${id}`);
    docs[id] = r.status === 200 ? [r.json._version, r.json._seq_no, r.json._source.n] : r.status;
  }
  const stats = await call(url, 'GET', '/logs/_stats?level=shards');
  const maxSeqNo = stats.json.indices.logs.shards['0'][0].seq_no.max_seq_no as number;
  return { count, docs, maxSeqNo };
}

const replayed = async (n: TestNode) =>
  (await n.req('GET', '/logs/_recovery')).json.logs.shards[0].translog.recovered as number;

describe('restart through the sequence-number log', () => {
  it('replays only the records after the commit, exactly', async () => {
    const n1 = await startProcessNode(dir);
    let before: Awaited<ReturnType<typeof state>>;
    try {
      const u = n1.url;
      await call(u, 'PUT', '/logs', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
      for (const [i, id] of ids.slice(0, 8).entries())
        await call(u, 'PUT', `/logs/_doc/${id}`, { n: i });
      await call(u, 'PUT', '/logs/_doc/b', { n: 100 });
      await call(u, 'PUT', '/logs/_doc/c', { n: 101 });
      await call(u, 'DELETE', '/logs/_doc/d');
      expect((await call(u, 'POST', '/logs/_flush')).status).toBe(200);
      // after the commit: updates and deletes of committed docs, a doc added, updated, deleted
      await call(u, 'PUT', '/logs/_doc/e', { n: 200 });
      await call(u, 'DELETE', '/logs/_doc/f');
      await call(u, 'PUT', '/logs/_doc/k', { n: 201 });
      await call(u, 'PUT', '/logs/_doc/k', { n: 202 });
      await call(u, 'PUT', '/logs/_doc/l', { n: 203 });
      await call(u, 'DELETE', '/logs/_doc/l');
      await call(u, 'PUT', '/logs/_doc/a', { n: 204 });
      await call(u, 'DELETE', '/logs/_doc/b');
      await call(u, 'PUT', '/logs/_doc/d', { n: 205 }); // re-created after its pre-commit delete
      before = await state(u);
    } finally {
      await n1.kill9();
    }
    expect(before.count).toBe(7); // a c d e g h k
    expect(before.maxSeqNo).toBe(19);

    let n2 = await startTestNode(dir);
    try {
      expect(n2.context.store.docHeadersRead).toBe(0);
      // e f k l a b d: one record each after the commit (k and l superseded within the log)
      expect(await replayed(n2)).toBe(7);
      expect(await state(n2.url)).toEqual(before);
      // another write after the restart gets the next seq_no
      const w = await n2.req('PUT', '/logs/_doc/g', { n: 300 });
      expect(w.json._seq_no).toBe(20);
      expect(w.json._version).toBe(2);
    } finally {
      await n2.close(); // graceful: writes a commit point
    }
    const after = await (async () => {
      n2 = await startTestNode(dir);
      try {
        expect(n2.context.store.docHeadersRead).toBe(0);
        expect(await replayed(n2)).toBe(0);
        return await state(n2.url);
      } finally {
        await n2.close();
      }
    })();
    expect(after.count).toBe(7);
    expect(after.maxSeqNo).toBe(20);
    expect(after.docs['g']).toEqual([2, 20, 300]);

    // An older version's commit point: no live count (and no log). It is read by scanning, once.
    const store = Store.open(dir);
    const key = store.metaKeys('commit:')[0]!;
    const { liveDocs, ...old } = store.getMeta<Record<string, unknown>>(key)!;
    expect(liveDocs).toBe(7);
    await store.putMeta(key, old);
    await store.close();
    n2 = await startTestNode(dir);
    try {
      expect(n2.context.store.docHeadersRead).toBe(10); // every record: 7 docs, 3 tombstones
      expect(await state(n2.url)).toEqual(after);
      await n2.req('POST', '/logs/_flush?force=true');
    } finally {
      await n2.close();
    }
    n2 = await startTestNode(dir);
    try {
      expect(n2.context.store.docHeadersRead).toBe(0);
      expect(await state(n2.url)).toEqual(after);
    } finally {
      await n2.close();
    }
  }, 60_000);
});
