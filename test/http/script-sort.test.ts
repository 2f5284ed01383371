/**
 * `_script` sorts over HTTP (ES ScriptSortBuilder): number and string sorts in the search `sort`
 * and in top_hits (with top_hits script_fields), the sort values hits carry, `_score` in sort
 * scripts, search_after on script values, and the parse and runtime errors ES raises.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const search = async (body: unknown) => (await node.req('POST', '/ss/_search', body)).json;
const ids = (r: any) => r.hits.hits.map((h: any) => h._id);
const sorts = (r: any) => r.hits.hits.map((h: any) => h.sort);
const script = (type: string, source: string, extra: Record<string, unknown> = {}) => ({
  _script: { type, script: { source, params: { k: 10 } }, ...extra },
});

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/ss', {
    settings: { number_of_shards: 2 },
    mappings: {
      _doc: { properties: { a: { type: 'long' }, k: { type: 'keyword' }, t: { type: 'text' } } },
    },
  });
  const docs = [
    { a: 1, k: 'delta', t: 'foo' },
    { a: 2, k: 'alpha', t: 'foo foo bar' },
    { a: 3, k: 'charlie', t: 'foo' },
    { a: 4, k: 'bravo', t: 'bar' },
    { a: 5, k: 'echo', t: 'foo bar baz' },
  ];
  for (let i = 0; i < docs.length; i++)
    await node.req('PUT', `/ss/_doc/${i + 1}?refresh=true`, docs[i]);
});
afterAll(() => node.destroy());

describe('_script sort in search', () => {
  it('sorts by a number script and reports the values as doubles', async () => {
    const r = await search({
      _source: false,
      sort: [script('number', "Math.abs(doc['a'].value - 3) * params.k", { order: 'desc' })],
    });
    expect(ids(r)).toEqual(['1', '5', '2', '4', '3']);
    expect(sorts(r)).toEqual([[20], [20], [10], [10], [0]]);
    expect(r.hits.hits[0]._score).toBeNull();
  });

  it('sorts by a string script with toString() values, ascending by default', async () => {
    const r = await search({
      _source: false,
      size: 3,
      sort: [script('string', "doc['k'].value.substring(1) + doc['a'].value")],
    });
    expect(sorts(r)).toEqual([['cho5'], ['elta1'], ['harlie3']]);
  });

  it('breaks ties with the next sort key and pages with search_after', async () => {
    const s = [script('number', "doc['a'].value % 2"), { a: 'desc' }];
    const all = await search({ _source: false, sort: s });
    expect(ids(all)).toEqual(['4', '2', '5', '3', '1']);
    const after = await search({ _source: false, sort: s, search_after: [1, 5] });
    expect(ids(after)).toEqual(['3', '1']);
  });

  it('gives scripts the score', async () => {
    const r = await search({
      query: { match: { t: 'foo' } },
      _source: false,
      sort: [script('number', '_score', { order: 'desc' }), { a: 'asc' }],
    });
    const s = sorts(r).map((x: number[]) => x[0]);
    expect(s.every((v: number) => v > 0)).toBe(true);
    expect([...s].sort((x, y) => y - x)).toEqual(s);
  });

  it('rejects malformed _script sorts as ES parses them', async () => {
    const err = async (body: unknown) => (await node.req('POST', '/ss/_search', body)).json.error;
    expect(await err({ sort: [{ _script: { type: 'date', script: '1' } }] })).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[_script] failed to parse field [type]',
      caused_by: { type: 'illegal_argument_exception', reason: 'Unknown ScriptSortType [date]' },
    });
    expect(await err({ sort: [{ _script: { script: '1' } }] })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Required [type]',
    });
    expect(
      await err({ sort: [{ _script: { type: 'string', script: '1', mode: 'sum' } }] }),
    ).toMatchObject({ reason: "script sort of type [string] doesn't support mode [sum]" });
    expect(
      (await err({ sort: [{ _script: { type: 'number', script: '1', foo: 1 } }] })).reason,
    ).toBe('[_script] unknown field [foo], parser not found');
  });

  it('fails the shards when a number script returns no number', async () => {
    const r = await node.req('POST', '/ss/_search', {
      sort: [script('number', "doc['k'].value")],
    });
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('search_phase_execution_exception');
    expect(r.json.error.caused_by.type).toBe('class_cast_exception');
  });
});

describe('_script sort in top_hits', () => {
  it('orders each bucket by the script and returns script_fields', async () => {
    const r = await search({
      size: 0,
      aggs: {
        t: {
          filter: { match: { t: 'bar' } },
          aggs: {
            h: {
              top_hits: {
                size: 2,
                script_fields: { up: { script: "doc['k'].value.toUpperCase()" } },
                sort: [script('number', "-doc['a'].value")],
              },
            },
          },
        },
      },
    });
    const bar = r.aggregations.t.h.hits.hits;
    expect(bar.map((h: any) => h._id)).toEqual(['5', '4']);
    expect(bar.map((h: any) => h.sort)).toEqual([[-5], [-4]]);
    expect(bar.map((h: any) => h.fields.up)).toEqual([['ECHO'], ['BRAVO']]);
    expect(bar[0]._source).toBeUndefined();
  });
});
