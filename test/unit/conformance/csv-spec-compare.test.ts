import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareResult, inferCsvType } from '../../conformance/sql/csv-spec-compare.js';
import { parseCsvSpec, parseCsvSpecFile } from '../../conformance/sql/csv-spec-parser.js';
import { showFunctions } from '../../../src/sql/functions/registry.js';
import {
  expectedWithExtensions,
  QUARRY_EXTENSION_FUNCTIONS,
} from '../../conformance/sql/runner.js';
import { convert } from '../../../src/functions/convert.js';
import { parseInterval } from '../../../src/functions/intervals.js';
import { DateTimeValue, TimeValue } from '../../../src/functions/values.js';
import { zoneOf } from '../../../src/functions/datetime/zones.js';
import { repoRoot } from '../sql/format/golden.js';

const table = (text: string) => parseCsvSpec(`t\nSELECT 1;\n${text}\n;\n`)[0]!.expected;
const dt = (s: string) => convert(s, 'DATETIME');

describe('csv-spec result comparison (JdbcAssert)', () => {
  it('accepts SHOW FUNCTIONS from the registry: ES list, then the extensions', () => {
    const spec = parseCsvSpecFile(resolve(repoRoot, '../shared/conformance/sql/command.csv-spec'));
    const c = spec.find((x) => x.name === 'showFunctions')!;
    const expected = expectedWithExtensions(c);
    expect(expected.rows.slice(0, c.expected.rows.length)).toEqual(c.expected.rows);
    expect(expected.rows.slice(c.expected.rows.length)).toEqual(QUARRY_EXTENSION_FUNCTIONS);
    const r = compareResult(expected, {
      columns: [
        { name: 'name', type: 'keyword' },
        { name: 'type', type: 'keyword' },
      ],
      rows: showFunctions(),
    });
    expect(r).toEqual({ ok: true, diff: null });
  });

  it('adjusts only SHOW FUNCTIONS expectations, by the extensions matching their LIKE', () => {
    const spec = parseCsvSpecFile(resolve(repoRoot, '../shared/conformance/sql/command.csv-spec'));
    const byName = (n: string) => spec.find((x) => x.name === n)!;
    for (const n of ['showFunctionsWithExactMatch', 'showFunctionsWithPatternWildcard']) {
      expect(expectedWithExtensions(byName(n)).rows).toEqual(byName(n).expected.rows);
    }
    const other = spec.find((x) => /^SHOW TABLES/i.test(x.query))!;
    expect(expectedWithExtensions(other)).toBe(other.expected);
    const like = (q: string) =>
      expectedWithExtensions({ ...byName('showFunctions'), query: q }).rows.slice(
        byName('showFunctions').expected.rows.length,
      );
    expect(like("SHOW FUNCTIONS LIKE '%rank'")).toEqual([
      ['DENSE_RANK', 'WINDOW'],
      ['RANK', 'WINDOW'],
    ]);
    expect(like("show functions like 'ROW!_N%' escape '!'")).toEqual([['ROW_NUMBER', 'WINDOW']]);
    expect(like("SHOW FUNCTIONS LIKE 'ROW!_N%'")).toEqual([]);
    expect(like("SHOW FUNCTIONS LIKE 'L__'")).toEqual([['LAG', 'WINDOW']]);
    // ES's list alone no longer satisfies the full case: the extension rows are checked exactly
    const cols = [
      { name: 'name', type: 'keyword' },
      { name: 'type', type: 'keyword' },
    ];
    const full = byName('showFunctions');
    expect(
      compareResult(expectedWithExtensions(full), { columns: cols, rows: full.expected.rows }).ok,
    ).toBe(false);
  });

  it('checks column count, names and JDBC types', () => {
    const t = table('a:i|b:s\n1|x');
    expect(compareResult(t, { columns: [{ name: 'a', type: 'integer' }], rows: [[1]] }).diff).toBe(
      'Different number of columns returned (expected 2 but was 1); expected:<[a, b]> but was:<[a]>',
    );
    expect(
      compareResult(t, {
        columns: [
          { name: 'a', type: 'integer' },
          { name: 'c', type: 'keyword' },
        ],
        rows: [[1, 'x']],
      }).diff,
    ).toBe('Different column name [2]; expected:<a,b> but was:<a,c>');
    expect(
      compareResult(t, {
        columns: [
          { name: 'a', type: 'long' },
          { name: 'b', type: 'keyword' },
        ],
        rows: [[1, 'x']],
      }).diff,
    ).toBe('Different column type for column [a] (INTEGER != BIGINT)');
  });

  it('maps csv types like the JDBC driver (float is REAL, intervals are text, NULL skips)', () => {
    const t = table('f:f|i:s|n:i\n1.5|+1 02:00:00|null');
    const cols = [
      { name: 'f', type: 'float' },
      { name: 'i', type: 'interval_day_to_hour' },
      { name: 'n', type: 'null' },
    ];
    expect(
      compareResult(t, {
        columns: cols,
        rows: [[1.5, parseInterval('1 02', 'INTERVAL_DAY_TO_HOUR'), null]],
      }).ok,
    ).toBe(true);
    expect(
      compareResult(t, {
        columns: cols,
        rows: [[1.5, parseInterval('1 03', 'INTERVAL_DAY_TO_HOUR'), null]],
      }).diff,
    ).toBe(
      'Different result for column [i], entry [1] expected:<+1 02:00:00> but was:<+1 03:00:00>',
    );
  });

  it('compares doubles within 1.0 and exact otherwise', () => {
    const t = table('d:d|l:l|b:b\n2.5|7|true');
    const cols = [
      { name: 'd', type: 'double' },
      { name: 'l', type: 'long' },
      { name: 'b', type: 'boolean' },
    ];
    expect(compareResult(t, { columns: cols, rows: [[3.4, 7, true]] }).ok).toBe(true);
    expect(compareResult(t, { columns: cols, rows: [[3.6, 7, true]] }).ok).toBe(false);
    expect(
      compareResult(t, { columns: cols, rows: [[3.4, 7, true]] }, { lenientFloatingNumbers: false })
        .ok,
    ).toBe(false);
    expect(compareResult(t, { columns: cols, rows: [[2.5, 8, true]] }).diff).toBe(
      'Different result for column [l], entry [1] expected:<7> but was:<8>',
    );
  });

  it('compares timestamps to the millisecond, dates and times', () => {
    const t = table('ts:ts|d:date|t:time\n1953-09-02T00:00:00.000Z|2020-04-07|10:20:30.123Z');
    const cols = [
      { name: 'ts', type: 'datetime' },
      { name: 'd', type: 'date' },
      { name: 't', type: 'time' },
    ];
    const ok = [
      [dt('1953-09-02T00:00:00Z'), convert('2020-04-07', 'DATE'), new TimeValue(37230123e6, 0)],
    ];
    expect(compareResult(t, { columns: cols, rows: ok }).ok).toBe(true);
    const withMillis = [[dt('1953-09-02T00:00:00.123Z'), ok[0]![1], ok[0]![2]]];
    expect(compareResult(t, { columns: cols, rows: withMillis }).ok).toBe(false);
    // the expected millis count (csvjdbc drops them, ES issue 54947: docs:dateTimeParse1-Ignore)
    const millis = table('ts:ts\n2020-04-07T10:20:30.123Z');
    const tsCol = [{ name: 'ts', type: 'datetime' }];
    expect(compareResult(millis, { columns: tsCol, rows: [[dt('2020-04-07T10:20:30.123Z')]] }).ok).toBe(true); // prettier-ignore
    expect(compareResult(millis, { columns: tsCol, rows: [[dt('2020-04-07T10:20:30Z')]] }).ok).toBe(false); // prettier-ignore
    const offsetTime = [[ok[0]![0], ok[0]![1], new TimeValue(40830123e6, 3600)]];
    expect(compareResult(t, { columns: cols, rows: offsetTime }).ok).toBe(true);
  });

  it('reads an expected offset as part of the instant, and a date in its own zone', () => {
    // docs:dateTimeParse3-Ignore and dateParse2-Ignore, run with time_zone Europe/Athens
    const athens = new DateTimeValue(Date.UTC(2020, 3, 7, 7, 20, 30), 0, zoneOf('Europe/Athens'));
    const ts = table('ts:ts\n2020-04-07T10:20:30.000+03:00');
    const tsCol = [{ name: 'ts', type: 'datetime' }];
    expect(compareResult(ts, { columns: tsCol, rows: [[athens]] }).ok).toBe(true);
    expect(compareResult(ts, { columns: tsCol, rows: [[dt('2020-04-07T10:20:30Z')]] }).ok).toBe(false); // prettier-ignore
    const d = table('d:date\n2020-04-07T00:00:00.000+03:00');
    const dCol = [{ name: 'd', type: 'date' }];
    const midnight = new DateTimeValue(Date.UTC(2020, 3, 6, 21), 0, zoneOf('Europe/Athens'));
    expect(compareResult(d, { columns: dCol, rows: [[midnight]] }).ok).toBe(true);
    // the same instant seen in UTC is 2020-04-06
    expect(compareResult(d, { columns: dCol, rows: [[dt('2020-04-06T21:00:00Z')]] }).ok).toBe(false); // prettier-ignore
  });

  it('treats "null" cells as SQL NULL', () => {
    const t = table('s:s|i:i\nnull|null');
    const cols = [
      { name: 's', type: 'keyword' },
      { name: 'i', type: 'integer' },
    ];
    expect(compareResult(t, { columns: cols, rows: [[null, null]] }).ok).toBe(true);
    expect(compareResult(t, { columns: cols, rows: [['x', null]] }).diff).toBe(
      'Different result for column [s], entry [1] expected:<null> but was:<x>',
    );
  });

  it('infers untyped columns from the first row like csvjdbc', () => {
    expect(inferCsvType('123')).toBe('integer');
    expect(inferCsvType('3000000000')).toBe('long');
    expect(inferCsvType('-345.2')).toBe('double');
    expect(inferCsvType('1.0E7')).toBe('double');
    expect(inferCsvType('1.50')).toBe('bigdecimal');
    expect(inferCsvType('true')).toBe('boolean');
    expect(inferCsvType('null')).toBe('integer');
    expect(inferCsvType('2018-12-12T14:48:52.448Z')).toBe('timestamp');
    expect(inferCsvType('2018-12-12')).toBe('date');
    expect(inferCsvType('12:31:27.237Z')).toBe('time');
    expect(inferCsvType('Elastic')).toBe('string');
    const t = table('rounded\n-345.2');
    expect(
      compareResult(t, { columns: [{ name: 'rounded', type: 'double' }], rows: [[-345.2]] }).ok,
    ).toBe(true);
    expect(
      compareResult(t, { columns: [{ name: 'rounded', type: 'float' }], rows: [[-345.2]] }).diff,
    ).toBe('Different column type for column [rounded] (DOUBLE != REAL)');
  });

  it('reports missing and extra rows', () => {
    const t = table('a:i\n1\n2');
    const cols = [{ name: 'a', type: 'integer' }];
    expect(compareResult(t, { columns: cols, rows: [[1]] }).diff).toBe(
      'Expected more data but no more entries found after [1]',
    );
    expect(compareResult(t, { columns: cols, rows: [[1], [2], [3]] }).diff).toBe(
      'Elasticsearch still has data after [2] entries:\n3',
    );
  });
});
