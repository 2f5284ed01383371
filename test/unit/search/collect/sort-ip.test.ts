/**
 * IP sort keys order by address (ES sorts ip doc values as their 16-byte form), while the `sort`
 * values shown stay the dotted / RFC 5952 text: `27.58.6.220` before `172.16.1.1`.
 */
import { describe, expect, it } from 'vitest';
import { compareSortValues, type SortKey } from '../../../../src/search/collect/sort.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import { ipToSortable, sortableToIp } from '../../../../src/search/index/field-values.js';
import { matchAll } from '../../../../src/search/query/query.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { buildIndex } from '../../dsl/aggs/helpers/shards.js';

const ipKey = (order: 'asc' | 'desc'): SortKey => ({
  kind: 'field',
  field: 'ip',
  order,
  missing: '_last',
  mode: null,
  valueType: 'string',
  display: sortableToIp,
  orderKey: ipToSortable,
});

const ips = [
  '172.16.1.1',
  '27.58.6.220',
  '2001:cafe::13e1:16fc:8726:1bf8',
  '90.128.199.24',
  '10.0.0.1',
];

function sorted(order: 'asc' | 'desc'): unknown[] {
  const idx = buildIndex(
    { ip: 'ip' },
    ips.map((ip) => ({ ip })),
    { shards: 1 },
  );
  const snap = idx.shards[0]!.searcher();
  const weight = createWeight(matchAll(), { stats: shardStats(snap), needsScores: false });
  const top = collectTopDocs(snap, weight, {
    numHits: 10,
    sort: [ipKey(order)],
    trackScores: false,
    needsScores: false,
    minScore: null,
    postFilter: null,
    searchAfter: null,
    terminateAfter: 0,
  });
  return top.hits.map((h) => h.sort![0]);
}

describe('ip sort keys', () => {
  it('order by address, ascending and descending', () => {
    const want = [
      '10.0.0.1',
      '27.58.6.220',
      '90.128.199.24',
      '172.16.1.1',
      '2001:cafe::13e1:16fc:8726:1bf8',
    ];
    expect(sorted('asc')).toEqual(want);
    expect(sorted('desc')).toEqual([...want].reverse());
  });

  it('compares shown values (merged shard hits, search_after) by address', () => {
    const k = [ipKey('asc')];
    expect(compareSortValues(k, ['27.58.6.220'], ['172.16.1.1'])).toBeLessThan(0);
    expect(compareSortValues(k, ['::1'], ['0.0.0.1'])).toBeLessThan(0);
    expect(compareSortValues(k, ['10.0.0.1'], ['10.0.0.1'])).toBe(0);
  });
});
