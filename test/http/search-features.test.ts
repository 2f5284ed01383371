/**
 * Search features over HTTP as ES 6.8 answers them: field collapsing with inner hits, rescoring
 * and its explanation, indices_boost, sliced and limited scrolls, `_ignored`, docvalue_fields
 * formats and their deprecation warning, the can_match pre-filter, batched reduces, `_id` sort
 * with search_after, suggesters, and the request checks ES makes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) =>
  node.req(
    method,
    path,
    body,
    typeof body === 'string' ? { 'content-type': 'application/x-ndjson' } : {},
  );
const bulk = (lines: unknown[]) =>
  req('POST', '/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const warningsOf = (h: Headers) =>
  (h.get('warning') ?? '')
    .split(/,(?=\s*299)/)
    .filter((w) => w)
    .map((w) => /"((?:[^"\\]|\\.)*)"/.exec(w)![1]!.replace(/\\"/g, '"'));

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/groups', {
    mappings: {
      doc: {
        properties: {
          g: { type: 'integer' },
          k: { type: 'keyword' },
          t: { type: 'text' },
          d: { type: 'date', ignore_malformed: true },
          shape: { type: 'geo_shape' },
          title: { type: 'completion' },
        },
      },
    },
  });
  const docs = [
    { g: 1, k: 'a', s: 10, t: 'quick brown fox', d: '2018-01-01', title: 'doctor' },
    { g: 1, k: 'b', s: 6, t: 'quick brown dog', d: 'bad', title: { input: 'docker', weight: 4 } },
    { g: 1, k: 'c', s: 24, t: 'lazy fox', d: '2018-01-03' },
    { g: 25, k: 'a', s: 10, t: 'quick fox', shape: { type: 'point', coordinates: [1, 2] } },
    { g: 25, k: 'b', s: 5, t: 'brown fox' },
    { g: 3, k: 'c', s: 36, t: 'the fox' },
  ];
  await bulk(
    docs.flatMap((d, i) => [{ index: { _index: 'groups', _type: 'doc', _id: String(i + 1) } }, d]),
  );
});
afterAll(async () => {
  await node.destroy();
});

describe('field collapsing', () => {
  it('returns the best hit per group with its value and expanded inner hits', async () => {
    const r = await req('POST', '/groups/_search', {
      collapse: {
        field: 'g',
        inner_hits: [
          { name: 'by_s', size: 2, sort: [{ s: 'asc' }], _source: false, version: true },
          { name: 'by_k', size: 1, collapse: { field: 'k' } },
        ],
      },
      sort: [{ s: 'desc' }],
      from: 1,
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toBe(6);
    const hits = r.json.hits.hits;
    expect(
      hits.map((h: { _id: string; fields: unknown; sort: unknown }) => [h._id, h.fields, h.sort]),
    ).toEqual([
      ['3', { g: [1] }, [24]],
      ['4', { g: [25] }, [10]],
    ]);
    expect(hits[0].inner_hits.by_s.hits.total).toBe(3);
    expect(hits[0].inner_hits.by_s.hits.hits.map((h: { _id: string }) => h._id)).toEqual([
      '2',
      '1',
    ]);
    expect(hits[0].inner_hits.by_s.hits.hits[0]).toMatchObject({ _version: 1, sort: [6] });
    expect(hits[0].inner_hits.by_s.hits.hits[0]._source).toBeUndefined();
    expect(hits[1].inner_hits.by_k.hits.hits).toHaveLength(1);
  });

  it('fails on every shard with scroll, search_after or rescore', async () => {
    const r = await req('POST', '/groups/_search?scroll=1m', { collapse: { field: 'g' } });
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('search_phase_execution_exception');
    expect(r.json.error.root_cause[0]).toEqual({
      type: 'search_context_exception',
      reason: 'cannot use `collapse` in a scroll context',
    });
    const k = await req('POST', '/groups/_search', { collapse: { field: 't' } });
    expect(k.json.error.root_cause[0].reason).toBe(
      'unknown type for collapse field `t`, only keywords and numbers are accepted',
    );
  });
});

describe('rescore', () => {
  it('rescores the window and explains the combined score', async () => {
    const r = await req('POST', '/groups/_search', {
      explain: true,
      query: { match: { t: 'fox' } },
      rescore: {
        window_size: 3,
        query: {
          rescore_query: { constant_score: { filter: { term: { k: 'c' } }, boost: 100 } },
          query_weight: 0.5,
          rescore_query_weight: 2,
        },
      },
    });
    const hits = r.json.hits.hits as Array<{
      _id: string;
      _score: number;
      _explanation: { value: number; description: string };
    }>;
    expect(hits).toHaveLength(5);
    for (const h of hits) expect(h._explanation.value).toBeCloseTo(h._score, 5);
    // a `k: c` doc in the window gains 200 points
    expect(hits[0]!._score).toBeGreaterThan(200);
    expect(hits[0]!._explanation.description).toBe('sum of:');
    expect(hits.at(-1)!._explanation.description).toBe('product of:');
  });

  it('rejects a sort and windows past index.max_rescore_window', async () => {
    const s = await req('POST', '/groups/_search', {
      sort: ['s'],
      rescore: { query: { rescore_query: { match_all: {} } } },
    });
    expect(s.json.error.root_cause[0]).toEqual({
      type: 'query_phase_execution_exception',
      reason: 'Cannot use [sort] option in conjunction with [rescore].',
    });
    const w = await req('POST', '/groups/_search', {
      rescore: { window_size: 10001, query: { rescore_query: { match_all: {} } } },
    });
    expect(w.json.error.root_cause[0].reason).toMatch(/^Rescore window \[10001\] is too large/);
  });
});

describe('_ignored, exists on geo_shape, _id sort', () => {
  it('returns and searches the fields skipped as malformed', async () => {
    const r = await req('POST', '/groups/_search', { query: { term: { _ignored: 'd' } } });
    expect(
      r.json.hits.hits.map((h: { _id: string; _ignored: string[] }) => [h._id, h._ignored]),
    ).toEqual([['2', ['d']]]);
    const e = await req('POST', '/groups/_search', { query: { exists: { field: '_ignored' } } });
    expect(e.json.hits.total).toBe(1);
  });

  it('finds geo_shape values with exists', async () => {
    const r = await req('POST', '/groups/_search', { query: { exists: { field: 'shape' } } });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['4']);
  });

  it('sorts on _id as strings and pages with search_after', async () => {
    const body = { size: 2, sort: [{ _id: 'desc' }], _source: false };
    const a = await req('POST', '/groups/_search', body);
    expect(a.json.hits.hits.map((h: { sort: unknown }) => h.sort)).toEqual([['6'], ['5']]);
    const b = await req('POST', '/groups/_search', { ...body, search_after: ['5'] });
    expect(b.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['4', '3']);
  });
});

describe('docvalue_fields', () => {
  it('formats per mapping or explicit format, warning only for fields without one', async () => {
    const r = await req('POST', '/groups/_search', {
      query: { ids: { values: ['1'] } },
      docvalue_fields: [
        'g',
        { field: 'd', format: 'use_field_mapping' },
        { field: 's', format: '#.00' },
        'k',
      ],
    });
    expect(r.json.hits.hits[0].fields).toEqual({
      g: [1],
      d: ['2018-01-01T00:00:00.000Z'],
      s: ['10.00'],
      k: ['a'],
    });
    expect(warningsOf(r.headers)).toEqual([
      'There are doc-value fields which are not using a format. The output will change in 7.0 when doc value fields get formatted based on mappings by default. It is recommended to pass [format=use_field_mapping] with a doc value field in order to opt in for the future behaviour and ease the migration to 7.0: [g, k]',
    ]);
    const l = await req('POST', '/groups/_search', {
      query: { ids: { values: ['1'] } },
      docvalue_fields: ['d'],
    });
    expect(l.json.hits.hits[0].fields).toEqual({ d: ['2018-01-01T00:00:00.000Z'] });
  });
});

describe('stored_fields', () => {
  it('expands patterns and shows stored values as the mapping does', async () => {
    await req('PUT', '/stored', {
      mappings: {
        doc: {
          properties: {
            day: { type: 'date', store: true },
            num: { type: 'integer', store: true },
            kw: { type: 'keyword', store: true },
            plain: { type: 'keyword' },
            obj: { properties: { x: { type: 'keyword', store: true } } },
          },
        },
      },
    });
    await req('PUT', '/stored/doc/1?refresh=true', {
      day: '2018-05-11',
      num: '7',
      kw: ['a', 'b'],
      plain: 'p',
      obj: { x: 'y' },
    });
    const r = await req('POST', '/stored/_search', {
      stored_fields: ['d*', 'num', 'kw', 'plain', 'obj.*'],
    });
    expect(r.json.hits.hits[0]._source).toBeUndefined();
    expect(r.json.hits.hits[0].fields).toEqual({
      day: ['2018-05-11T00:00:00.000Z'],
      num: [7],
      kw: ['a', 'b'],
      'obj.x': ['y'],
    });
    const none = await req('POST', '/stored/_search', { stored_fields: '_none_' });
    expect(Object.keys(none.json.hits.hits[0])).toEqual(['_index', '_score']);
  });
});

describe('script_fields', () => {
  it('computes fields from doc values and params._source, without the source by default', async () => {
    const r = await req('POST', '/groups/_search', {
      query: { ids: { values: ['2'] } },
      script_fields: {
        twice: { script: "doc['g'].value * 2" },
        key: { script: { source: 'params._source.k + params.s', params: { s: '!' } } },
      },
    });
    expect(r.json.hits.hits[0]).toMatchObject({ _id: '2', fields: { twice: [2], key: ['b!'] } });
    expect(r.json.hits.hits[0]._source).toBeUndefined();
  });

  it('reports a failing fetch per shard and leaves those hits out', async () => {
    const r = await req('POST', '/groups/_search', {
      query: { ids: { values: ['2'] } },
      script_fields: { bad: { script: "doc['nope'].value" } },
    });
    expect(r.status).toBe(200);
    expect(r.json._shards).toMatchObject({ total: 5, successful: 4, failed: 1 });
    expect(r.json._shards.failures[0].reason.type).toBe('script_exception');
    expect(r.json.hits).toMatchObject({ total: 1, hits: [] });
    const ok = await req('POST', '/groups/_search', {
      query: { ids: { values: ['2'] } },
      script_fields: { bad: { script: "doc['nope'].value", ignore_failure: true } },
    });
    expect(ok.json.hits.hits[0].fields).toBeUndefined();
  });
});

describe('indices_boost', () => {
  beforeAll(async () => {
    for (const i of ['boost_1', 'boost_2'])
      await req('PUT', `/${i}`, { aliases: { [`${i}_alias`]: {} } });
    await bulk([
      { index: { _index: 'boost_1', _type: 'doc', _id: '1' } },
      { foo: 'bar' },
      { index: { _index: 'boost_2', _type: 'doc', _id: '1' } },
      { foo: 'bar' },
    ]);
  });
  const order = async (boost: unknown, params = '') => {
    const r = await req('POST', `/boost_*/_search${params}`, { indices_boost: boost });
    return r;
  };
  it('boosts concrete indices, aliases and patterns; the first match wins', async () => {
    const idx = (r: { json: { hits: { hits: Array<{ _index: string; _score: number }> } } }) =>
      r.json.hits.hits.map((h) => [h._index, h._score]);
    expect(idx(await order([{ boost_2_alias: 3 }]))).toEqual([
      ['boost_2', 3],
      ['boost_1', 1],
    ]);
    expect(idx(await order([{ '*_1': 4 }, { boost_1: 0.5 }, { boost_2: 2 }]))).toEqual([
      ['boost_1', 4],
      ['boost_2', 2],
    ]);
    const o = await order({ boost_1: 2 });
    expect(warningsOf(o.headers)).toEqual([
      'Object format in indices_boost is deprecated, please use array format instead',
    ]);
  });
  it('fails on an unknown index unless ignore_unavailable', async () => {
    expect((await order([{ nope: 2 }])).status).toBe(404);
    expect((await order([{ nope: 2 }], '?ignore_unavailable=true')).status).toBe(200);
  });
});

describe('scroll', () => {
  it('splits a sliced scroll into disjoint parts covering every doc', async () => {
    const seen: string[] = [];
    for (const id of [0, 1, 2]) {
      const r = await req('POST', '/groups/_search?scroll=1m', {
        size: 10,
        slice: { id, max: 3 },
        _source: false,
      });
      expect(r.status).toBe(200);
      seen.push(...r.json.hits.hits.map((h: { _id: string }) => h._id));
      await req('DELETE', '/_search/scroll', { scroll_id: r.json._scroll_id });
    }
    expect(seen.sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    const out = await req('POST', '/groups/_search', { slice: { id: 0, max: 2 } });
    expect(out.json.error.root_cause[0].reason).toBe(
      '`slice` cannot be used outside of a scroll context',
    );
  });

  it('validates scroll requests and keep alives', async () => {
    const z = await req('POST', '/groups/_search?scroll=1m&request_cache=true', { size: 0 });
    expect(z.json.error).toMatchObject({
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: [size] cannot be [0] in a scroll context;',
    });
    await req('PUT', '/_cluster/settings', { transient: { 'search.max_keep_alive': '1m' } });
    try {
      const big = await req('POST', '/groups/_search?scroll=2m', {});
      expect(big.json.error.root_cause[0].reason).toBe(
        'Keep alive for scroll (2m) is too large. It must be less than (1m). This limit can be set by changing the [search.max_keep_alive] cluster level setting.',
      );
      const ok = await req('POST', '/groups/_search?scroll=1m&size=1', {});
      expect(ok.status).toBe(200);
      const next = await req('POST', '/_search/scroll', {
        scroll_id: ok.json._scroll_id,
        scroll: '3m',
      });
      expect(next.status).toBe(500);
      expect(next.json.error.root_cause[0].reason).toMatch(
        /^Keep alive for scroll \(3m\) is too large/,
      );
    } finally {
      await req('PUT', '/_cluster/settings', { transient: { 'search.max_keep_alive': null } });
    }
  });

  it('clears the scroll ids of the body, not those of the URL', async () => {
    const s = await req('POST', '/groups/_search?scroll=1m', {});
    const c = await req('DELETE', '/_search/scroll/not-a-scroll', {
      scroll_id: [s.json._scroll_id],
    });
    expect(c.json).toEqual({ succeeded: true, num_freed: 1 });
  });
});

describe('shard pre-filter and reduce phases', () => {
  beforeAll(async () => {
    for (const i of ['pf_1', 'pf_2', 'pf_3'])
      await req('PUT', `/${i}`, {
        settings: { number_of_shards: 1 },
        mappings: { doc: { properties: { at: { type: 'date', format: 'yyyy-MM-dd' } } } },
      });
    await bulk([
      { index: { _index: 'pf_1', _type: 'doc', _id: '1' } },
      { at: '2016-01-01' },
      { index: { _index: 'pf_2', _type: 'doc', _id: '2' } },
      { at: '2017-01-01' },
      { index: { _index: 'pf_3', _type: 'doc', _id: '3' } },
      { at: '2018-01-01' },
    ]);
  });
  const q = { size: 0, query: { range: { at: { gte: '2016-02-01', lt: '2018-02-01' } } } };
  it('skips shards whose date range cannot match, never all of them', async () => {
    const a = await req('POST', '/pf_*/_search?pre_filter_shard_size=1', q);
    expect(a.json._shards).toEqual({ total: 3, successful: 3, skipped: 1, failed: 0 });
    expect(a.json.hits.total).toBe(2);
    const none = await req('POST', '/pf_*/_search?pre_filter_shard_size=1', {
      size: 0,
      query: { range: { at: { gte: '2020-01-01' } } },
    });
    expect(none.json._shards.skipped).toBe(2);
    const dflt = await req('POST', '/pf_*/_search', q);
    expect(dflt.json._shards.skipped).toBe(0);
    const bad = await req('POST', '/pf_*/_search?pre_filter_shard_size=0', q);
    expect(bad.json.error.reason).toBe('preFilterShardSize must be >= 1');
  });
  it('reports num_reduce_phases for batched reduces', async () => {
    const r = await req('POST', '/groups,pf_*/_search?batched_reduce_size=2', {
      size: 0,
      aggs: { k: { terms: { field: 'k' } } },
    });
    // 8 shard results, buffer of 2: six partial reduces plus the final one
    expect(r.json.num_reduce_phases).toBe(7);
    expect(r.json.aggregations.k.buckets.map((b: { key: string }) => b.key)).toEqual([
      'a',
      'b',
      'c',
    ]);
    const plain = await req('POST', '/groups/_search', { size: 0 });
    expect(plain.json.num_reduce_phases).toBeUndefined();
  });
});

describe('suggesters', () => {
  it('answers term, phrase and completion suggestions with typed keys', async () => {
    const body = [
      { index: 'groups' },
      {
        size: 0,
        suggest: {
          t: { text: 'quikc lazzy', term: { field: 't' } },
          // confidence 0: no cutoff (each shard's input score would otherwise bound the merge)
          p: { text: 'quikc fox', phrase: { field: 't', confidence: 0 } },
          c: { prefix: 'doc', completion: { field: 'title' } },
        },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const r = await req('POST', '/_msearch?typed_keys=true', body + '\n');
    const s = r.json.responses[0].suggest;
    expect(Object.keys(s)).toEqual(['completion#c', 'phrase#p', 'term#t']);
    expect(
      s['term#t'].map((e: { text: string; options: Array<{ text: string }> }) => [
        e.text,
        e.options.map((o) => o.text),
      ]),
    ).toEqual([
      ['quikc', ['quick']],
      ['lazzy', ['lazy']],
    ]);
    expect(s['term#t'][1]).toMatchObject({ offset: 6, length: 5 });
    // without a cutoff the unchanged input competes too
    expect(s['phrase#p'][0].options.map((o: { text: string }) => o.text)).toContain('quick fox');
    expect(
      s['completion#c'][0].options.map((o: { text: string; _id: string; _score: number }) => [
        o.text,
        o._id,
        o._score,
      ]),
    ).toEqual([
      ['docker', '2', 4],
      ['doctor', '1', 1],
    ]);
    expect(s['completion#c'][0].options[0]._source.k).toBe('b');
  });
});

describe('index expressions', () => {
  it('resolves date math in index names and rejects closed indices matched by wildcards', async () => {
    const r = await req('GET', '/%3Clogs-%7Bnow%2Fd%7D%3E/_search');
    expect(r.status).toBe(404);
    expect(r.json.error.index).toMatch(/^logs-\d{4}\.\d{2}\.\d{2}$/);
    await req('PUT', '/closed_one');
    await req('POST', '/closed_one/_close');
    const c = await req('GET', '/closed_*/_search?expand_wildcards=open,closed');
    expect(c.json.error.type).toBe('index_closed_exception');
    const ok = await req('GET', '/closed_*/_search');
    expect(ok.json.hits.total).toBe(0);
  });
});
