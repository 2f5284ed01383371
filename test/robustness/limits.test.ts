/**
 * ES 6.8's request and mapping limits over HTTP, with ES's exact status and wording:
 * http.max_content_length, index.max_result_window (and the scroll batch size),
 * index.max_docvalue_fields_search, index.max_script_fields, index.mapping.total_fields.limit,
 * index.mapping.depth.limit, index.mapping.nested_fields.limit, index name (255 bytes) and id
 * (512 bytes) lengths. A rejected request changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type RunningNode } from '../../src/node.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/lim', { mappings: { _doc: { properties: { n: { type: 'long' } } } } });
  await node.req('PUT', '/lim/_doc/1?refresh=true', { n: 1 });
}, 60_000);
afterAll(() => node.destroy());

const rootCause = (r: { json: any }) => r.json.error.root_cause[0];

describe('search limits', () => {
  // ES 6.8 DefaultSearchContext.preProcess throws QueryPhaseExecutionException (status 500) on
  // every shard, so the answer is a 500 search_phase_execution_exception (7.x made it a 400).
  it('index.max_result_window: from + size > 10000 is rejected', async () => {
    const r = await node.req('POST', '/lim/_search', { from: 9995, size: 6 });
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('search_phase_execution_exception');
    expect(rootCause(r)).toMatchObject({
      type: 'query_phase_execution_exception',
      reason:
        'Result window is too large, from + size must be less than or equal to: [10000] but was [10001]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.',
    });
    expect((await node.req('POST', '/lim/_search', { from: 9995, size: 5 })).status).toBe(200);
  });

  it('index.max_result_window follows the index setting', async () => {
    await node.req('PUT', '/lim/_settings', { index: { max_result_window: 20 } });
    try {
      const r = await node.req('GET', '/lim/_search?size=21');
      expect(r.status).toBe(500);
      expect(rootCause(r).reason).toContain('must be less than or equal to: [20] but was [21]');
      // A scroll's batch size is bounded by the same setting.
      const s = await node.req('GET', '/lim/_search?size=21&scroll=1m');
      expect(s.status).toBe(500);
      expect(rootCause(s).reason).toMatch(
        /^Batch size is too large, size must be less than or equal to: \[20\] but was \[21\]/,
      );
    } finally {
      await node.req('PUT', '/lim/_settings', { index: { max_result_window: null } });
    }
  });

  it('index.max_docvalue_fields_search (100) and index.max_script_fields (32)', async () => {
    const dv = await node.req('POST', '/lim/_search', {
      docvalue_fields: Array.from({ length: 101 }, () => 'n'),
    });
    expect(dv.status).toBe(400);
    expect(rootCause(dv).reason).toBe(
      'Trying to retrieve too many docvalue_fields. Must be less than or equal to: [100] but was [101]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.',
    );
    const scriptFields: Record<string, unknown> = {};
    for (let i = 0; i < 33; i++) scriptFields[`f${i}`] = { script: "doc['n'].value" };
    const sf = await node.req('POST', '/lim/_search', { script_fields: scriptFields });
    expect(sf.status).toBe(400);
    expect(rootCause(sf).reason).toBe(
      'Trying to retrieve too many script_fields. Must be less than or equal to: [32] but was [33]. This limit can be set by changing the [index.max_script_fields] index level setting.',
    );
  });
});

// Nesting bounds of later ES versions, so that no request can overflow the node's stack
describe('nesting limits', () => {
  const nestedBool = (depth: number) =>
    '{"bool":{"must":['.repeat(depth - 1) + '{"match_all":{}}' + ']}}'.repeat(depth - 1);
  const nestedAggs = (depth: number) => {
    let a = '{"m":{"max":{"field":"n"}}}';
    for (let i = 1; i < depth; i++) a = `{"a${i}":{"filter":{"match_all":{}},"aggs":${a}}}`;
    return a;
  };

  it('indices.query.bool.max_nested_depth (1000): every query object counts', async () => {
    expect((await node.req('POST', '/lim/_search', `{"query":${nestedBool(1000)}}`)).status).toBe(200); // prettier-ignore
    for (const depth of [1001, 5000]) {
      const r = await node.req('POST', '/lim/_search', `{"query":${nestedBool(depth)}}`);
      expect(r.status).toBe(400);
      expect(rootCause(r)).toEqual({
        type: 'illegal_argument_exception',
        reason:
          'The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]',
      });
    }
    const count = await node.req('POST', '/lim/_count', `{"query":${nestedBool(3000)}}`);
    expect(count.status).toBe(400);
    const cs = `{"constant_score":{"filter":`.repeat(1001) + '{"match_all":{}}' + '}}'.repeat(1001);
    expect((await node.req('POST', '/lim/_search', `{"query":${cs}}`)).status).toBe(400);
  });

  it('search.aggs.max_nested_depth (100, dynamic): levels of aggregations', async () => {
    const ok = await node.req('POST', '/lim/_search', `{"size":0,"aggs":${nestedAggs(100)}}`);
    expect(ok.status).toBe(200);
    const r = await node.req('POST', '/lim/_search', `{"size":0,"aggs":${nestedAggs(2000)}}`);
    expect(r.status).toBe(400);
    expect(rootCause(r)).toEqual({
      type: 'parsing_exception',
      reason:
        'The nested depth of the aggregations exceeds the maximum nested depth for aggregations of [100] set in [search.aggs.max_nested_depth]',
    });
    for (const [key, bad] of [
      ['search.aggs.max_nested_depth', 'deep'],
      ['search.aggs.max_nested_depth', 0],
      ['search.max_buckets', -1],
    ] as const) {
      // prettier-ignore
      const r = await node.req('PUT', '/_cluster/settings', { transient: { [key]: bad } });
      expect(r.status).toBe(400);
      expect(rootCause(r).reason).toMatch(new RegExp(`^Failed to parse value \\[${bad}\\] for setting \\[${key.replace(/\./g, '\\.')}\\]`)); // prettier-ignore
    }
    await node.req('PUT', '/_cluster/settings', { transient: { 'search.aggs.max_nested_depth': 3 } }); // prettier-ignore
    try {
      const three = await node.req('POST', '/lim/_search', `{"size":0,"aggs":${nestedAggs(4)}}`);
      expect(rootCause(three).reason).toContain('maximum nested depth for aggregations of [3]');
    } finally {
      await node.req('PUT', '/_cluster/settings', { transient: { 'search.aggs.max_nested_depth': null } }); // prettier-ignore
    }
  });

  it('SQL builds its queries itself: long OR chains are not bounded', async () => {
    const where = Array.from({ length: 150 }, (_, i) => `n = ${i} OR n > ${i + 1000}`).join(' OR '); // prettier-ignore
    const r = await node.req('POST', '/_sql', { query: `SELECT n FROM lim WHERE ${where}` });
    expect(r.status).toBe(200);
    expect(r.json.rows).toEqual([[1]]);
  });
});

describe('analysis limits', () => {
  // ES 7's index.analyze.max_token_count (6.8 has none: 20 MB of text made the response too
  // large to build); ES throws an IllegalStateException, a 500
  it('index.analyze.max_token_count (10000) bounds each token list of _analyze', async () => {
    const text = (n: number) => 'a '.repeat(n);
    const ok = await node.req('POST', '/_analyze', { analyzer: 'standard', text: text(10_000) });
    expect(ok.status).toBe(200);
    expect(ok.json.tokens).toHaveLength(10_000);
    for (const path of ['/_analyze', '/lim/_analyze']) {
      const r = await node.req('POST', path, { analyzer: 'standard', text: text(10_001) });
      expect(r.status).toBe(500);
      expect(rootCause(r)).toEqual({
        type: 'illegal_state_exception',
        reason:
          'The number of tokens produced by calling _analyze has exceeded the allowed maximum of [10000]. This limit can be set by changing the [index.analyze.max_token_count] index level setting.',
      });
    }
    const explain = await node.req('POST', '/_analyze', { tokenizer: 'whitespace', filter: ['lowercase'], explain: true, text: text(10_001) }); // prettier-ignore
    expect(explain.status).toBe(500);
    await node.req('PUT', '/lim/_settings', { index: { analyze: { max_token_count: 20_000 } } });
    try {
      const raised = await node.req('POST', '/lim/_analyze', { analyzer: 'standard', text: text(15_000) }); // prettier-ignore
      expect(raised.json.tokens).toHaveLength(15_000);
    } finally {
      await node.req('PUT', '/lim/_settings', { index: { analyze: { max_token_count: null } } });
    }
  });
});

describe('mapping limits', () => {
  it('index.mapping.total_fields.limit (1000): dynamic fields past it reject the document', async () => {
    const doc: Record<string, number> = {};
    for (let i = 0; i < 1000; i++) doc[`f${i}`] = i;
    const before = await node.req('GET', '/lim/_mapping');
    const r = await node.req('PUT', '/lim/_doc/wide', doc);
    expect(r.status).toBe(400);
    expect(rootCause(r)).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Limit of total fields [1000] in index [lim] has been exceeded',
    });
    expect((await node.req('GET', '/lim/_mapping')).json).toEqual(before.json);
    expect((await node.req('GET', '/lim/_doc/wide')).status).toBe(404);
  });

  // ES MapperService.checkDepthLimit: depth = dots in the object path + 2, so the 20th nested
  // object (path of 20 names) is the first past the limit.
  it('index.mapping.depth.limit (20): 20 nested objects are rejected', async () => {
    let obj: unknown = 1;
    for (let i = 0; i < 21; i++) obj = { o: obj }; // 20 objects around a long field
    const r = await node.req('PUT', '/lim/_doc/deep', obj);
    expect(r.status).toBe(400);
    expect(rootCause(r)).toEqual({
      type: 'illegal_argument_exception',
      reason: `Limit of mapping depth [20] in index [lim] has been exceeded due to object field [${Array(20).fill('o').join('.')}]`,
    });
  });

  it('index.mapping.nested_fields.limit (50) on mapping updates', async () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 51; i++) properties[`n${i}`] = { type: 'nested' };
    const r = await node.req('PUT', '/lim/_mapping/_doc', { properties });
    expect(r.status).toBe(400);
    expect(rootCause(r)).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Limit of nested fields [50] in index [lim] has been exceeded',
    });
    expect((await node.req('GET', '/lim/_mapping')).text).not.toContain('"n0"');
  });
});

describe('http.max_content_length', () => {
  let small: RunningNode;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-limits-'));
    small = await startNode({ dataPath: dir, port: 0, maxContentLength: 1024 });
  });
  afterAll(async () => {
    await small.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 413 with an empty body, as Netty does for ES, and indexes nothing', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(2000) });
    const r = await fetch(small.url + '/big/_doc/1', {
      method: 'PUT',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(413);
    expect(await r.text()).toBe('');
    expect((await fetch(small.url + '/big')).status).toBe(404);
    // A body within the limit is served.
    const ok = await fetch(small.url + '/big/_doc/1', {
      method: 'PUT',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(201);
  });
});

describe('name and id lengths', () => {
  it('an index name over 255 bytes is invalid_index_name_exception (ES MAX_INDEX_NAME_BYTES)', async () => {
    const name = 'é'.repeat(128); // 256 bytes in UTF-8
    const r = await node.req('PUT', `/${encodeURIComponent(name)}`);
    expect(r.status).toBe(400);
    expect(rootCause(r).type).toBe('invalid_index_name_exception');
    expect(rootCause(r).reason).toBe(
      `Invalid index name [${name}], index name is too long, (256 > 255)`,
    );
    expect((await node.req('PUT', `/${'a'.repeat(255)}`)).status).toBe(200);
  });

  it('an id over 512 bytes is an action_request_validation_exception', async () => {
    const r = await node.req('PUT', `/lim/_doc/${'x'.repeat(513)}`, { n: 2 });
    expect(r.status).toBe(400);
    expect(rootCause(r).type).toBe('action_request_validation_exception');
    expect(rootCause(r).reason).toBe(
      'Validation Failed: 1: id is too long, must be no longer than 512 bytes but was: 513;',
    );
    expect((await node.req('PUT', `/lim/_doc/${'x'.repeat(512)}`, { n: 2 })).status).toBe(201);
  });
});
