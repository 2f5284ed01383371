/**
 * `GET /_quarry/copies/{index}` (Quarry-specific, read-only): a lone node lists its copy of every
 * shard with each document and tombstone, `_version`, `_seq_no` and `_primary_term`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.destroy();
});

it('lists every document and tombstone of each local shard copy, and changes nothing', async () => {
  await node.req('PUT', '/c', { settings: { number_of_shards: 2 } });
  for (const id of ['a', 'b', 'c', 'd']) await node.req('PUT', `/c/_doc/${id}`, { n: id });
  await node.req('PUT', '/c/_doc/a', { n: 'again' });
  await node.req('DELETE', '/c/_doc/b');
  const r = await node.req('GET', '/_quarry/copies/c');
  expect(r.status).toBe(200);
  expect(r.json.index).toBe('c');
  expect(r.json.shards.map((s: { shard: number }) => s.shard)).toEqual([0, 1]);
  const docs = r.json.shards.flatMap((s: { docs: unknown[] }) => s.docs);
  const byId = Object.fromEntries(docs.map((d: { _id: string }) => [d._id, d]));
  expect(Object.keys(byId).sort()).toEqual(['a', 'b', 'c', 'd']);
  expect(byId.a).toMatchObject({ _version: 2, _primary_term: 1, deleted: false });
  expect(byId.b).toMatchObject({ _version: 2, deleted: true });
  const get = await node.req('GET', '/c/_doc/a');
  expect(byId.a._seq_no).toBe(get.json._seq_no);
  for (const s of r.json.shards) {
    expect(s).toMatchObject({ primary: true, state: 'STARTED', primary_term: 1 });
    expect(s.max_seq_no).toBe(Math.max(...s.docs.map((d: { _seq_no: number }) => d._seq_no)));
  }
  expect(await node.req('GET', '/_quarry/copies/c')).toMatchObject({ json: r.json });
  expect((await node.req('GET', '/_quarry/copies/missing')).json.error.type).toBe(
    'index_not_found_exception',
  );
});
