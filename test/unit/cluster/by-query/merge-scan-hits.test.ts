import { describe, expect, it } from 'vitest';
import { mergeScanHits } from '../../../../src/cluster/by-query/cluster-scan.js';
import type { ScanHit } from '../../../../src/dsl/search/scan.js';
import type { SortKey } from '../../../../src/search/collect/sort.js';

const hit = (index: string, shard: number, id: string, sort?: (number | string | null)[]): ScanHit => ({
  index, shard, type: '_doc', id, routing: null, version: 1, seqNo: 0, primaryTerm: 1,
  ...(sort ? { sort } : {}),
  readSource: () => null,
}); // prettier-ignore

const refs = [
  { index: 'a', shard: 0 },
  { index: 'a', shard: 1 },
  { index: 'b', shard: 0 },
];
const key = (order: 'asc' | 'desc'): SortKey => ({ kind: 'field', field: 'n', order, missing: '_last', mode: null, valueType: 'long' }); // prettier-ignore

describe('mergeScanHits', () => {
  it("keeps the lone node's shard order when unsorted, each shard's own order inside", () => {
    const node1 = { hits: [hit('b', 0, 'x'), hit('a', 0, 'p'), hit('a', 0, 'q')], failures: [] };
    const node2 = { hits: [hit('a', 1, 'm')], failures: [] };
    const ids = mergeScanHits([node1, node2], refs, null).map((h) => h.id);
    expect(ids).toEqual(['p', 'q', 'm', 'x']);
  });

  it('merges by sort values, missing last, ties by shard order then shard order inside', () => {
    const node1 = { hits: [hit('a', 0, 'p', [1]), hit('a', 0, 'q', [5]), hit('a', 0, 'r', [null])], failures: [] }; // prettier-ignore
    const node2 = { hits: [hit('b', 0, 'x', [1]), hit('a', 1, 'm', [3])], failures: [] };
    expect(mergeScanHits([node2, node1], refs, [key('asc')]).map((h) => h.id)).toEqual(['p', 'x', 'm', 'q', 'r']); // prettier-ignore
    expect(mergeScanHits([node1, node2], refs, [key('desc')]).map((h) => h.id)).toEqual(['q', 'm', 'p', 'x', 'r']); // prettier-ignore
  });
});
