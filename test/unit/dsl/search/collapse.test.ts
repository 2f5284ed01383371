/**
 * Field collapsing: CollapseBuilder / InnerHitBuilder parsing and errors, the shard collector's
 * top groups (FirstPassGroupingCollector semantics), the coordinator's de-duplication with
 * from/size, and the group search body ExpandSearchPhase sends.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { collectTopDocs, type CollectedHit } from '../../../../src/search/collect/top-docs.js';
import { dedupCollapsed, GroupQueue } from '../../../../src/search/collect/collapse.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import type { SortKey } from '../../../../src/search/collect/sort.js';
import { groupSearchBody, parseCollapse } from '../../../../src/dsl/search/collapse.js';
import { Bench, chain } from '../query/harness.js';

const errChain = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
};

describe('parseCollapse', () => {
  it('reads field, max_concurrent_group_searches and one or many inner_hits', () => {
    const c = parseCollapse({
      field: 'g',
      max_concurrent_group_searches: 4,
      inner_hits: [
        { name: 'a', size: 2, sort: [{ s: 'asc' }], version: true },
        { name: 'b', from: 1, _source: false, collapse: { field: 'h' } },
      ],
    });
    expect(c.field).toBe('g');
    expect(c.maxConcurrentGroupSearches).toBe(4);
    expect(c.innerHits.map((h) => [h.name, h.from, h.size, h.version, h.collapseField])).toEqual([
      ['a', 0, 2, true, null],
      ['b', 1, 3, false, 'h'],
    ]);
    expect(c.innerHits[0]!.sort![0]!.field).toBe('s');
    expect(c.innerHits[1]!.source).toBeNull();
    expect(parseCollapse({ field: 'g', inner_hits: { name: 'x' } }).innerHits).toHaveLength(1);
  });

  it('rejects a second-level collapse carrying inner_hits or another collapse', () => {
    const wrapped = [
      ['x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      ['x_content_parse_exception', '[inner_hits] failed to parse field [collapse]'],
      ['parsing_exception', 'Invalid token in the inner collapse'],
    ];
    expect(
      errChain(() =>
        parseCollapse({
          field: 'country',
          inner_hits: { collapse: { field: 'city', inner_hits: {} } },
        }),
      ),
    ).toEqual(wrapped);
    expect(
      errChain(() =>
        parseCollapse({
          field: 'country',
          inner_hits: { collapse: { field: 'city', collapse: { field: 'city' } } },
        }),
      ),
    ).toEqual(wrapped);
  });

  it('reports unknown fields and bad values as ObjectParser does', () => {
    expect(errChain(() => parseCollapse({ field: 'g', foo: 1 }))).toEqual([
      ['x_content_parse_exception', '[collapse] unknown field [foo], parser not found'],
    ]);
    expect(errChain(() => parseCollapse({ field: 'g', max_concurrent_group_searches: 0 }))).toEqual(
      [
        [
          'x_content_parse_exception',
          '[collapse] failed to parse field [max_concurrent_group_searches]',
        ],
        ['illegal_argument_exception', 'maxConcurrentGroupRequests` must be positive'],
      ],
    );
    expect(errChain(() => parseCollapse({ field: 'g', inner_hits: { nope: 1 } }))).toEqual([
      ['x_content_parse_exception', '[collapse] failed to parse field [inner_hits]'],
      ['x_content_parse_exception', '[inner_hits] unknown field [nope], parser not found'],
    ]);
  });
});

describe('collapsing collector', () => {
  const bench = new Bench({
    properties: { g: { type: 'integer' }, s: { type: 'integer' } },
  }).index([
    { g: 1, s: 10 },
    { g: 1, s: 6 },
    { g: 1, s: 24 },
    { g: 25, s: 10 },
    { g: 25, s: 5 },
    { g: 3, s: 36 },
    { s: 50 },
    { s: 1 },
  ]);
  const snap = bench.shards[0]!.searcher();
  const sort: SortKey[] = [
    { kind: 'field', field: 's', order: 'desc', missing: '_last', mode: null, valueType: 'long' },
  ];
  const groups = (numHits: number) =>
    collectTopDocs(
      snap,
      createWeight(bench.lower({ match_all: {} }), { stats: shardStats(snap), needsScores: false }),
      {
        numHits,
        sort,
        trackScores: false,
        needsScores: false,
        minScore: null,
        postFilter: null,
        searchAfter: null,
        terminateAfter: 0,
        groupBy: (ls) => {
          const col = ls.segment.fields.get('g')!.docValues!;
          return (d) => {
            const v = col.kind === 'numeric' ? col.single![d]! : NaN;
            return Number.isNaN(v) ? null : v;
          };
        },
      },
    );

  it('keeps the best doc of each group, groups ordered by it; missing values form one group', () => {
    const r = groups(10);
    expect(r.totalHits).toBe(8);
    expect(r.hits.map((h) => [h.collapseValue, h.sort![0]])).toEqual([
      [null, 50],
      [3, 36],
      [1, 24],
      [25, 10],
    ]);
  });

  it('returns only the top N groups', () => {
    expect(groups(2).hits.map((h) => h.collapseValue)).toEqual([null, 3]);
  });
});

describe('GroupQueue', () => {
  const hit = (doc: number, score: number): CollectedHit =>
    ({ doc, globalDoc: doc, score, sort: null }) as unknown as CollectedHit;
  const worse = (a: CollectedHit, b: CollectedHit) =>
    a.score < b.score || (a.score === b.score && a.globalDoc > b.globalDoc);

  it('forgets an evicted group and lets it come back with a better hit', () => {
    const q = new GroupQueue(2, worse);
    q.offer(hit(0, 1), 'a');
    q.offer(hit(1, 2), 'b');
    q.offer(hit(2, 3), 'c'); // evicts a
    q.offer(hit(3, 5), 'a'); // a returns, evicts b
    q.offer(hit(4, 4), 'c'); // c improves
    expect(q.sorted().map((h) => [h.collapseValue, h.doc])).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });

  it('ignores a hit that does not beat its group head (ties keep the first doc)', () => {
    const q = new GroupQueue(3, worse);
    q.offer(hit(0, 2), 'a');
    q.offer(hit(1, 2), 'a');
    expect(q.sorted().map((h) => h.doc)).toEqual([0]);
  });
});

describe('dedupCollapsed (CollapseTopFieldDocs.merge)', () => {
  const h = (v: number | null) => ({ collapseValue: v }) as unknown as CollectedHit;
  it('keeps the first hit per value across shards, then applies from/size', () => {
    const merged = [h(1), h(2), h(1), h(null), h(3), h(null), h(4)];
    expect(dedupCollapsed(merged, 0, 10).map((x) => x.collapseValue)).toEqual([1, 2, null, 3, 4]);
    expect(dedupCollapsed(merged, 1, 2).map((x) => x.collapseValue)).toEqual([2, null]);
  });
});

describe('groupSearchBody (ExpandSearchPhase)', () => {
  const spec = parseCollapse({
    field: 'g',
    inner_hits: { name: 'n', size: 2, from: 1, version: true, collapse: { field: 'c' } },
  });
  it('filters on the group value and keeps the original query and post_filter', () => {
    expect(
      groupSearchBody(spec, spec.innerHits[0]!, 25, { term: { x: 1 } }, { term: { y: 2 } }),
    ).toEqual({
      query: { bool: { filter: [{ match: { g: 25 } }], must: [{ term: { x: 1 } }] } },
      from: 1,
      size: 2,
      explain: false,
      track_scores: false,
      version: true,
      seq_no_primary_term: false,
      post_filter: { term: { y: 2 } },
      collapse: { field: 'c' },
    });
  });
  it('uses must_not exists for the null group', () => {
    const b = groupSearchBody(spec, spec.innerHits[0]!, null, null, null);
    expect(b.query).toEqual({ bool: { must_not: [{ exists: { field: 'g' } }] } });
  });
});
