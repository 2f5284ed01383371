import { describe, expect, it } from 'vitest';
import { Bench, chain } from './harness.js';

const bench = new Bench({
  properties: {
    i: { type: 'integer_range' },
    d: { type: 'double_range' },
    f: { type: 'float_range' },
    dt: { type: 'date_range', format: 'yyyy-MM-dd||epoch_millis' },
    ip: { type: 'ip_range' },
  },
}).index([
  [
    'a',
    { i: { gte: 1, lte: 5 }, d: { gt: 1, lt: 5 }, dt: { gte: '2017-09-01', lte: '2017-09-05' } },
  ],
  ['b', { i: { gte: 1, lte: 3 }, f: { gte: 1.5, lte: 2.5 }, ip: '10.0.0.0/24' }],
  [
    'c',
    {
      i: [
        { gte: 4, lte: 5 },
        { gte: 10, lte: 20 },
      ],
      ip: { gte: '10.0.1.1', lte: '10.0.1.9' },
    },
  ],
]);

const ids = (q: unknown) => bench.ids(q).sort();

describe('range field queries', () => {
  it('match by relation, intersects by default', () => {
    expect(ids({ range: { i: { gte: 3, lte: 4 } } })).toEqual(['a', 'b', 'c']);
    expect(ids({ range: { i: { gte: 3, lte: 4, relation: 'contains' } } })).toEqual(['a']);
    expect(ids({ range: { i: { gte: 3, lte: 4, relation: 'within' } } })).toEqual([]);
    expect(ids({ range: { i: { gte: 0, lte: 3, relation: 'within' } } })).toEqual(['b']);
    // a second value of the same doc matches on its own
    expect(ids({ range: { i: { gte: 12, lte: 13, relation: 'contains' } } })).toEqual(['c']);
  });

  it('step exclusive bounds and open ones to the type limits', () => {
    expect(ids({ range: { i: { gt: 3, lte: 4 } } })).toEqual(['a', 'c']);
    expect(ids({ range: { i: { gt: 5 } } })).toEqual(['c']);
    // indexed (1, 5) excludes 5 itself
    expect(ids({ range: { d: { gte: 5 } } })).toEqual([]);
    expect(ids({ range: { d: { gte: 4.999 } } })).toEqual(['a']);
    expect(ids({ term: { f: 2 } })).toEqual(['b']);
  });

  it('parse dates with the mapping format, the query format and time zone', () => {
    expect(ids({ range: { dt: { gte: '2017-09-05', lte: '2017-09-06' } } })).toEqual(['a']);
    expect(ids({ range: { dt: { gte: '2017-09-06' } } })).toEqual([]);
    expect(
      ids({ range: { dt: { gte: '06/09/2017', format: 'dd/MM/yyyy', relation: 'within' } } }),
    ).toEqual([]);
    expect(
      ids({
        range: {
          dt: { lte: '2017-09-05T00:00:00', time_zone: '-01:00', format: "yyyy-MM-dd'T'HH:mm:ss" },
        },
      }),
    ).toEqual(['a']);
  });

  it('index CIDR ip ranges and query addresses', () => {
    expect(ids({ term: { ip: '10.0.0.200' } })).toEqual(['b']);
    expect(ids({ range: { ip: { gte: '10.0.0.255', lte: '10.0.1.1' } } })).toEqual(['b', 'c']);
    expect(ids({ range: { ip: { gt: '10.0.0.255', lte: '10.0.1.1' } } })).toEqual(['c']);
    expect(chain(bench.error({ term: { ip: '10.0.0.0/8' } })).at(-1)).toEqual([
      'illegal_argument_exception',
      "'10.0.0.0/8' is not an IP string literal.",
    ]);
  });

  it('refuse decimal bounds on integral ranges and print as Lucene RangeFieldQuery', () => {
    expect(chain(bench.error({ range: { i: { gte: 1.5 } } })).at(-1)).toEqual([
      'illegal_argument_exception',
      'Value [1.5] has a decimal part',
    ]);
    expect(bench.describe({ range: { i: { gt: 3, lte: 4 } } })).toBe('i:<ranges:[4 : 4]>');
    expect(bench.describe({ term: { ip: '::1' } })).toBe('ip:<ranges:[::1 : ::1]>');
    expect(bench.describe({ range: { f: { gte: 1.5 } } })).toBe('f:<ranges:[1.5 : Infinity]>');
  });
});
