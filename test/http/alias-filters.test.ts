/**
 * Filtering aliases and alias search routing over HTTP (ES 6.8: IndexNameExpressionResolver
 * filteringAliases / resolveSearchRouting, DefaultSearchContext.buildFilteredQuery): every API
 * that searches applies the filters of the aliases it was reached through, none when the index
 * is also named, matched by a wildcard or reached through an alias without a filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;

const LEVELS = ['error', 'warn', 'info', 'error', 'info', 'info', 'warn', 'error', 'info', 'info'];
const byLevel = (l: string) => LEVELS.filter((x) => x === l).length;

/** logs: 10 docs (ids 1..10), aliases errors / warnings (filtered), everything (plain). */
async function seedLogs(index = 'logs', prefix = ''): Promise<void> {
  await node.req('PUT', `/${index}`, {
    settings: { number_of_shards: 3 },
    mappings: {
      _doc: {
        properties: {
          level: { type: 'keyword' },
          msg: { type: 'text' },
          n: { type: 'integer' },
        },
      },
    },
  });
  const lines = LEVELS.flatMap((level, i) => [
    JSON.stringify({ index: { _id: String(i + 1) } }),
    JSON.stringify({ level, msg: `disk ${i % 3 === 0 ? 'full' : 'ok'} now`, n: i + 1 }),
  ]);
  await node.req('POST', `/${index}/_doc/_bulk?refresh=true`, lines.join('\n') + '\n', {
    'content-type': 'application/x-ndjson',
  });
  await node.req('POST', '/_aliases', {
    actions: [
      { add: { index, alias: `${prefix}errors`, filter: { term: { level: 'error' } } } },
      { add: { index, alias: `${prefix}warnings`, filter: { term: { level: 'warn' } } } },
      { add: { index, alias: `${prefix}everything` } },
    ],
  });
}

const count = async (path: string, body?: unknown) => {
  const r = await node.req(body === undefined ? 'GET' : 'POST', `${path}/_count`, body);
  expect(r.status, r.text).toBe(200);
  return r.json.count as number;
};

const search = async (path: string, body: unknown = {}) => {
  const r = await node.req('POST', `${path}/_search`, body);
  expect(r.status, r.text).toBe(200);
  return r.json;
};

const ids = (body: { hits: { hits: Array<{ _id: string }> } }) =>
  body.hits.hits.map((h) => h._id).sort((a, b) => Number(a) - Number(b));

beforeAll(async () => {
  node = await startTestNode();
  await seedLogs();
});
afterAll(async () => {
  await node.destroy();
});

describe('which alias filters apply', () => {
  it('a filtered alias filters _count and _search', async () => {
    expect(await count('/logs')).toBe(10);
    expect(await count('/errors')).toBe(byLevel('error'));
    const r = await search('/errors', { size: 20 });
    expect(r.hits.total).toBe(3);
    expect(ids(r)).toEqual(['1', '4', '8']);
  });

  it('the index named too, or an unfiltered alias, lifts the filter', async () => {
    expect(await count('/errors,logs')).toBe(10);
    expect(await count('/logs,errors')).toBe(10);
    expect(await count('/errors,everything')).toBe(10);
  });

  it('two filtered aliases of one index: either filter matches (bool should)', async () => {
    expect(await count('/errors,warnings')).toBe(byLevel('error') + byLevel('warn'));
  });

  it('wildcards: an alias matched stays filtered, the index matched is unfiltered', async () => {
    expect(await count('/err*')).toBe(3);
    expect(await count('/err*,warn*')).toBe(5);
    expect(await count('/lo*')).toBe(10);
    expect(await count('/err*,lo*')).toBe(10);
    expect(await count('/*')).toBe(10);
    expect(await count('/_all')).toBe(10);
    expect(await count('')).toBe(10);
    // everything matches `e*` too: an unfiltered alias among them
    expect(await count('/e*')).toBe(10);
  });

  it('the query and the filter both apply; scores are the filter-free ones', async () => {
    const q = { query: { match: { msg: 'full' } }, size: 20 };
    const all = await search('/logs', q);
    const errs = await search('/errors', q);
    const scores = new Map<string, number>(all.hits.hits.map((h: any) => [h._id, h._score]));
    expect(ids(all)).toEqual(['1', '4', '7', '10']);
    expect(ids(errs)).toEqual(['1', '4']);
    for (const h of errs.hits.hits) expect(h._score).toBe(scores.get(h._id));
    expect(errs.hits.max_score).toBe(Math.max(scores.get('1')!, scores.get('4')!));
  });

  it('aggregations see only the filtered docs, global ones included', async () => {
    const r = await search('/errors,warnings', {
      size: 0,
      aggs: {
        levels: { terms: { field: 'level' } },
        all: { global: {}, aggs: { total: { value_count: { field: 'n' } } } },
        sum: { sum: { field: 'n' } },
      },
    });
    const buckets = r.aggregations.levels.buckets.map((b: any) => [b.key, b.doc_count]);
    expect(buckets).toEqual([
      ['error', 3],
      ['warn', 2],
    ]);
    expect(r.aggregations.all.doc_count).toBe(5);
    expect(r.aggregations.all.total.value).toBe(5);
    expect(r.aggregations.sum.value).toBe(1 + 2 + 4 + 7 + 8);
    const plain = await search('/logs', { size: 0, aggs: { all: { global: {} } } });
    expect(plain.aggregations.all.doc_count).toBe(10);
  });

  it('post_filter, sort and paging work on the filtered hits', async () => {
    const r = await search('/errors', { sort: [{ n: 'desc' }], size: 2, from: 1 });
    expect(r.hits.total).toBe(3);
    expect(r.hits.hits.map((h: any) => h._id)).toEqual(['4', '1']);
    const p = await search('/errors', { post_filter: { range: { n: { gte: 4 } } } });
    expect(ids(p)).toEqual(['4', '8']);
  });
});

describe('request cache', () => {
  const levels = async (path: string, cache?: boolean) => {
    const q = cache === undefined ? '' : `?request_cache=${cache}`;
    const r = await node.req('POST', `${path}/_search${q}`, {
      size: 0,
      aggs: { l: { terms: { field: 'level' } } },
    });
    expect(r.status, r.text).toBe(200);
    return r.json.aggregations.l.buckets.map((b: any) => `${b.key}:${b.doc_count}`);
  };

  it('two aliases of one index do not share cached results', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await levels('/errors')).toEqual(['error:3']);
      expect(await levels('/warnings')).toEqual(['warn:2']);
      expect(await levels('/logs')).toEqual(['info:5', 'error:3', 'warn:2']);
    }
    const stats = await node.req('GET', '/logs/_stats/request_cache');
    expect(stats.json._all.total.request_cache.hit_count).toBeGreaterThan(0);
  });

  it('with request_cache=true for hits and request_cache=false', async () => {
    for (let i = 0; i < 2; i++) {
      const a = await node.req('POST', '/errors/_search?request_cache=true', { size: 10 });
      const b = await node.req('POST', '/warnings/_search?request_cache=true', { size: 10 });
      expect(ids(a.json)).toEqual(['1', '4', '8']);
      expect(ids(b.json)).toEqual(['2', '7']);
      expect(await levels('/warnings', false)).toEqual(['warn:2']);
      expect(await levels('/errors', true)).toEqual(['error:3']);
    }
  });
});

describe('other search APIs', () => {
  it('scroll: the first request applies the filter to every page', async () => {
    const first = await node.req('POST', '/errors,warnings/_search?scroll=1m', {
      size: 2,
      sort: ['n'],
    });
    expect(first.json.hits.total).toBe(5);
    const seen = first.json.hits.hits.map((h: any) => h._id);
    let id = first.json._scroll_id;
    for (;;) {
      const next = await node.req('POST', '/_search/scroll', { scroll: '1m', scroll_id: id });
      expect(next.status).toBe(200);
      if (next.json.hits.hits.length === 0) break;
      seen.push(...next.json.hits.hits.map((h: any) => h._id));
      id = next.json._scroll_id;
    }
    expect(seen).toEqual(['1', '2', '4', '7', '8']);
  });

  it('msearch: each item with its own expression', async () => {
    const lines = [
      { index: 'errors' },
      { size: 0 },
      { index: 'logs' },
      { size: 0 },
      { index: ['errors', 'warnings'] },
      { size: 0 },
      { index: 'errors,logs' },
      { size: 0 },
    ];
    const r = await node.req(
      'POST',
      '/_msearch',
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(r.status).toBe(200);
    expect(r.json.responses.map((x: any) => x.hits.total)).toEqual([3, 10, 5, 10]);
    const viaPath = await node.req('POST', '/errors/_msearch', '{}\n{"size":0}\n', {
      'content-type': 'application/x-ndjson',
    });
    expect(viaPath.json.responses[0].hits.total).toBe(3);
  });

  it('explain: a doc outside the filter does not match through the alias', async () => {
    const q = { query: { match_all: {} } };
    const inside = await node.req('POST', '/errors/_doc/1/_explain', q);
    expect(inside.status).toBe(200);
    expect(inside.json.matched).toBe(true);
    expect(inside.json.explanation.value).toBe(1);
    expect(JSON.stringify(inside.json.explanation)).toContain('match on required clause');
    const outside = await node.req('POST', '/errors/_doc/2/_explain', q);
    expect(outside.status).toBe(200);
    expect(outside.json.matched).toBe(false);
    const direct = await node.req('POST', '/logs/_doc/2/_explain', q);
    expect(direct.json.matched).toBe(true);
  });

  it('validate: the explanation shows the filter clause', async () => {
    const one = await node.req('POST', '/errors/_validate/query?explain', {
      query: { match_all: {} },
    });
    expect(one.json.valid).toBe(true);
    expect(one.json.explanations[0].explanation).toBe('+*:* #level:error');
    const two = await node.req('POST', '/errors,warnings/_validate/query?explain', {
      query: { term: { level: 'info' } },
    });
    expect(two.json.explanations[0].explanation).toBe('+level:info #((level:error level:warn)~1)');
    const none = await node.req('POST', '/errors,logs/_validate/query?explain', {
      query: { match_all: {} },
    });
    expect(none.json.explanations[0].explanation).toBe('*:*');
  });

  it('_cat/count counts through the filter (it runs a search)', async () => {
    const cat = async (expr: string) =>
      (await node.req('GET', `/_cat/count/${expr}?h=count`)).text.trim();
    expect(await cat('errors')).toBe('3');
    expect(await cat('errors,warnings')).toBe('5');
    expect(await cat('errors,logs')).toBe('10');
  });

  it('get, mget and exists by id ignore the filter', async () => {
    const g = await node.req('GET', '/errors/_doc/2');
    expect(g.status).toBe(200);
    expect(g.json.found).toBe(true);
    expect(g.json._index).toBe('logs');
    expect((await node.req('HEAD', '/errors/_doc/2')).status).toBe(200);
    const m = await node.req('POST', '/errors/_doc/_mget', { ids: ['2', '3'] });
    expect(m.json.docs.map((d: any) => d.found)).toEqual([true, true]);
  });

  it('SQL through an alias: its filter applies', async () => {
    const sql = async (query: string) => {
      const r = await node.req('POST', '/_sql?format=json', { query });
      expect(r.status, r.text).toBe(200);
      return r.json.rows as unknown[][];
    };
    expect(await sql('SELECT COUNT(*) FROM errors')).toEqual([[3]]);
    expect(await sql('SELECT COUNT(*) FROM logs')).toEqual([[10]]);
    expect(await sql('SELECT n FROM errors ORDER BY n')).toEqual([[1], [4], [8]]);
    expect(await sql('SELECT level, COUNT(*) c FROM "errors,warnings" GROUP BY level')).toEqual([
      ['error', 3],
      ['warn', 2],
    ]);
    expect(await sql('SELECT MAX(n) FROM warnings')).toEqual([[7]]);
    // a page of a scroll cursor keeps the filter
    const first = await node.req('POST', '/_sql?format=json', {
      query: 'SELECT n FROM errors',
      fetch_size: 1,
    });
    const rows = [...first.json.rows];
    let cursor = first.json.cursor;
    while (cursor) {
      const next = await node.req('POST', '/_sql?format=json', { cursor });
      rows.push(...next.json.rows);
      cursor = next.json.cursor;
    }
    expect(rows.map((r: unknown[]) => r[0]).sort()).toEqual([1, 4, 8]);
  });
});

describe('by-query APIs', () => {
  it('update_by_query and delete_by_query through an alias touch only its docs', async () => {
    await seedLogs('bq', 'bq_');
    const u = await node.req('POST', '/bq_errors/_update_by_query?refresh', {
      script: { source: 'ctx._source.n += 100' },
    });
    expect(u.status, u.text).toBe(200);
    expect(u.json.updated).toBe(3);
    const big = await search('/bq', { query: { range: { n: { gte: 100 } } }, size: 20 });
    expect(ids(big)).toEqual(['1', '4', '8']);
    const d = await node.req('POST', '/bq_errors/_delete_by_query?refresh', {
      query: { range: { n: { gte: 104 } } },
    });
    expect(d.status, d.text).toBe(200);
    expect(d.json.deleted).toBe(2);
    expect(await count('/bq')).toBe(8);
    expect(await count('/bq_errors')).toBe(1);
    await node.req('DELETE', '/bq');
  });
});

describe('alias search routing', () => {
  it('searches through an alias with search_routing only its shards', async () => {
    await node.req('PUT', '/rt', { settings: { number_of_shards: 5 } });
    for (let i = 0; i < 20; i++)
      await node.req('PUT', `/rt/_doc/${i}?routing=${i % 2 === 0 ? 'a' : 'b'}`, { i });
    await node.req('POST', '/rt/_refresh');
    await node.req('POST', '/_aliases', {
      actions: [
        { add: { index: 'rt', alias: 'rt_a', search_routing: 'a' } },
        { add: { index: 'rt', alias: 'rt_ab', routing: 'a,b' } },
        {
          add: {
            index: 'rt',
            alias: 'rt_af',
            search_routing: 'a',
            filter: { range: { i: { lt: 10 } } },
          },
        },
      ],
    });
    const viaIndex = await node.req('GET', '/rt/_search?routing=a&size=0');
    const viaAlias = await search('/rt_a', { size: 0 });
    expect(viaAlias._shards.total).toBe(1);
    expect(viaAlias.hits.total).toBe(viaIndex.json.hits.total);
    expect((await node.req('GET', '/rt_a/_count')).json._shards.total).toBe(1);
    // the parameter narrows the alias's values
    const narrowed = await node.req('POST', '/rt_ab/_search?routing=b', { size: 0 });
    expect(narrowed.json._shards.total).toBe(1);
    // the index itself named: the parameter (here none) decides
    expect((await search('/rt_a,rt', { size: 0 }))._shards.total).toBe(5);
    // ES: values outside the alias's leave the index unrouted (every shard)
    const other = await node.req('POST', '/rt_a/_search?routing=zzz', { size: 0 });
    expect(other.json._shards.total).toBe(5);
    // routing and filter together
    const af = await search('/rt_af', { size: 20 });
    expect(af._shards.total).toBe(1);
    const expected = await node.req('POST', '/rt/_search?routing=a', {
      query: { range: { i: { lt: 10 } } },
    });
    expect(af.hits.total).toBe(expected.json.hits.total);
    expect(af.hits.total).toBeGreaterThanOrEqual(5);
    expect(af.hits.hits.every((h: any) => h._source.i < 10)).toBe(true);
    // a wildcard expands the alias to its index: no alias routing
    expect((await search('/rt_a*', { size: 0 }))._shards.total).toBe(5);
    await node.req('DELETE', '/rt');
  });
});

describe('alias index routing (writes and gets through the alias)', () => {
  it('writes, gets and searches through an alias with routing agree', async () => {
    await node.req('PUT', '/ir', { settings: { number_of_shards: 5 } });
    await node.req('POST', '/_aliases', {
      actions: [{ add: { index: 'ir', alias: 'ir_x', routing: 'x' } }],
    });
    for (let i = 1; i <= 6; i++) {
      const w = await node.req('PUT', `/ir_x/_doc/${i}`, { i });
      expect(w.status, w.text).toBe(201);
    }
    const bulk = await node.req(
      'POST',
      '/_bulk?refresh=true',
      '{"index":{"_index":"ir_x","_type":"_doc","_id":"7"}}\n{"i":7}\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(bulk.json.errors).toBe(false);
    const g = await node.req('GET', '/ir_x/_doc/3');
    expect(g.json).toMatchObject({ _index: 'ir', found: true, _routing: 'x' });
    expect((await node.req('GET', '/ir/_doc/3?routing=x')).json._routing).toBe('x');
    const m = await node.req('POST', '/_mget', { docs: [{ _index: 'ir_x', _id: '7' }] });
    expect(m.json.docs[0]).toMatchObject({ found: true, _routing: 'x' });
    // the alias searches the routing's shard only, where every doc written through it is
    const s = await search('/ir_x', { size: 0 });
    expect(s._shards.total).toBe(1);
    expect(s.hits.total).toBe(7);
    const u = await node.req('POST', '/ir_x/_doc/1/_update', { doc: { i: 100 } });
    expect(u.status, u.text).toBe(200);
    const d = await node.req('DELETE', '/ir_x/_doc/2');
    expect(d.json.result).toBe('deleted');
    const bad = await node.req('PUT', '/ir_x/_doc/9?routing=y', { i: 9 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe(
      'Alias [ir_x] has index routing associated with it [x], and was provided with routing value [y], rejecting operation',
    );
    expect((await node.req('PUT', '/ir_x/_doc/9?routing=x', { i: 9 })).status).toBe(201);
    await node.req('DELETE', '/ir');
  });

  it('a get through an alias of several indices is refused', async () => {
    await node.req('PUT', '/g1');
    await node.req('PUT', '/g2');
    await node.req('POST', '/_aliases', {
      actions: [{ add: { indices: ['g1', 'g2'], alias: 'gg' } }],
    });
    const r = await node.req('GET', '/gg/_doc/1');
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe(
      "Alias [gg] has more than one indices associated with it [[g1, g2]], can't execute a single index op",
    );
    await node.req('DELETE', '/g1,g2');
  });
});
