import { describe, expect, it } from 'vitest';
import { compareExact, topOverlap } from '../../bench/peer-check.js';
import { renderSql, sqlRowsCheck } from '../../bench/sql-render.js';

describe('bench peer checks', () => {
  it('measures top-10 overlap by name', () => {
    expect(topOverlap(['a', 'b', 'c', 'd'], ['d', 'c', 'x', 'y'])).toBe(0.5);
    expect(topOverlap([], [])).toBe(1);
  });

  it('compares counts, ranges, terms and sort values exactly with DuckDB rows', () => {
    expect(compareExact('logs.count_term', [{ n: '12' }], { count: 12 })).toBeNull();
    expect(compareExact('logs.count_term', [{ n: '13' }], { count: 12 })).toMatch(/count 12/);
    const ranges = { aggregations: { r: { buckets: [{ doc_count: 2 }, { doc_count: 0 }] } } };
    expect(compareExact('logs.range_agg', [{ b0: '2', b1: '0' }], ranges)).toBeNull();
    expect(compareExact('logs.range_agg', [{ b0: '3', b1: '0' }], ranges)).toMatch(/bucket 0/);
    const terms = {
      aggregations: {
        t: {
          buckets: [
            { key: 'US', doc_count: 5, avg: { value: 2.5 } },
            { key: 'FR', doc_count: 3, avg: { value: 1 } },
          ],
        },
      },
    };
    const rows = [
      { country: 'US', c: '5', avg_size: 2.5 },
      { country: 'FR', c: '3', avg_size: 1 },
    ];
    expect(compareExact('logs.terms_avg', rows, terms)).toBeNull();
    expect(
      compareExact('logs.terms_avg', [rows[0]!, { ...rows[1]!, avg_size: 1.5 }], terms),
    ).toMatch(/FR/);
    const hits = { hits: { hits: [{ sort: [9] }, { sort: [7] }] } };
    expect(compareExact('logs.sort_page', [{ size: '9' }, { size: '7' }], hits)).toBeNull();
    expect(compareExact('logs.sort_page', [{ size: '9' }, { size: '8' }], hits)).toMatch(/sort/);
  });
});

describe('bench SQL form', () => {
  it('fills placeholders, quoting strings SQL-style', () => {
    expect(renderSql("a = '{{x}}' AND b = {{y}}", { x: "it's", y: 3 })).toBe(
      "a = 'it''s' AND b = 3",
    );
  });

  it('compares SQL rows with the DSL answer', () => {
    expect(sqlRowsCheck('x.count_term', { rows: [[4]] }, { count: 4 })).toBeNull();
    expect(sqlRowsCheck('x.count_term', { rows: [[5]] }, { count: 4 })).toMatch(/COUNT/);
    const dsl = { hits: { hits: [{ _source: { name: 'p' }, _score: 1.5 }] } };
    expect(sqlRowsCheck('debian.match', { rows: [['p', 1.5]] }, dsl)).toBeNull();
    expect(sqlRowsCheck('debian.match', { rows: [['q', 1.5]] }, dsl)).toMatch(/row 0/);
    expect(sqlRowsCheck('debian.match', { rows: [['p', 2.5]] }, dsl)).toMatch(/score/);
    // WHERE MATCH(...) AND range: ES SQL's bool must scores the range too (+1.0)
    expect(sqlRowsCheck('debian.bool_range', { rows: [['p', 2.5]] }, dsl)).toBeNull();
    const range = {
      aggregations: { r: { buckets: [{ doc_count: 2 }, { doc_count: 0 }, { doc_count: 1 }] } },
    };
    expect(
      sqlRowsCheck(
        'a.range_agg',
        {
          rows: [
            ['*-1', 2],
            ['5-*', 1],
          ],
        },
        range,
      ),
    ).toBeNull();
  });

  it('compares a LIMIT/OFFSET page with the DSL from/size page, row by row', () => {
    const columns = [{ name: 'country' }, { name: 'size' }];
    const dsl = {
      hits: {
        hits: [{ _source: { country: 'DE', size: 9 } }, { _source: { country: 'US', size: 9 } }],
      },
    };
    const page = (rows: unknown[][]) => sqlRowsCheck('logs.sort_page', { columns, rows }, dsl);
    expect(
      page([
        ['DE', 9],
        ['US', 9],
      ]),
    ).toBeNull();
    expect(
      page([
        ['US', 9],
        ['DE', 9],
      ]),
    ).toMatch(/row 0 country/);
    expect(page([['DE', 9]])).toMatch(/1 rows != 2 hits/);
    expect(
      sqlRowsCheck('accounts.sort_page', { columns, rows: [] }, { hits: { hits: [] } }),
    ).toBeNull();
  });
});
