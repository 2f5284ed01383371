/**
 * The spec's walkthrough (sections 4.1–4.3) over HTTP: catalog tables, index and type operations,
 * document operations, and loading the 1000-account bank sample through `_bulk`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

const accounts = readFileSync(resolve(__dirname, '../../../shared/conformance/data/accounts.json'));

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.destroy();
});

describe('spec 4.1–4.3 walkthrough', () => {
  it('reports cluster health as a table with the listed columns', async () => {
    const r = await node.req('GET', '/_cat/health?v');
    expect(r.status).toBe(200);
    const [header, row] = r.text.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual([
      'epoch',
      'timestamp',
      'cluster',
      'status',
      'node.total',
      'node.data',
      'shards',
      'pri',
      'relo',
      'init',
      'unassign',
      'pending_tasks',
      'max_task_wait_time',
      'active_shards_percent',
    ]);
    expect(row).toMatch(
      /^\d+ \d\d:\d\d:\d\d +elasticsearch green +1 +1 +0 +0 +0 +0 +0 +0 +- +100\.0%$/,
    );
  });

  it('lists the node', async () => {
    const r = await node.req('GET', '/_cat/nodes?v');
    const [header, row] = r.text.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual([
      'ip',
      'heap.percent',
      'ram.percent',
      'cpu',
      'load_1m',
      'load_5m',
      'load_15m',
      'node.role',
      'master',
      'name',
    ]);
    expect(row).toMatch(/^127\.0\.0\.1 .* mdi +\* +\S+$/);
  });

  it('creates, lists and deletes an index (5 shards, 1 replica, yellow)', async () => {
    expect((await node.req('PUT', '/customer?pretty')).json).toEqual({
      acknowledged: true,
      shards_acknowledged: true,
      index: 'customer',
    });
    const r = await node.req('GET', '/_cat/indices?v');
    const lines = r.text.trimEnd().split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual([
      'health',
      'status',
      'index',
      'uuid',
      'pri',
      'rep',
      'docs.count',
      'docs.deleted',
      'store.size',
      'pri.store.size',
    ]);
    expect(lines[1]).toMatch(
      /^yellow open +customer +\S{22} +5 +1 +0 +0 +\d+(\.\d)?[kmg]?b +\d+(\.\d)?[kmg]?b$/,
    );
    const health = await node.req('GET', '/_cluster/health');
    expect(health.json.status).toBe('yellow');
    expect((await node.req('DELETE', '/customer')).json).toEqual({ acknowledged: true });
    expect((await node.req('GET', '/_cat/indices')).text).toBe('');
  });

  it('indexes, gets, updates and deletes a document', async () => {
    const put = await node.req('PUT', '/customer/_doc/1?pretty', { name: 'John Doe' });
    expect(put.status).toBe(201);
    expect(put.json).toMatchObject({
      _index: 'customer',
      _type: '_doc',
      _id: '1',
      _version: 1,
      result: 'created',
      _shards: { total: 2, successful: 1, failed: 0 },
      _seq_no: 0,
      _primary_term: 1,
    });
    const get = await node.req('GET', '/customer/_doc/1');
    expect(get.json).toEqual({
      _index: 'customer',
      _type: '_doc',
      _id: '1',
      _version: 1,
      _seq_no: 0,
      _primary_term: 1,
      found: true,
      _source: { name: 'John Doe' },
    });
    const again = await node.req('PUT', '/customer/_doc/1', { name: 'Jane Doe' });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ _version: 2, result: 'updated', _seq_no: 1 });
    const upd = await node.req('POST', '/customer/_doc/1/_update', {
      doc: { name: 'Jane Doe', age: 20 },
    });
    expect(upd.json).toMatchObject({ _version: 3, result: 'updated' });
    expect((await node.req('GET', '/customer/_doc/1')).json._source).toEqual({
      name: 'Jane Doe',
      age: 20,
    });
    const del = await node.req('DELETE', '/customer/_doc/1');
    expect(del.json).toMatchObject({ result: 'deleted', _version: 4 });
    const gone = await node.req('GET', '/customer/_doc/1');
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ _index: 'customer', _type: '_doc', _id: '1', found: false });
  });

  it('keeps _source as the bytes the client sent', async () => {
    const raw = '{ "b":1,   "a" : [1.50, 2e3] }';
    await node.req('PUT', '/raw/_doc/1', raw);
    const r = await node.req('GET', '/raw/_doc/1');
    expect(r.text).toContain(`"_source":${raw}`);
  });

  it('loads the bank sample through _bulk with created/updated statuses and versions', async () => {
    const r = await node.req('POST', '/bank/_doc/_bulk', accounts.toString(), {
      'content-type': 'application/x-ndjson',
    });
    expect(r.status).toBe(200);
    expect(r.json.errors).toBe(false);
    expect(r.json.items).toHaveLength(1000);
    expect(r.json.items[0].index).toMatchObject({
      _index: 'bank',
      _type: '_doc',
      _id: '1',
      _version: 1,
      result: 'created',
      status: 201,
    });
    const again = await node.req('POST', '/bank/_doc/_bulk', accounts.toString(), {
      'content-type': 'application/x-ndjson',
    });
    expect(again.json.items[999].index).toMatchObject({
      _version: 2,
      result: 'updated',
      status: 200,
    });
    await node.req('POST', '/bank/_refresh');
    const cat = await node.req('GET', '/_cat/indices/bank?h=docs.count,docs.deleted');
    expect(cat.text.trim()).toMatch(/^1000 +\d+$/);
    const mapping = await node.req('GET', '/bank/_doc/_mapping');
    expect(mapping.json.bank.mappings._doc.properties.address).toEqual({
      type: 'text',
      fields: { keyword: { type: 'keyword', ignore_above: 256 } },
    });
    expect(mapping.json.bank.mappings._doc.properties.balance).toEqual({ type: 'long' });
    const count = await node.req('GET', '/_cat/count/bank');
    expect(count.text.trim().split(/\s+/)[2]).toBe('1000');
  });
});
