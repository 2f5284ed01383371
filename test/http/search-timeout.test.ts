/**
 * The search `timeout` over HTTP as ES 6.8 answers it, with the node's search clock injected so
 * that expiry is forced, never timed: a passed deadline gives `timed_out: true` with the hits and
 * aggregations of the docs collected so far (the shards still successful); a timeout that does
 * not pass, or none, gives the same answer as before; `?timeout=`, msearch items, the default
 * `search.default_search_timeout` (cluster setting and `-E`), `_count`, scrolls (no timeout),
 * `allow_partial_search_results=false`, the request cache, SQL aggregations (page_timeout) and
 * ES's errors for bad values.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const N = 6000;
const KEYS = ['a', 'b', 'c', 'd'];

/** Every read is a second after the previous one: any timeout under 1s passes at once. */
function lateClock(): () => number {
  let now = 0;
  return () => (now += 1000);
}

/** The clock stands still for `reads` reads (the first sets the deadline), then jumps. */
function clockPassingAfter(reads: number): () => number {
  let n = 0;
  return () => (n++ < reads ? 0 : 1e9);
}

const search = (body: unknown, path = '/t/_search') => node.req('POST', path, body);

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/t', {
    settings: { number_of_shards: 1, refresh_interval: -1 },
    mappings: {
      doc: { properties: { k: { type: 'keyword' }, n: { type: 'long' }, t: { type: 'text' } } },
    },
  });
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    lines.push(JSON.stringify({ index: { _id: String(i) } }));
    const words = i % 3 === 0 ? 'quick brown fox' : i % 3 === 1 ? 'lazy brown dog' : 'quick cat';
    lines.push(JSON.stringify({ k: KEYS[i % 4], n: i, t: words }));
  }
  const r = await node.req('POST', '/t/doc/_bulk?refresh=true', lines.join('\n') + '\n', {
    'content-type': 'application/x-ndjson',
  });
  expect(r.json.errors).toBe(false);
});
afterAll(async () => {
  await node.destroy();
});
afterEach(async () => {
  delete node.context.searchClock;
  await node.req('PUT', '/_cluster/settings', {
    transient: {
      'search.default_search_timeout': null,
      'search.default_allow_partial_results': null,
    },
    persistent: { 'search.default_search_timeout': null },
  });
});

const QUERIES: Record<string, unknown> = {
  match: { query: { match: { t: 'quick fox' } }, size: 5 },
  bool_range: {
    query: {
      bool: { must: { match: { t: 'brown' } }, filter: { range: { n: { gte: 100, lt: 4000 } } } },
    },
    size: 5,
  },
  terms_agg: {
    size: 0,
    aggs: { by_k: { terms: { field: 'k' }, aggs: { s: { sum: { field: 'n' } } } } },
  },
  sorted: { query: { term: { k: 'b' } }, sort: [{ n: 'desc' }], size: 3 },
};

/** The response without `took`. */
const answer = (j: Record<string, unknown>) => ({ ...j, took: 0 });

describe('timeouts that do not pass', () => {
  it('give the same answer as no timeout, with timed_out false', async () => {
    for (const [name, q] of Object.entries(QUERIES)) {
      const plain = await search(q);
      expect(plain.status, name).toBe(200);
      expect(plain.json.timed_out).toBe(false);
      const body = await search({ ...(q as object), timeout: '1h' });
      expect(answer(body.json), name).toEqual(answer(plain.json));
      const param = await search(q, '/t/_search?timeout=10m');
      expect(answer(param.json), name).toEqual(answer(plain.json));
      // -1 is no timeout, even with a clock that is always late
      node.context.searchClock = lateClock();
      const none = await search({ ...(q as object), timeout: '-1' });
      expect(answer(none.json), name).toEqual(answer(plain.json));
      delete node.context.searchClock;
    }
  });
});

describe('a timeout that passes', () => {
  it('answers timed_out with a well-formed empty response when it passes at once', async () => {
    node.context.searchClock = lateClock();
    const r = await search({ ...(QUERIES.terms_agg as object), timeout: '10ms' });
    expect(r.status).toBe(200);
    expect(answer(r.json)).toEqual({
      took: 0,
      timed_out: true,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: { total: 0, max_score: 0, hits: [] },
      aggregations: {
        by_k: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] },
      },
    });
    const hits = await search({ ...(QUERIES.match as object), timeout: '10ms' });
    expect(hits.json).toMatchObject({
      timed_out: true,
      hits: { total: 0, max_score: null, hits: [] },
    });
  });

  it('keeps the hits and aggregations of the docs collected before', async () => {
    const full = await search(QUERIES.terms_agg);
    // reads: the deadline, the segment, the first batch; the second batch finds it passed
    node.context.searchClock = clockPassingAfter(3);
    const r = await search({ ...(QUERIES.terms_agg as object), timeout: '1s' });
    expect(r.json.timed_out).toBe(true);
    const total = r.json.hits.total as number;
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(full.json.hits.total);
    const buckets = r.json.aggregations.by_k.buckets as Array<{ doc_count: number }>;
    expect(buckets.reduce((a, b) => a + b.doc_count, 0)).toBe(total);

    node.context.searchClock = clockPassingAfter(3);
    const m = await search({ ...(QUERIES.match as object), timeout: '1s' });
    expect(m.json.timed_out).toBe(true);
    expect(m.json.hits.hits.length).toBe(5);
    expect(m.json.hits.total).toBeLessThan((await search(QUERIES.match)).json.hits.total);
  });

  it('applies to msearch items, each with its own timeout', async () => {
    node.context.searchClock = lateClock();
    const lines = [{}, { ...(QUERIES.match as object), timeout: '5ms' }, {}, QUERIES.match];
    const r = await node.req(
      'POST',
      '/t/_msearch',
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
      {
        'content-type': 'application/x-ndjson',
      },
    );
    expect(r.json.responses.map((x: { timed_out: boolean }) => x.timed_out)).toEqual([true, false]);
    // a timeout in the header is not read (ES reads none there)
    const h = await node.req(
      'POST',
      '/t/_msearch',
      [{ timeout: '5ms' }, QUERIES.match].map((l) => JSON.stringify(l)).join('\n') + '\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(h.json.responses[0].timed_out).toBe(false);
  });

  it('does not apply to scrolls', async () => {
    node.context.searchClock = lateClock();
    const r = await search(
      { ...(QUERIES.match as object), timeout: '5ms' },
      '/t/_search?scroll=1m',
    );
    expect(r.json.timed_out).toBe(false);
    expect(r.json.hits.hits.length).toBe(5);
  });

  it('is not cached by the request cache', async () => {
    const q = { size: 0, query: { term: { k: 'c' } }, timeout: '50ms' };
    node.context.searchClock = lateClock();
    expect((await search(q)).json).toMatchObject({ timed_out: true, hits: { total: 0 } });
    delete node.context.searchClock;
    expect((await search(q)).json).toMatchObject({ timed_out: false, hits: { total: N / 4 } });
  });

  it('fails the shard with allow_partial_search_results=false', async () => {
    node.context.searchClock = lateClock();
    const r = await search(
      { ...(QUERIES.match as object), timeout: '5ms' },
      '/t/_search?allow_partial_search_results=false',
    );
    expect(r.status).toBe(500);
    expect(r.json.error).toMatchObject({
      root_cause: [{ type: 'query_phase_execution_exception', reason: 'Time exceeded' }],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      phase: 'query',
      grouped: true,
      failed_shards: [
        {
          shard: 0,
          index: 't',
          reason: {
            type: 'query_phase_execution_exception',
            reason: 'Query Failed [Failed to execute main query]',
            caused_by: { type: 'query_phase_execution_exception', reason: 'Time exceeded' },
          },
        },
      ],
      caused_by: { type: 'query_phase_execution_exception', reason: 'Time exceeded' },
    });
  });

  it('fails the search when some shards fail and partial results are not allowed', async () => {
    // two shards, only the first holds docs: the empty one never checks the deadline
    await node.req('PUT', '/two', { settings: { number_of_shards: 2 } });
    await node.req('POST', '/two/doc/1?refresh=true&routing=r', { t: 'quick' });
    node.context.searchClock = lateClock();
    const ok = await search({ query: { match: { t: 'quick' } }, timeout: '5ms' }, '/two/_search');
    expect(ok.json).toMatchObject({
      timed_out: true,
      _shards: { total: 2, successful: 2, failed: 0 },
    });
    await node.req('PUT', '/_cluster/settings', {
      transient: { 'search.default_allow_partial_results': false },
    });
    const r = await search({ query: { match: { t: 'quick' } }, timeout: '5ms' }, '/two/_search');
    expect(r.status).toBe(500);
    expect(r.json.error).toMatchObject({
      root_cause: [{ type: 'query_phase_execution_exception', reason: 'Time exceeded' }],
      type: 'search_phase_execution_exception',
      reason: 'Partial shards failure',
      phase: 'query',
    });
    expect(r.json.error.caused_by).toBeUndefined();
    // the request overrides the cluster default
    const p = await search(
      { query: { match: { t: 'quick' } }, timeout: '5ms' },
      '/two/_search?allow_partial_search_results=true',
    );
    expect(p.json.timed_out).toBe(true);
    await node.req('DELETE', '/two');
  });
});

describe('search.default_search_timeout', () => {
  it('applies when the request sets none, and -1 resets it', async () => {
    node.context.searchClock = lateClock();
    expect((await search(QUERIES.match)).json.timed_out).toBe(false);
    for (const scope of ['transient', 'persistent']) {
      const put = await node.req('PUT', '/_cluster/settings', {
        [scope]: { search: { default_search_timeout: '20ms' } },
      });
      expect(put.json[scope]).toEqual({ search: { default_search_timeout: '20ms' } });
      expect((await search(QUERIES.match)).json.timed_out).toBe(true);
      // the request's own timeout wins, and -1 is none
      expect((await search({ ...(QUERIES.match as object), timeout: '-1' })).json.timed_out).toBe(
        false,
      );
      expect((await search(QUERIES.match, '/t/_search?timeout=1h')).json.timed_out).toBe(false);
      // a count runs as a size-0 search with the default timeout: the count so far, no flag
      const c = await node.req('GET', '/t/_count');
      expect(c.json).toEqual({
        count: 0,
        _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      });
      await node.req('PUT', '/_cluster/settings', {
        [scope]: { 'search.default_search_timeout': '-1' },
      });
      expect((await search(QUERIES.match)).json.timed_out).toBe(false);
      expect((await node.req('GET', '/t/_count')).json.count).toBe(N);
      await node.req('PUT', '/_cluster/settings', {
        [scope]: { 'search.default_search_timeout': null },
      });
    }
    const defaults = await node.req('GET', '/_cluster/settings?include_defaults&flat_settings');
    expect(defaults.json.defaults['search.default_search_timeout']).toBe('-1');
  });

  it('rejects values that are no time values, and stores nothing then', async () => {
    for (const [value, reason] of [
      [
        'foo',
        'failed to parse setting [search.default_search_timeout] with value [foo] as a time value: unit is missing or unrecognized',
      ],
      [
        '-5s',
        'failed to parse setting [search.default_search_timeout] with value [-5s] as a time value: negative durations are not supported',
      ],
    ]) {
      const r = await node.req('PUT', '/_cluster/settings', {
        persistent: { 'search.max_buckets': 5000 },
        transient: { 'search.default_search_timeout': value },
      });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        error: {
          root_cause: [{ type: 'illegal_argument_exception', reason }],
          type: 'illegal_argument_exception',
          reason,
        },
        status: 400,
      });
    }
    const s = await node.req('GET', '/_cluster/settings');
    expect(s.json).toEqual({ persistent: {}, transient: {} });
  });

  it('is read from the node settings (-E), which a bad value keeps from starting', async () => {
    const other = await startTestNode(undefined, { 'search.default_search_timeout': '10ms' });
    try {
      await other.req('PUT', '/x/doc/1?refresh=true', { t: 'quick' });
      other.context.searchClock = lateClock();
      expect(
        (await other.req('POST', '/x/_search', { query: { match: { t: 'quick' } } })).json
          .timed_out,
      ).toBe(true);
      // the cluster setting overrides the node's
      await other.req('PUT', '/_cluster/settings', {
        transient: { 'search.default_search_timeout': '-1' },
      });
      expect((await other.req('POST', '/x/_search', {})).json.timed_out).toBe(false);
    } finally {
      await other.destroy();
    }
    const dir = mkdtempSync(join(tmpdir(), 'quarry-test-'));
    try {
      await expect(startTestNode(dir, { 'search.default_search_timeout': 'soon' })).rejects.toThrow(
        'failed to parse setting [search.default_search_timeout] with value [soon] as a time value: unit is missing or unrecognized',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bad timeout values', () => {
  const illegal = (reason: string, causedBy?: unknown) => ({
    error: {
      root_cause: [{ type: 'illegal_argument_exception', reason }],
      type: 'illegal_argument_exception',
      reason,
      ...(causedBy ? { caused_by: causedBy } : {}),
    },
    status: 400,
  });
  const unitMissing = (v: string) =>
    `failed to parse setting [timeout] with value [${v}] as a time value: unit is missing or unrecognized`;

  it("answer ES's errors, in the body and in the URL", async () => {
    expect((await search({ timeout: 'foo' })).json).toEqual(illegal(unitMissing('foo')));
    // a number is read as its text: no unit
    expect((await search({ timeout: 10 })).json).toEqual(illegal(unitMissing('10')));
    expect((await search({ timeout: '1.5s' })).json).toEqual(
      illegal('failed to parse [1.5s], fractional time values are not supported', {
        type: 'number_format_exception',
        reason: 'For input string: "1.5"',
      }),
    );
    expect((await search({ timeout: '-2ms' })).json).toEqual(
      illegal(
        'failed to parse setting [timeout] with value [-2ms] as a time value: negative durations are not supported',
      ),
    );
    expect((await search({}, '/t/_search?timeout=abc')).json).toEqual(illegal(unitMissing('abc')));
    expect((await search({}, '/t/_search?timeout=')).json).toEqual(illegal(unitMissing('')));
    const obj = await search({ timeout: { ms: 5 } });
    expect(obj.status).toBe(400);
    expect(obj.json.error).toMatchObject({
      type: 'parsing_exception',
      reason: 'Unknown key for a START_OBJECT in [timeout].',
    });
    const bad = await search({}, '/t/_search?allow_partial_search_results=maybe');
    expect(bad.json).toEqual(
      illegal('Failed to parse value [maybe] as only [true] or [false] are allowed.'),
    );
  });
});

describe('SQL', () => {
  it('gives aggregation searches page_timeout as their timeout, without partial results', async () => {
    node.context.searchClock = lateClock();
    const agg = await node.req('POST', '/_sql', {
      query: 'SELECT k, COUNT(*) FROM t GROUP BY k',
      page_timeout: '100ms',
    });
    expect(agg.status).toBe(500);
    expect(agg.json.error).toMatchObject({
      root_cause: [{ type: 'query_phase_execution_exception', reason: 'Time exceeded' }],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
    });
    // the hit searches are scrolls in ES 7.10: no timeout
    const hits = await node.req('POST', '/_sql', {
      query: 'SELECT k FROM t LIMIT 3',
      page_timeout: '100ms',
    });
    expect(hits.status).toBe(200);
    expect(hits.json.rows.length).toBe(3);
    delete node.context.searchClock;
    const ok = await node.req('POST', '/_sql', {
      query: 'SELECT k, COUNT(*) AS c FROM t GROUP BY k',
    });
    expect(ok.json.rows).toEqual(KEYS.map((k) => [k, N / 4]));
  });
});
