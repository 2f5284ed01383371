/** `_cat/aliases` and `_cat/templates` as ES 6.8 renders them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/cm1', { aliases: { a1: {}, a2: { routing: 'r' } } });
  await node.req('PUT', '/cm2', { aliases: { b1: { filter: { match_all: {} } } } });
  await node.req('POST', '/cm2/_close');
  await node.req('PUT', '/_template/tpl', { index_patterns: ['x*', 'y*'], order: 3, version: 7 });
});
afterAll(async () => {
  await node.destroy();
});

describe('_cat/aliases', () => {
  it('lists aliases of open and closed indices', async () => {
    const r = await node.req('GET', '/_cat/aliases?v=true&s=alias');
    expect(r.status).toBe(200);
    expect(r.text.split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['alias', 'index', 'filter', 'routing.index', 'routing.search'],
      ['a1', 'cm1', '-', '-', '-'],
      ['a2', 'cm1', '-', 'r', 'r'],
      ['b1', 'cm2', '*', '-', '-'],
      [''],
    ]);
  });
  it('filters by alias name and renders JSON', async () => {
    const r = await node.req('GET', '/_cat/aliases/a*?format=json&h=alias,index&s=alias');
    expect(r.json).toEqual([
      { alias: 'a1', index: 'cm1' },
      { alias: 'a2', index: 'cm1' },
    ]);
  });
});

describe('_cat/templates', () => {
  it('lists templates with patterns, order and version', async () => {
    const r = await node.req('GET', '/_cat/templates/tp*?format=json');
    expect(r.json).toEqual([{ name: 'tpl', index_patterns: '[x*, y*]', order: '3', version: '7' }]);
    expect((await node.req('GET', '/_cat/templates/none')).text).toBe('');
  });
});

describe('GET _alias', () => {
  it('lists open indices for /_alias and open or closed ones by name', async () => {
    const all = await node.req('GET', '/_alias');
    expect(all.json).toEqual({
      cm1: { aliases: { a1: {}, a2: { index_routing: 'r', search_routing: 'r' } } },
    });
    const named = await node.req('GET', '/_alias/b1');
    expect(named.json).toEqual({ cm2: { aliases: { b1: { filter: { match_all: {} } } } } });
    const open = await node.req('GET', '/_alias/b1?expand_wildcards=open');
    expect([open.status, open.json]).toEqual([404, { error: 'alias [b1] missing', status: 404 }]);
  });
});

describe('HEAD _alias', () => {
  it('is 404 only for a missing plain name', async () => {
    expect((await node.req('HEAD', '/_alias/a1')).status).toBe(200);
    expect((await node.req('HEAD', '/_alias/zz')).status).toBe(404);
    expect((await node.req('HEAD', '/_alias/zz*')).status).toBe(200);
    expect((await node.req('HEAD', '/missing/_alias')).status).toBe(404);
  });
});
