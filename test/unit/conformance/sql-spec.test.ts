/**
 * The `.sql-spec` oracle's pure parts: the spec parser, the H2-only statement adjustments and the
 * JdbcAssert-style comparison (count, families of types, values in order, double delta 1).
 */
import { describe, expect, it } from 'vitest';
import { DateTimeValue } from '../../../src/functions/values.js';
import { parseSqlSpec } from '../../conformance/sql/sql-spec-parser.js';
import { h2Statement } from '../../conformance/sql/sql-spec-adjustments.js';
import { compareWithH2 } from '../../conformance/sql/sql-spec-compare.js';

describe('sql-spec parser', () => {
  it('reads names and queries, joins lines, skips comments, marks -Ignore', () => {
    const cases = parseSqlSpec(
      '// c\n\nfirst\nSELECT 1;\nmulti\nSELECT a\n  FROM t;\nskipMe-Ignore\nSELECT 2;\nfirst\nSELECT 3;\n',
    );
    expect(cases.map((c) => [c.name, c.query, c.ignored])).toEqual([
      ['first', 'SELECT 1', false],
      ['multi', 'SELECT a FROM t', false],
      ['skipMe-Ignore', 'SELECT 2', true],
      ['first#2', 'SELECT 3', false],
    ]);
  });
});

describe('H2 statement adjustments', () => {
  it('quotes bare year/month/day identifiers only', () => {
    expect(h2Statement('SELECT YEAR(birth_date) as year, emp_no FROM t ORDER BY year')).toBe(
      'SELECT YEAR(birth_date) as "year", emp_no FROM t ORDER BY "year"',
    );
    expect(h2Statement('SELECT DAY_OF_WEEK(b) day, DAY(b) d, x day_name FROM t GROUP BY day')).toBe(
      'SELECT DAY_OF_WEEK(b) "day", DAY(b) d, x day_name FROM t GROUP BY "day"',
    );
    const untouched = "SELECT EXTRACT(YEAR FROM b), INTERVAL 1 DAY, INTERVAL '1-2' YEAR TO MONTH";
    expect(h2Statement(untouched)).toBe(untouched);
  });

  it('answers ROUND/TRUNCATE with a huge negative scale as 1.4 did (NaN)', () => {
    expect(h2Statement('SELECT ROUND(-345.123,-51231231) AS rounded')).toBe(
      "SELECT CAST('NaN' AS DOUBLE PRECISION) AS rounded",
    );
    expect(h2Statement('SELECT ROUND(-345.123, -2) AS r')).toBe('SELECT ROUND(-345.123, -2) AS r');
  });
});

describe('compareWithH2', () => {
  const h2 = (rows: unknown[][]) => ({
    columns: [
      { name: 'g', type: 'CHARACTER VARYING', jdbc: 12 },
      { name: 'c', type: 'BIGINT', jdbc: -5 },
      { name: 'AVG("salary")', type: 'DOUBLE PRECISION', jdbc: 8 },
      { name: 'b', type: 'TIMESTAMP WITH TIME ZONE', jdbc: 2014 },
    ],
    rows,
  });
  const cols = [
    { name: 'g', type: 'KEYWORD' },
    { name: 'c', type: 'INTEGER' },
    { name: 'AVG(salary)', type: 'DOUBLE' },
    { name: 'b', type: 'DATETIME' },
  ];
  const t = new DateTimeValue(-515376000000);

  it('matches equal rows (type families, double delta, instants, expression names)', () => {
    expect(
      compareWithH2(h2([['F', 33, 1.2, -515376000000]]), {
        columns: cols,
        rows: [['F', 33, 1.9, t]],
      }),
    ).toBeNull();
  });

  it('reports the first difference', () => {
    expect(
      compareWithH2(h2([['F', 33, 1, null]]), { columns: cols, rows: [['F', 34, 1, null]] }),
    ).toMatch(/column \[c\], entry \[1\]/);
    expect(compareWithH2(h2([['F', 33, 1, null]]), { columns: cols, rows: [] })).toBe(
      'expected 1 rows but was 0',
    );
    expect(
      compareWithH2(h2([]), {
        columns: [...cols.slice(0, 3), { name: 'b', type: 'KEYWORD' }],
        rows: [],
      }),
    ).toMatch(/different column type for \[b\]/);
    expect(
      compareWithH2(h2([]), { columns: [{ ...cols[0]!, name: 'h' }, ...cols.slice(1)], rows: [] }),
    ).toMatch(/different column name \[1\]/);
    expect(compareWithH2(h2([]), { columns: cols.slice(1), rows: [] })).toMatch(
      /number of columns/,
    );
  });
});
