/**
 * Stored scripts as ES 6.8 serves them: PUT/GET/DELETE `_scripts/{id}` with its errors, and
 * `{"id": ...}` scripts resolved wherever a script is accepted (script query, script_fields,
 * aggregations, sort, updates), surviving a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const dir = mkdtempSync(join(tmpdir(), 'quarry-scripts-'));
beforeAll(async () => {
  node = await startTestNode(dir);
  for (const [id, n] of [
    ['1', 1],
    ['2', 5],
    ['3', 10],
  ] as const)
    await node.req('PUT', `/s/_doc/${id}`, { n });
  await node.req('POST', '/s/_refresh');
});
afterAll(async () => {
  await node.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('stored script APIs', () => {
  it('puts, gets and deletes a script; a missing one is 404', async () => {
    const put = await node.req('PUT', '/_scripts/times', {
      script: { lang: 'painless', source: "doc['n'].value * params.k" },
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ acknowledged: true });
    const got = await node.req('GET', '/_scripts/times');
    expect(got.json).toEqual({
      _id: 'times',
      found: true,
      script: { lang: 'painless', source: "doc['n'].value * params.k" },
    });
    await node.req('POST', '/_scripts/tmp', { script: { lang: 'painless', source: '1' } });
    expect((await node.req('DELETE', '/_scripts/tmp')).json).toEqual({ acknowledged: true });
    const gone = await node.req('GET', '/_scripts/tmp');
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ _id: 'tmp', found: false });
    const del = await node.req('DELETE', '/_scripts/tmp');
    expect(del.status).toBe(404);
    expect(del.json.error).toMatchObject({
      type: 'resource_not_found_exception',
      reason: 'stored script [tmp] does not exist and cannot be deleted',
    });
  });

  it('refuses what ES refuses, compiling only when a context is named', async () => {
    const bad = async (path: string, body: unknown) => (await node.req('PUT', path, body)).json.error; // prettier-ignore
    expect(await bad('/_scripts/x', { script: { source: '1' } })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'must specify lang for stored script',
    });
    expect((await bad('/_scripts/x', { script: { lang: 'painless' } })).reason).toBe(
      'must specify source for stored script',
    );
    expect((await bad('/_scripts/x', { script: { lang: 'painless', source: '' } })).reason).toBe(
      'source cannot be empty',
    );
    expect((await bad('/_scripts/x', { script: { lang: 'expression', source: '1' } })).reason).toBe(
      'unable to put stored script with unsupported lang [expression]',
    );
    expect((await bad('/_scripts/x%231', { script: { lang: 'painless', source: '1' } })).type).toBe(
      'action_request_validation_exception',
    );
    expect(
      (await bad('/_scripts/x/nope', { script: { lang: 'painless', source: '1' } })).reason,
    ).toBe('Unknown context [nope]');
    // without a context the source is stored unchecked (ES 6.8 compiles only for a context)
    const broken = { script: { lang: 'painless', source: '1 +' } };
    expect((await node.req('PUT', '/_scripts/broken', broken)).status).toBe(200);
    const compiled = await bad('/_scripts/broken2/search', broken);
    expect(compiled).toMatchObject({ type: 'script_exception', reason: 'compile error' });
    expect((await node.req('GET', '/_scripts/broken2')).status).toBe(404);
  });
});

describe('scripts by id', () => {
  it('resolve in script queries, script_fields, aggregations and sorts', async () => {
    await node.req('PUT', '/_scripts/over', {
      script: { lang: 'painless', source: "doc['n'].value >= params.min" },
    });
    const r = await node.req('POST', '/s/_search', {
      query: { script: { script: { id: 'over', params: { min: 1 } } } },
      script_fields: { x: { script: { id: 'times', params: { k: 3 } } } },
      sort: {
        _script: { type: 'number', order: 'desc', script: { id: 'times', params: { k: -1 } } },
      },
      aggs: { s: { sum: { script: { id: 'times', params: { k: 10 } } } } },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.hits.map((h: any) => [h._id, h.fields.x[0]])).toEqual([
      ['1', 3],
      ['2', 15],
      ['3', 30],
    ]);
    expect(r.json.aggregations.s.value).toBe(160);
  });

  it('resolve in updates, and a missing id or a lang with an id is ES error', async () => {
    await node.req('PUT', '/_scripts/bump', {
      script: { lang: 'painless', source: 'ctx._source.n += params.by' },
    });
    const u = await node.req('POST', '/s/_doc/1/_update', { script: { id: 'bump', params: { by: 4 } } }); // prettier-ignore
    expect(u.json.result).toBe('updated');
    expect((await node.req('GET', '/s/_doc/1')).json._source).toEqual({ n: 5 });
    const missing = await node.req('POST', '/s/_search', {
      query: { script: { script: { id: 'nope' } } },
    });
    expect(JSON.stringify(missing.json)).toContain('unable to find script [nope] in cluster state');
    const withLang = await node.req('POST', '/s/_doc/1/_update', {
      script: { id: 'bump', lang: 'painless' },
    });
    expect(withLang.status).toBe(400);
    expect(JSON.stringify(withLang.json)).toContain(
      'illegally specified <lang> for a stored script',
    );
  });

  it('survive a restart', async () => {
    await node.close();
    node = await startTestNode(dir);
    const got = await node.req('GET', '/_scripts/bump');
    expect(got.json.found).toBe(true);
    const u = await node.req('POST', '/s/_doc/1/_update', { script: { id: 'bump', params: { by: 1 } } }); // prettier-ignore
    expect(u.json._version).toBe(3);
  });
});
