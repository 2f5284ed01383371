/**
 * Shard request cache policy (ES IndicesService.canCache), the copy-in/copy-out of results and
 * the per-request terms lookup memo.
 */
import { describe, expect, it } from 'vitest';
import { parseSearchBody } from '../../../../src/dsl/search/request.js';
import {
  cloneValue,
  estimateBytes,
  immutables,
  isDeterministic,
  requestMayCache,
} from '../../../../src/dsl/search/shard-request-cache.js';
import type { ShardTarget } from '../../../../src/dsl/search/execute.js';
import { termsLookupOnce } from '../../../../src/dsl/query/terms-lookup-once.js';
import { buildIndex } from '../aggs/helpers/shards.js';

describe('requestMayCache', () => {
  it('caches size 0 by the index setting, any size when request_cache=true', () => {
    expect(
      requestMayCache(parseSearchBody({ size: 0 }), 'query_then_fetch', false, undefined),
    ).toBe('by-index-setting');
    expect(requestMayCache(parseSearchBody({}), 'query_then_fetch', false, undefined)).toBe(false);
    expect(requestMayCache(parseSearchBody({ size: 5 }), 'query_then_fetch', false, 'true')).toBe(
      true,
    );
    expect(requestMayCache(parseSearchBody({ size: 0 }), 'query_then_fetch', false, 'false')).toBe(
      false,
    );
  });

  it('never caches scrolls or dfs searches', () => {
    const r = parseSearchBody({ size: 0 });
    expect(requestMayCache(r, 'dfs_query_then_fetch', false, 'true')).toBe(false);
    expect(requestMayCache(r, 'query_then_fetch', true, 'true')).toBe(false);
  });

  it('does not cache requests reading now or running scripts', () => {
    expect(isDeterministic(parseSearchBody({ query: { range: { d: { gte: 'now-1d' } } } }))).toBe(
      false,
    );
    expect(
      isDeterministic(
        parseSearchBody({ aggs: { a: { terms: { script: { source: 'doc.x.value' } } } } }),
      ),
    ).toBe(false);
    expect(isDeterministic(parseSearchBody({ query: { term: { s: 'snow' } } }))).toBe(true);
    // ES caches top_hits; its script_fields and script sorts compile scripts (not cacheable)
    const top = (th: object) => parseSearchBody({ aggs: { t: { top_hits: th } } });
    expect(isDeterministic(top({ size: 1, sort: ['n'], explain: true }))).toBe(true);
    expect(
      isDeterministic(top({ script_fields: { f: { script: { source: 'doc.n.value' } } } })),
    ).toBe(false);
    expect(isDeterministic(top({ sort: { _script: { type: 'number', script: 'x' } } }))).toBe(
      false,
    );
    expect(
      requestMayCache(
        parseSearchBody({ size: 0, query: { range: { d: { lt: 'now' } } } }),
        'query_then_fetch',
        false,
        'true',
      ),
    ).toBe(false);
  });
});

describe('cloneValue / estimateBytes', () => {
  class Box {
    constructor(
      public xs: number[],
      public node: object,
    ) {}
    sum() {
      return this.xs.reduce((a, b) => a + b, 0);
    }
  }
  it('deep-copies with prototypes and typed arrays, sharing request nodes', () => {
    const node = { type: 'terms' };
    const v = {
      list: [new Box([1, 2], node)],
      counts: new Int32Array([3, 4]),
      m: new Map([[1, 'a']]),
    };
    const c = cloneValue(v, new Map());
    expect(c.list[0]).toBeInstanceOf(Box);
    expect(c.list[0]!.sum()).toBe(3);
    expect(c.list[0]!.node).toBe(node);
    c.list[0]!.xs.push(10);
    c.counts[0] = 99;
    expect(v.list[0]!.xs).toEqual([1, 2]);
    expect(v.counts[0]).toBe(3);
    expect(c.m.get(1)).toBe('a');
    expect(c.m).not.toBe(v.m);
  });
  it("keeps the shard and its reader's segments by reference", () => {
    const docs = Array.from({ length: 200 }, (_, i) => ({ k: `v${i}`, kids: [{ name: `n${i}` }] }));
    const index = buildIndex({ k: 'keyword', kids: { nested: { name: 'keyword' } } }, docs);
    const snapshot = index.shards[0]!.searcher();
    const t = { idx: {}, shard: {}, snapshot, shardIndex: 3 } as unknown as ShardTarget;
    const ls = snapshot.segments[0]!;
    const block = ls.segment.nested.get('kids')!;
    // a nested top_hits hit: its segment is a view of the nested block, its parent the root
    const hit = {
      segment: { segment: block.segment, live: null, deleted: 0, docBase: 0 },
      doc: 5,
      sort: [5],
      nested: { field: 'kids', offset: 0, parentSegment: ls, parentDoc: 5 },
      origin: t.shard,
    };
    const result = { aggs: [{ name: 'top', hits: [hit] }] };
    const c = cloneValue(result, immutables(t));
    const h = c.aggs[0]!.hits[0]!;
    expect(h).not.toBe(hit);
    expect(h.sort).not.toBe(hit.sort);
    expect(h.segment.segment).toBe(block.segment);
    expect(h.nested.parentSegment).toBe(ls);
    expect(h.origin).toBe(t.shard);
    // the result's own bytes, not the segments'
    expect(estimateBytes(result, new Set(immutables(t).keys()))).toBeLessThan(1000);
    expect(estimateBytes(result, new Set())).toBeGreaterThan(10_000);
  });
  it('estimates more bytes for bigger values', () => {
    expect(estimateBytes({ a: new Float64Array(100) }, new Set())).toBeGreaterThan(800);
    expect(estimateBytes('abcd', new Set())).toBeLessThan(estimateBytes('abcdefgh', new Set()));
  });
});

describe('termsLookupOnce', () => {
  it('fetches each lookup once per request and remembers failures', () => {
    let calls = 0;
    const once = termsLookupOnce((index, _t, id) => {
      calls++;
      if (index === 'missing') throw new Error('no such index');
      return [id];
    });
    expect(once.lookup('i', 'doc', '1', 'f', null)).toEqual(['1']);
    expect(once.lookup('i', 'doc', '1', 'f', null)).toEqual(['1']);
    expect(once.lookup('i', 'doc', '2', 'f', null)).toEqual(['2']);
    expect(() => once.lookup('missing', 'doc', '1', 'f', null)).toThrow('no such index');
    expect(() => once.lookup('missing', 'doc', '1', 'f', null)).toThrow('no such index');
    expect(calls).toBe(3);
    expect(once.resolved().map((r) => r.values)).toEqual([['1'], ['2']]);
  });
});
