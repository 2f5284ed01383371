/**
 * Hits fetched for their whole `_source` copy their bytes straight from the store's read buffer
 * (Shard.sourceBytesAt): the client's exact bytes for small, large and non-ASCII sources, with
 * and without routing, and the version the searched view holds once a later write (not yet
 * refreshed) replaced or deleted the stored one. Through an in-process node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';
import { RawJson } from '../../../../src/common/json.js';
import { encodeDoc, sourceBytesIfAt } from '../../../../src/store/doc-record.js';

type Dispatch = ReturnType<typeof createDispatcher>;
let d: Dispatch;
let close: () => Promise<void>;
let dir = '';

/** The sources as sent: odd spacing, key order and escapes must come back byte for byte. */
const sources = [
  '{ "n": 1,  "t": "small" }',
  `{"n":2,"t":"${'é€😀'.repeat(30_000)}"}`,
  `{"t":"${'x'.repeat(300_000)}","n":3}`,
  '{"n":4,"t":"\\u00e9 routed"}',
  '{"n":5}',
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-source-fetch-'));
  const node = await openNode({ dataPath: dir });
  d = createDispatcher(node.context);
  close = () => node.close();
  const r = await d('PUT', '/t?include_type_name=false', {
    settings: { number_of_shards: 1, refresh_interval: -1 },
    mappings: { properties: { n: { type: 'integer' }, t: { type: 'keyword', ignore_above: 20 } } },
  } as object);
  expect(r.status).toBe(200);
  const lines = sources.flatMap((s, i) => [
    JSON.stringify({ index: { _index: 't', _type: '_doc', _id: String(i + 1), ...(i === 3 ? { routing: 'r1' } : {}) } }), // prettier-ignore
    s,
  ]);
  const b = await d('POST', '/_bulk?refresh=true', lines.join('\n') + '\n');
  expect((b.body as { errors: boolean }).errors).toBe(false);
  // committed to the store: nothing pending, so fetch reads LMDB
  expect((await d('POST', '/t/_flush')).status).toBe(200);
});

afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

/** The hits' `_source` texts, sorted by n desc. */
async function texts(): Promise<Array<string | undefined>> {
  const r = await d('POST', '/t/_search', { size: 10, sort: [{ n: 'desc' }] });
  expect(r.status).toBe(200);
  const hits = (r.body as { hits: { hits: Array<{ _source?: unknown }> } }).hits.hits;
  return hits.map((h) => (h._source instanceof RawJson ? h._source.text : undefined));
}

describe('fetching whole sources', () => {
  it('returns the exact bytes sent, small, large, non-ASCII and routed', async () => {
    expect(await texts()).toEqual([...sources].reverse());
    // again, with the store's read buffer grown by the large ones
    expect(await texts()).toEqual([...sources].reverse());
  });

  it('returns the searched version after an unrefreshed update and delete', async () => {
    const u = await d('PUT', '/t/_doc/1', { n: 1, t: 'updated' } as object);
    expect(u.status).toBe(200);
    const del = await d('DELETE', '/t/_doc/5');
    expect(del.status).toBe(200);
    expect(await texts()).toEqual([...sources].reverse());
    await d('POST', '/t/_refresh');
    const after = await texts();
    expect(after).toHaveLength(4);
    expect(JSON.parse(after[3]!)).toEqual({ n: 1, t: 'updated' });
  });
});

describe('ids of every length and script, on every shard', () => {
  // up to the 512 bytes an id may have, non-ASCII ones among them: the store key of a read is
  // written into a buffer the shard reuses (Shard.readKey)
  const ids = [
    'a',
    'é'.repeat(256),
    '😀'.repeat(128),
    'x'.repeat(512),
    'ключ',
    'b'.repeat(63),
    'é',
  ];
  const srcOf = (id: string) => JSON.stringify({ id, n: id.length });

  it('fetches, gets and version-checks each by its own key', async () => {
    const c = await d('PUT', '/ids', { settings: { number_of_shards: 3, refresh_interval: -1 } });
    expect(c.status).toBe(200);
    for (const id of ids) {
      const r = await d('PUT', `/ids/_doc/${encodeURIComponent(id)}`, srcOf(id));
      expect(r.status).toBe(201);
    }
    expect((await d('POST', '/ids/_flush')).status).toBe(200);
    expect((await d('POST', '/ids/_refresh')).status).toBe(200);
    const r = await d('POST', '/ids/_search', { size: 20 });
    const hits = (r.body as { hits: { hits: Array<{ _id: string; _source: RawJson }> } }).hits.hits;
    expect(hits.map((h) => h._id).sort()).toEqual([...ids].sort());
    for (const h of hits) expect(h._source.text).toBe(srcOf(h._id));
    for (const id of ids) {
      // a create of an existing id conflicts: the write path finds the stored record
      const dup = await d('PUT', `/ids/_doc/${encodeURIComponent(id)}?op_type=create`, '{}');
      expect(dup.status).toBe(409);
      const u = await d('PUT', `/ids/_doc/${encodeURIComponent(id)}`, srcOf(id));
      expect((u.body as { _version: number })._version).toBe(2);
    }
  });
});

describe('sourceBytesIfAt', () => {
  const header = (seqNo: number, routing: string | null, tombstone = false) => ({
    tombstone,
    version: 1,
    seqNo,
    primaryTerm: 1,
    timestamp: 0,
    routing,
  });

  it('copies the source of a live record at its seq_no only', () => {
    const src = Buffer.from('{"a":"é"}');
    const rec = encodeDoc(header(7, null), src);
    const got = sourceBytesIfAt(rec, 7)!;
    expect(got.toString()).toBe('{"a":"é"}');
    // a copy: the reused read buffer may be overwritten by the next read
    rec.fill(0);
    expect(got.toString()).toBe('{"a":"é"}');
    expect(sourceBytesIfAt(encodeDoc(header(7, 'rté'), src), 7)!.toString()).toBe('{"a":"é"}');
    expect(sourceBytesIfAt(encodeDoc(header(7, null), src), 8)).toBeNull();
    expect(sourceBytesIfAt(encodeDoc(header(7, null, true), null), 7)).toBeNull();
  });

  it('reads only the record of a longer buffer', () => {
    const rec = encodeDoc(header(2 ** 33, 'r'), Buffer.from('{"x":1}'));
    const buf = Buffer.alloc(rec.length + 10, 0x41);
    rec.copy(buf);
    expect(sourceBytesIfAt(buf, 2 ** 33, rec.length)!.toString()).toBe('{"x":1}');
  });
});
