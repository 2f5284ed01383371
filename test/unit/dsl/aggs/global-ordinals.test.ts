/**
 * Global ordinals (ES GlobalOrdinalsBuilder / OrdinalMap): the merged ordinal space, memory
 * accounting on the shard counters and its release on a newer reader, and terms aggregations
 * over several segments giving the same buckets in `map` and global ordinals modes.
 */
import { describe, expect, it } from 'vitest';
import {
  buildGlobalOrdinals,
  loadGlobalOrdinals,
} from '../../../../src/dsl/aggs/support/global-ordinals.js';
import { ShardCounters } from '../../../../src/engine/stats.js';
import type { ShardSnapshot, LiveSegment } from '../../../../src/search/index/live-segment.js';
import type { OrdinalColumn } from '../../../../src/search/index/segment.js';
import { buildIndex, json, search } from './helpers/shards.js';

const col = (dict: string[]): OrdinalColumn => ({
  kind: 'ordinal',
  dict,
  single: null,
  offsets: null,
  ords: null,
});

describe('buildGlobalOrdinals', () => {
  it('merges sorted segment dictionaries into one ordinal space', () => {
    const go = buildGlobalOrdinals([col(['b', 'd']), null, col(['a', 'b', 'c'])]);
    expect(go.valueCount).toBe(4);
    expect([...go.segmentToGlobal[0]!]).toEqual([1, 3]);
    expect(go.segmentToGlobal[1]).toBeNull();
    expect([...go.segmentToGlobal[2]!]).toEqual([0, 1, 2]);
    // first occurrence of each global ordinal: a@2:0, b@0:0, c@2:2, d@0:1
    expect([...go.firstSegment]).toEqual([2, 0, 2, 0]);
    expect([...go.firstSegmentOrd]).toEqual([0, 0, 2, 1]);
    expect(go.ramBytesUsed).toBeGreaterThan(5 * 4);
  });
});

describe('loadGlobalOrdinals', () => {
  const reader = (dicts: string[][]): ShardSnapshot =>
    ({
      generation: 1,
      maxDoc: 0,
      numDocs: 0,
      segments: dicts.map((d) => ({ dict: d }) as unknown as LiveSegment),
    }) as ShardSnapshot;
  const column = (ls: LiveSegment) => col((ls as unknown as { dict: string[] }).dict);

  it('builds once per reader and field and accounts the memory as fielddata', () => {
    const counters = new ShardCounters();
    const r1 = reader([['a'], ['b']]);
    const a = loadGlobalOrdinals(r1, 'f', column, counters);
    expect(loadGlobalOrdinals(r1, 'f', column, counters)).toBe(a);
    expect(counters.fielddataBytes.get('f')).toBe(a.ramBytesUsed);
    loadGlobalOrdinals(r1, 'g', column, counters);
    expect(counters.fielddataBytes.size).toBe(2);
    // a newer reader releases what the old one held
    const r2 = reader([['a'], ['b'], ['c']]);
    const b = loadGlobalOrdinals(r2, 'f', column, counters);
    expect(counters.fielddataTotalBytes).toBe(b.ramBytesUsed);
    expect(counters.fielddataBytes.has('g')).toBe(false);
  });
});

describe('terms over several segments', () => {
  it('gives the same buckets with and without global ordinals', () => {
    const docs = ['x', 'y', 'x', 'z', 'y', 'x', 'w'].map((str) => ({ str }));
    const idx = buildIndex({ str: 'keyword' }, docs, { refreshEvery: 2 });
    expect(idx.shards[0]!.searcher().segments.length).toBeGreaterThan(1);
    const run = (hint: string) =>
      json(search(idx, { t: { terms: { field: 'str', execution_hint: hint } } }));
    const expected = {
      t: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'x', doc_count: 3 },
          { key: 'y', doc_count: 2 },
          { key: 'w', doc_count: 1 },
          { key: 'z', doc_count: 1 },
        ],
      },
    };
    expect(run('map')).toEqual(expected);
    expect(run('global_ordinals')).toEqual(expected);
  });
});
