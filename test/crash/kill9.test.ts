/**
 * Durability: kill -9 the node right after a bulk was acknowledged, restart it on the same data
 * path, and find every acknowledged document with its version and sequence number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcessNode } from '../helpers/process-node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-kill9-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

describe('crash safety', () => {
  it('keeps every acknowledged document across kill -9', async () => {
    const n1 = await startProcessNode(dir);
    const acked = new Map<string, { version: number; seqNo: number; shardKey: string }>();
    for (let batch = 0; batch < 5; batch++) {
      let body = '';
      for (let i = 0; i < 200; i++) {
        const id = String(batch * 200 + i);
        body += JSON.stringify({ index: { _index: 'crash', _type: '_doc', _id: id } }) + '\n';
        body += JSON.stringify({ n: batch * 200 + i, text: `document ${id}` }) + '\n';
      }
      // A second write to a subset, so versions above 1 are checked too.
      for (let i = 0; i < 20; i++) {
        body +=
          JSON.stringify({
            index: { _index: 'crash', _type: '_doc', _id: String(batch * 200 + i) },
          }) + '\n';
        body += JSON.stringify({ n: -1 }) + '\n';
      }
      const r = await call(n1.url, 'POST', '/_bulk', body);
      expect(r.json.errors).toBe(false);
      for (const it of r.json.items) {
        const x = it.index;
        acked.set(x._id, { version: x._version, seqNo: x._seq_no, shardKey: '' });
      }
    }
    await n1.kill9();
    const n2 = await startProcessNode(dir);
    try {
      for (const [id, want] of acked) {
        const r = await call(n2.url, 'GET', `/crash/_doc/${id}`);
        expect(r.status, `doc ${id}`).toBe(200);
        expect(r.json._version).toBe(want.version);
        expect(r.json._seq_no).toBe(want.seqNo);
      }
      await call(n2.url, 'POST', '/crash/_refresh');
      const cat = await fetch(n2.url + '/_cat/count/crash');
      expect((await cat.text()).trim().split(/\s+/)[2]).toBe('1000');
      // New writes continue the sequence numbers instead of reusing them.
      const more = await call(n2.url, 'PUT', '/crash/_doc/0', '{"n":0}');
      expect(more.json._version).toBe(3);
    } finally {
      await n2.stop();
    }
  });
});

describe('crash safety of large bulks', () => {
  it('keeps, and replays into the search index, every document of large bulks', async () => {
    // bulks of over a thousand documents, a few written twice in the same bulk: after kill -9
    // every acknowledged record is there, and the sequence-number log replays every one of them
    const dir3 = mkdtempSync(join(tmpdir(), 'quarry-kill9-large-'));
    try {
      const n1 = await startProcessNode(dir3);
      const size = 1101;
      const acked = new Map<string, { version: number; seqNo: number }>();
      for (let batch = 0; batch < 3; batch++) {
        let body = '';
        for (let i = 0; i < size; i++) {
          const id = String(batch * size + i);
          body += JSON.stringify({ index: { _index: 'big', _type: '_doc', _id: id } }) + '\n';
          body += JSON.stringify({ n: batch * size + i, text: `document ${id}` }) + '\n';
        }
        // the bulk's first documents again, later in the same bulk
        for (let i = 0; i < 10; i++) {
          const id = String(batch * size + i);
          body += JSON.stringify({ index: { _index: 'big', _type: '_doc', _id: id } }) + '\n';
          body += JSON.stringify({ n: -1, text: 'again' }) + '\n';
        }
        const r = await call(n1.url, 'POST', '/_bulk', body);
        expect(r.json.errors).toBe(false);
        for (const it of r.json.items) acked.set(it.index._id, { version: it.index._version, seqNo: it.index._seq_no }); // prettier-ignore
      }
      await n1.kill9();
      const n2 = await startProcessNode(dir3);
      try {
        for (const [id, want] of acked) {
          const r = await call(n2.url, 'GET', `/big/_doc/${id}`);
          expect(r.status, `doc ${id}`).toBe(200);
          expect([r.json._version, r.json._seq_no]).toEqual([want.version, want.seqNo]);
        }
        await call(n2.url, 'POST', '/big/_refresh');
        const all = await call(n2.url, 'GET', '/big/_count');
        expect(all.json.count).toBe(3 * size);
        const again = await call(n2.url, 'GET', '/big/_count?q=text:again');
        expect(again.json.count).toBe(30);
      } finally {
        await n2.stop();
      }
    } finally {
      rmSync(dir3, { recursive: true, force: true });
    }
  });
});

describe('restart from a commit point', () => {
  it('loads flushed segments and replays later writes and deletes after kill -9', async () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'quarry-commit-'));
    try {
      const n1 = await startProcessNode(dir2);
      let body = '';
      for (let i = 0; i < 300; i++) {
        body += JSON.stringify({ index: { _index: 'c', _type: '_doc', _id: String(i) } }) + '\n';
        body += JSON.stringify({ n: i, tag: i % 2 ? 'odd' : 'even' }) + '\n';
      }
      expect((await call(n1.url, 'POST', '/_bulk', body)).json.errors).toBe(false);
      expect((await call(n1.url, 'POST', '/c/_flush')).status).toBe(200);
      // After the commit: updates, deletes and new documents, acknowledged, then a crash.
      let more = '';
      for (let i = 0; i < 20; i++)
        more += JSON.stringify({ delete: { _index: 'c', _type: '_doc', _id: String(i) } }) + '\n';
      for (let i = 20; i < 40; i++) {
        more += JSON.stringify({ index: { _index: 'c', _type: '_doc', _id: String(i) } }) + '\n';
        more += JSON.stringify({ n: i, tag: 'updated' }) + '\n';
      }
      for (let i = 300; i < 350; i++) {
        more += JSON.stringify({ index: { _index: 'c', _type: '_doc', _id: String(i) } }) + '\n';
        more += JSON.stringify({ n: i, tag: 'new' }) + '\n';
      }
      expect((await call(n1.url, 'POST', '/_bulk', more)).json.errors).toBe(false);
      await n1.kill9();
      const n2 = await startProcessNode(dir2);
      try {
        const count = await call(n2.url, 'GET', '/c/_count');
        expect(count.json.count).toBe(330);
        const tag = async (t: string) =>
          (await call(n2.url, 'GET', `/c/_count?q=tag:${t}`)).json.count as number;
        expect(await tag('updated')).toBe(20);
        expect(await tag('new')).toBe(50);
        expect(await tag('even')).toBe(130);
        expect((await call(n2.url, 'GET', '/c/_doc/5')).status).toBe(404);
        expect((await call(n2.url, 'GET', '/c/_doc/25')).json._version).toBe(2);
      } finally {
        await n2.stop();
      }
    } finally {
      rmSync(dir2, { recursive: true, force: true });
    }
  });
});
