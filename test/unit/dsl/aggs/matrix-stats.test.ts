/**
 * matrix_stats: the running-moment formulas against hand-computed figures, shard merging against
 * a single pass, Java HashMap field order, the aggregation's collection rules (missing, mode,
 * unmapped, -Infinity, buckets), its parse errors, and ES's own figures for the REST test data
 * of aggs-matrix-stats 30_single_value_field / 40_multi_value_field routed as ES routes them.
 */
import { describe, expect, it } from 'vitest';
import { shardForRouting } from '../../../../src/common/murmur3.js';
import {
  addDoc,
  computeResults,
  javaHashMapOrder,
  mergeStats,
  newRunningStats,
  type RunningStats,
} from '../../../../src/dsl/aggs/metrics/running-stats.js';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

function statsOf(fields: string[], rows: number[][]): RunningStats {
  const s = newRunningStats(fields);
  const scratch = new Float64Array(fields.length);
  for (const r of rows) addDoc(s, Float64Array.from(r), scratch);
  return s;
}

// x = 1..4, y = 2,4,6,9: deviations from the means 2.5 / 5.25 give M2 = 5 / 26.75,
// M3 = 0 / 16.875, M4 = 10.25 / 312.078125 and the co-moment sum 11.5.
const XY = [
  [1, 2],
  [2, 4],
  [3, 6],
  [4, 9],
];

describe('running stats (RunningStats / MatrixStatsResults)', () => {
  it('computes the moments of one pass as the textbook formulas give them', () => {
    const r = computeResults(statsOf(['x', 'y'], XY));
    expect(r.docCount).toBe(4);
    const [x, y] = r.fields;
    expect(x!.count).toBe(4);
    expect(x!.mean).toBeCloseTo(2.5, 12);
    expect(x!.variance).toBeCloseTo(5 / 3, 12);
    expect(x!.skewness).toBeCloseTo(0, 12);
    expect(x!.kurtosis).toBeCloseTo((4 * 10.25) / 25, 12);
    expect(y!.mean).toBeCloseTo(5.25, 12);
    expect(y!.variance).toBeCloseTo(26.75 / 3, 12);
    expect(y!.skewness).toBeCloseTo((2 * 16.875) / Math.pow(26.75, 1.5), 12);
    expect(y!.kurtosis).toBeCloseTo((4 * 312.078125) / (26.75 * 26.75), 12);
    expect(r.covariance[1]).toBeCloseTo(11.5 / 3, 12);
    expect(r.covariance[2]).toBe(r.covariance[1]);
    expect(r.covariance[0]).toBe(x!.variance);
    expect(r.correlation[1]).toBeCloseTo(11.5 / Math.sqrt(5 * 26.75), 12);
    expect(r.correlation[0]).toBe(1);
  });

  it('merges shard stats to the same figures as one pass', () => {
    const rows = [
      [3, -1],
      [7.5, 2],
      [-2, 0.5],
      [10, 10],
      [4, 4],
      [0.25, -3],
      [6, 1],
    ];
    const whole = computeResults(statsOf(['a', 'b'], rows));
    const merged = newRunningStats(['a', 'b']);
    mergeStats(merged, statsOf(['a', 'b'], rows.slice(0, 2)));
    mergeStats(merged, statsOf(['a', 'b'], rows.slice(2, 3)));
    mergeStats(merged, statsOf(['a', 'b'], rows.slice(3)));
    const m = computeResults(merged);
    expect(m.docCount).toBe(7);
    for (let i = 0; i < 2; i++) {
      const w = whole.fields[i]!;
      const g = m.fields[i]!;
      expect(g.count).toBe(w.count);
      expect(g.mean).toBeCloseTo(w.mean, 10);
      expect(g.variance).toBeCloseTo(w.variance, 10);
      expect(g.skewness).toBeCloseTo(w.skewness, 10);
      expect(g.kurtosis).toBeCloseTo(w.kurtosis, 10);
    }
    expect(m.covariance[1]).toBeCloseTo(whole.covariance[1]!, 10);
    expect(m.correlation[1]).toBeCloseTo(whole.correlation[1]!, 10);
  });

  it('gives NaN for one document and for fields without variance', () => {
    const one = computeResults(statsOf(['x', 'y'], [[1, 2]]));
    expect(one.fields[0]!.variance).toBeNaN();
    expect(one.fields[0]!.skewness).toBeNaN();
    expect(one.fields[0]!.kurtosis).toBeNaN();
    const flat = computeResults(
      statsOf(
        ['x', 'c'],
        [
          [1, 5],
          [2, 5],
          [4, 5],
        ],
      ),
    );
    expect(flat.fields[1]!.variance).toBe(0);
    expect(flat.covariance[1]).toBe(0);
    expect(flat.correlation[1]).toBeNaN();
  });

  it('orders fields as a java.util.HashMap iterates them', () => {
    // "a".hashCode() = 97 → bucket 1, "b" = 98 → bucket 2; "val1".."val3" spread to buckets
    // 14, 13, 12 (hash 3,615,580 + digit) and "vals" (…+66) lands in bucket 2
    expect(javaHashMapOrder(['b', 'a'])).toEqual(['a', 'b']);
    expect(javaHashMapOrder(['val1', 'val2', 'val3'])).toEqual(['val3', 'val2', 'val1']);
    expect(javaHashMapOrder(['val1', 'vals'])).toEqual(['vals', 'val1']);
    expect(javaHashMapOrder(['b', 'a', 'b'])).toEqual(['a', 'b']);
    // more than 12 keys: the table doubles to 32 buckets
    const many = Array.from({ length: 13 }, (_, i) => String.fromCharCode(65 + i * 3));
    const order = javaHashMapOrder(many);
    const buckets = order.map((k) => k.charCodeAt(0) & 31);
    expect([...buckets].sort((p, q) => p - q)).toEqual(buckets);
  });
});

describe('matrix_stats aggregation', () => {
  const idx = buildIndex(
    { x: 'double', y: 'long', m: 'double', k: 'keyword' },
    [
      { x: 1, y: 2, m: [1, 5, 9], k: 'a' },
      { x: 2, y: 4, m: [2, 4], k: 'a' },
      { x: 3, y: 6, k: 'b' },
      { x: 4, y: 9, m: 7, k: 'b' },
      { x: 5, k: 'b' },
      { x: -Infinity, y: 1, m: 1, k: 'b' },
    ],
    { shards: 2 },
  );

  it('counts only documents with a value for every field, across shards', () => {
    const r = json(search(idx, { s: { matrix_stats: { fields: ['y', 'x'] } } })) as any;
    // doc 5 lacks y, doc 6 has x = -Infinity (ES drops it): the XY figures remain
    expect(r.s.doc_count).toBe(4);
    expect(r.s.fields.map((f: any) => f.name)).toEqual(['x', 'y']);
    const [x, y] = r.s.fields;
    expect(x.count).toBe(4);
    expect(x.mean).toBeCloseTo(2.5, 12);
    expect(y.variance).toBeCloseTo(26.75 / 3, 12);
    expect(x.covariance).toEqual({ x: x.variance, y: y.covariance.x });
    expect(x.covariance.y).toBeCloseTo(11.5 / 3, 12);
    expect(x.correlation.x).toBe(1);
    expect(y.correlation.x).toBeCloseTo(11.5 / Math.sqrt(5 * 26.75), 12);
  });

  it('substitutes missing values per field', () => {
    const r = json(
      search(idx, { s: { matrix_stats: { fields: ['x', 'y'], missing: { y: 10 } } } }),
    ) as any;
    expect(r.s.doc_count).toBe(5);
    expect(r.s.fields[1].mean).toBeCloseTo((2 + 4 + 6 + 9 + 10) / 5, 12);
  });

  it('reduces multi-valued fields with mode (default avg)', () => {
    const mean = (mode: string | undefined) => {
      const body: Record<string, unknown> = { fields: ['m', 'x'] };
      if (mode) body.mode = mode;
      const r = json(search(idx, { s: { matrix_stats: body } })) as any;
      expect(r.s.doc_count).toBe(3);
      return r.s.fields.find((f: any) => f.name === 'm').mean as number;
    };
    // docs 1, 2, 4 have m and a finite x: [1,5,9], [2,4], [7]
    expect(mean(undefined)).toBeCloseTo((5 + 3 + 7) / 3, 12);
    expect(mean('avg')).toBeCloseTo((5 + 3 + 7) / 3, 12);
    expect(mean('min')).toBeCloseTo((1 + 2 + 7) / 3, 12);
    expect(mean('MAX')).toBeCloseTo((9 + 4 + 7) / 3, 12);
    expect(mean('sum')).toBeCloseTo((15 + 6 + 7) / 3, 12);
    expect(mean('median')).toBeCloseTo((5 + 3 + 7) / 3, 12);
  });

  it('leaves out unmapped fields and renders empty results with doc_count 0', () => {
    const r = json(
      search(
        idx,
        {
          partly: { matrix_stats: { fields: ['x', 'nope'] } },
          none: { matrix_stats: { fields: ['nope'] } },
          empty: { matrix_stats: { fields: 'x' } },
        },
        { query: { term: { k: 'zzz' } } },
      ),
    ) as any;
    expect(r).toEqual({
      partly: { doc_count: 0 },
      none: { doc_count: 0 },
      empty: { doc_count: 0 },
    });
    const all = json(search(idx, { p: { matrix_stats: { fields: ['x', 'nope'] } } })) as any;
    expect(all.p.doc_count).toBe(5);
    expect(all.p.fields.map((f: any) => f.name)).toEqual(['x']);
  });

  it('collects per bucket under a terms aggregation', () => {
    const r = json(
      search(idx, {
        t: { terms: { field: 'k' }, aggs: { s: { matrix_stats: { fields: ['x', 'y'] } } } },
      }),
    ) as any;
    const byKey = Object.fromEntries(r.t.buckets.map((b: any) => [b.key, b.s]));
    expect(byKey.a.doc_count).toBe(2);
    expect(byKey.a.fields[0].mean).toBeCloseTo(1.5, 12);
    expect(byKey.b.doc_count).toBe(2);
    expect(byKey.b.fields[1].mean).toBeCloseTo(7.5, 12);
    expect(byKey.b.fields[1].variance).toBeCloseTo(4.5, 12);
  });

  it('rejects scripts, value_type, unknown keys and sort modes as ES does', () => {
    const err = (body: unknown) => errorOf(() => search(idx, { s: { matrix_stats: body } })).error;
    expect(err({ fields: ['x'], script: { source: '1' } })).toMatchObject({
      type: 'parsing_exception',
      reason:
        'Unexpected token START_OBJECT [script] in [s]. Multi-field aggregations do not support scripts.',
    });
    expect(err({ fields: ['x'], value_type: 'long' }).type).toBe('parsing_exception');
    expect(err({ fields: ['x'], foo: 1 }).reason).toBe(
      'Unexpected token VALUE_NUMBER [foo] in [s].',
    );
    expect(err({ fields: [1] }).reason).toBe('Unexpected token VALUE_NUMBER [fields] in [s].');
    expect(err({ fields: ['x'], mode: 'first' })).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Illegal sort mode: first',
    });
    expect(
      errorOf(() => search(idx, { s: { matrix_stats: { fields: ['k'] } } })).error.reason,
    ).toBe('Expected numeric type on field [k], but got [keyword]');
  });
});

describe("ES's figures for the aggs-matrix-stats REST test data (3 shards)", () => {
  const v1 = [
    1.9, -5.2, -5.2, 18.3, -53.2, -578.9, 16.2, -4222.63, -59999.55, 782.7, -1.2, 0, 0.1, 0.12,
    98.2,
  ];
  const v2 = [
    3.1,
    -3.4,
    null,
    104.4,
    -322.4,
    69.9,
    17.2,
    316.44,
    -3163.4,
    789.7,
    6.3,
    1.11,
    0.92,
    -82.4,
    32.4,
  ];
  const vals = [
    [1.9, 16.143],
    [155, 16.23],
    [-455, -32.32],
    [0.14, 92.1],
    [16, 16],
    null,
    [1234.3, -3433],
    [177.2, -93.333],
    [-29.9, 163.0],
    [-0.2, 1343.3],
    [15.3, 16.9],
    [-644.4, -644.4],
    [73.2, 0.12],
    [-0.001, 1295.3],
    [15.5, 16.5],
  ];
  const docs = v1.map((x, i) => {
    const d: Record<string, unknown> = { _id: String(i + 1), val1: x, val3: 2.3 };
    if (v2[i] !== null) d.val2 = v2[i];
    if (vals[i] !== null) d.vals = vals[i];
    return d;
  });
  // vals is not in the test's mapping: dynamic mapping makes it a float
  const idx = buildIndex({ val1: 'double', val2: 'double', val3: 'double', vals: 'float' }, docs, {
    shards: 3,
    shardOf: (i) => shardForRouting(String(i + 1), 3),
  });
  const mfs = (body: unknown) => (json(search(idx, { mfs: { matrix_stats: body } })) as any).mfs;

  it('single value fields, with and without missing', () => {
    const a = mfs({ fields: ['val1', 'val2', 'val3'] });
    expect(a.doc_count).toBe(14);
    expect(a.fields[0].count).toBe(14);
    expect(a.fields[2].correlation.val2).toBe(0.9569513137793205);
    const b = mfs({ fields: ['val1', 'val2', 'val3'], missing: { val2: 10 } });
    expect(b.doc_count).toBe(15);
    expect(b.fields[2].correlation.val2).toBe(0.9567970467908384);
  });

  it('multi-valued fields by mode', () => {
    expect(mfs({ fields: ['val1', 'vals'], mode: 'max' }).fields[0].correlation.val1).toBe(
      0.06838646533369998,
    );
    expect(mfs({ fields: ['val1', 'vals'], mode: 'min' }).fields[0].correlation.val1).toBe(
      -0.09777682707831963,
    );
    const p = mfs({ fields: ['val1', 'val2', 'vals'] });
    expect(p.doc_count).toBe(13);
    expect(p.fields[0].correlation.val1).toBe(-0.044997535185684244);
    const m = mfs({ fields: ['val1', 'val2', 'vals'], missing: { val2: 10, vals: 5 } });
    expect(m.doc_count).toBe(15);
    expect(m.fields[0].correlation.val2).toBe(0.04028024709708195);
  });
});
