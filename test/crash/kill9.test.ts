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

async function call(url: string, method: string, path: string, body?: string) {
  const r = await fetch(url + path, {
    method,
    ...(body !== undefined ? { body, headers: { 'content-type': 'application/x-ndjson' } } : {}),
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
