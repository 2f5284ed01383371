/**
 * Create-index bodies and names as ES 6.8 takes them: settings at the top level of the body when
 * it has no `settings`, `mappings` or `aliases` key, and date-math names (`<logs-{now/d}>`) on
 * create, index, bulk and search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.destroy();
});

/** Today's name as ES's default date-math format (uuuu.MM.dd, UTC) writes it. */
function today(prefix: string): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${prefix}-${d.getUTCFullYear()}.${p(d.getUTCMonth() + 1)}.${p(d.getUTCDate())}`;
}

const enc = (name: string) => encodeURIComponent(name);

describe('create index', () => {
  it('takes settings at the top level of the body', async () => {
    const r = await node.req('PUT', '/top', { number_of_shards: 2, 'index.number_of_replicas': 0 });
    expect(r.json).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'top' });
    const s = await node.req('GET', '/top/_settings?flat_settings=true');
    expect(s.json.top.settings['index.number_of_shards']).toBe('2');
    expect(s.json.top.settings['index.number_of_replicas']).toBe('0');
    const n = await node.req('PUT', '/nested-top', { index: { number_of_shards: 3 } });
    expect(n.status).toBe(200);
    const ns = await node.req('GET', '/nested-top/_settings?flat_settings=true');
    expect(ns.json['nested-top'].settings['index.number_of_shards']).toBe('3');
  });

  it('still refuses an unknown key beside settings', async () => {
    const r = await node.req('PUT', '/mixed', { settings: {}, number_of_shards: 2 });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('parse_exception');
    expect((await node.req('HEAD', '/mixed')).status).toBe(404);
  });

  it('resolves a date-math name and keeps the name as given', async () => {
    const r = await node.req('PUT', `/${enc('<logs-{now/d}>')}`);
    expect(r.status).toBe(200);
    expect(r.json.index).toBe(today('logs'));
    const s = await node.req('GET', `/${today('logs')}/_settings?flat_settings=true`);
    expect(s.json[today('logs')].settings['index.provided_name']).toBe('<logs-{now/d}>');
  });
});

describe('date-math names on writes and searches', () => {
  it('index, bulk and search go to the index of the day', async () => {
    const put = await node.req('PUT', `/${enc('<w-{now/d}>')}/_doc/1?refresh=true`, { a: 1 });
    expect(put.status).toBe(201);
    expect(put.json._index).toBe(today('w'));
    const bulk = await node.req(
      'POST',
      '/_bulk?refresh=true',
      '{"index":{"_index":"<w-{now/d}>","_type":"_doc","_id":"2"}}\n{"a":2}\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(bulk.json.errors).toBe(false);
    expect(bulk.json.items[0].index._index).toBe(today('w'));
    const search = await node.req('GET', `/${enc('<w-{now/d}>')}/_search`);
    expect(search.json.hits.total).toBe(2);
    const cat = await node.req('GET', '/_cat/indices?h=index&s=index');
    expect(cat.text).not.toContain('<');
  });
});
