/**
 * `_shrink` and `_split` on a real lone node: every document lands in the target shard ES's
 * routing gives it, keeps its version, the target takes the source's mappings (not a template's)
 * and its settings as ES copies them, and ES's refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardForRouting } from '../../src/common/murmur3.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const IDS = Array.from({ length: 40 }, (_, i) => `d${i}`);

/** The ids each shard of `index` holds (as an explained search names each hit's shard). */
const idsByShard = async (index: string, shards: number) => {
  const out: string[][] = Array.from({ length: shards }, () => []);
  const r = await node.req('GET', `/${index}/_search?explain=true&size=100`);
  for (const h of r.json.hits.hits as Array<{ _id: string; _shard: string }>)
    out[Number(/\[(\d+)\]$/.exec(h._shard)![1])]!.push(h._id);
  return out.map((ids) => ids.sort());
};

const expected = (shards: number, routingShards: number) => {
  const out: string[][] = Array.from({ length: shards }, () => []);
  for (const id of IDS) out[shardForRouting(id, shards, routingShards)]!.push(id);
  return out.map((ids) => ids.sort());
};

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/src', {
    settings: { number_of_shards: 4, number_of_replicas: 0, number_of_routing_shards: 8 },
    mappings: { _doc: { properties: { n: { type: 'long' }, t: { type: 'keyword' } } } },
  });
  const lines = IDS.map((id) => `{"index":{"_id":"${id}"}}\n{"n":1,"t":"${id}"}\n`).join('');
  await node.req('POST', '/src/_doc/_bulk?refresh=true', lines, {
    'content-type': 'application/x-ndjson',
  });
  // a second version of one document
  await node.req('PUT', '/src/_doc/d3?refresh=true', { n: 2, t: 'd3' });
  await node.req('PUT', '/_template/tpl', {
    index_patterns: ['tgt*'],
    mappings: { _doc: { properties: { t: { type: 'text' } } } },
  });
});
afterAll(() => node.destroy());

describe('resize', () => {
  it('refuses a source that is not write-blocked', async () => {
    const r = await node.req('POST', '/src/_shrink/tgt-open?copy_settings=true');
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('illegal_state_exception');
    expect(r.json.error.reason).toBe(
      'index src must be read-only to resize index. use "index.blocks.write=true"',
    );
    await node.req('PUT', '/src/_settings', { 'index.blocks.write': true });
  });

  it('shrinks into the shards routing gives each document, versions kept', async () => {
    const r = await node.req('POST', '/src/_shrink/tgt-shrunk', {
      settings: { 'index.number_of_shards': 2, 'index.number_of_replicas': 0 },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'tgt-shrunk' });
    expect(r.headers.get('warning')).toContain('resize operations without copying settings');
    expect(await idsByShard('tgt-shrunk', 2)).toEqual(expected(2, 8));
    const d3 = await node.req('GET', '/tgt-shrunk/_doc/d3');
    expect(d3.json._version).toBe(2);
    expect(d3.json._source).toEqual({ n: 2, t: 'd3' });
    const m = await node.req('GET', '/tgt-shrunk/_mapping');
    expect(m.json['tgt-shrunk'].mappings._doc.properties.t).toEqual({ type: 'keyword' });
    const s = (await node.req('GET', '/tgt-shrunk/_settings?flat_settings=true')).json['tgt-shrunk']
      .settings;
    expect(s['index.resize.source.name']).toBe('src');
    expect(s['index.blocks.write']).toBeUndefined();
  });

  it('splits by the routing shards, copying settings (the write block last)', async () => {
    const r = await node.req('PUT', '/src/_split/tgt-split?copy_settings=true', {
      settings: { 'index.number_of_shards': 8 },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('warning')).toBeNull();
    expect(await idsByShard('tgt-split', 8)).toEqual(expected(8, 8));
    const s = (await node.req('GET', '/tgt-split/_settings?flat_settings=true')).json['tgt-split']
      .settings;
    expect(s['index.blocks.write']).toBe('true');
    expect(s['index.number_of_replicas']).toBe('0');
    const c = await node.req('GET', '/tgt-split/_count');
    expect(c.json.count).toBe(IDS.length);
  });

  it("answers ES's refusals", async () => {
    const three = await node.req('POST', '/src/_split/tgt-3', {
      settings: { 'index.number_of_shards': 12 },
    });
    expect(three.json.error.type).toBe('illegal_state_exception');
    expect(three.json.error.reason).toBe(
      'the number of routing shards [8] must be a multiple of the target shards [12]',
    );
    const no = await node.req('POST', '/src/_shrink/tgt-x?copy_settings=false');
    expect(no.json.error.reason).toBe(
      'parameter [copy_settings] can not be explicitly set to [false]',
    );
    const exists = await node.req('POST', '/src/_shrink/tgt-shrunk');
    expect(exists.json.error.type).toBe('resource_already_exists_exception');
    const missing = await node.req('POST', '/nope/_shrink/tgt-y');
    expect(missing.status).toBe(404);
    const mappings = await node.req('POST', '/src/_shrink/tgt-z', { mappings: {} });
    expect(mappings.json.error.type).toBe('x_content_parse_exception');
  });
});
