/**
 * What execution sends the 6.8 DSL executor (executableBody) and the script helpers it runs SQL
 * scripts with (sqlScriptMethods): 7.10 spellings mapped, integral Double params kept as doubles,
 * doc values' first value, NaN metrics read as Java's longValue(), datetime results usable as
 * numbers and as terms.
 */
import { describe, expect, it } from 'vitest';
import { executableBody } from '../../../../src/sql/execute/search.js';
import { ScriptDouble, sqlScriptMethods } from '../../../../src/sql/execute/script-bridge.js';
import { SCRIPT_METHODS } from '../../../../src/functions/script-methods.js';
import { DateTimeValue } from '../../../../src/functions/values.js';
import { translate } from '../translate/helpers.js';

describe('executableBody', () => {
  it('maps track_total_hits, intervals and the Z zone id', () => {
    const b = executableBody({
      track_total_hits: 2147483647,
      query: { range: { d: { gte: 'now', time_zone: 'Z' } } },
      aggregations: {
        groupby: {
          composite: {
            sources: [
              {
                h: {
                  date_histogram: { field: 'd', calendar_interval: '1y', time_zone: 'Z' },
                },
              },
              { f: { date_histogram: { field: 'd', fixed_interval: '3600000ms' } } },
            ],
          },
        },
      },
    });
    expect(b.track_total_hits).toBe(true);
    expect((b.query as any).range.d.time_zone).toBe('UTC');
    const [h, f] = (b.aggregations as any).groupby.composite.sources;
    expect(h.h.date_histogram).toEqual({ field: 'd', interval: '1y', time_zone: 'UTC' });
    expect(f.f.date_histogram).toEqual({ field: 'd', interval: '3600000ms' });
  });

  it('leaves fields named like 7.x keys alone outside aggregations', () => {
    const b = executableBody({ query: { term: { calendar_interval: { value: 'x' } } } });
    expect(b.query).toEqual({ term: { calendar_interval: { value: 'x' } } });
  });

  it("gives top_hits' docvalue_fields as names", () => {
    const b = executableBody(translate('SELECT FIRST(first_name, birth_date) f FROM test_emp'));
    const th = (b.aggregations as any).groupby.aggregations['0'].top_hits;
    expect(th.docvalue_fields).toEqual(['first_name.keyword']);
  });

  it('wraps integral Double params so scripts divide as doubles', () => {
    const b = executableBody(translate('SELECT SUM(salary / 12.0) s FROM test_emp'));
    const params = (b.aggregations as any).groupby.aggregations['0'].sum.script.params;
    expect(params.v0).toBe('salary');
    expect(params.v1).toBeInstanceOf(ScriptDouble);
    expect(Number(params.v1)).toBe(12);
    expect(JSON.stringify(params)).toBe('{"v0":"salary","v1":12}');
  });
});

describe('sqlScriptMethods', () => {
  const m = sqlScriptMethods(
    Object.fromEntries(
      Object.entries(SCRIPT_METHODS).map(([k, f]) => [`InternalSqlScriptUtils.${k}`, f]),
    ) as Record<string, (...a: unknown[]) => unknown>,
  );

  it('divides as Java does: integers truncate unless a Double takes part', () => {
    expect(m['InternalSqlScriptUtils.div']!(7, 2)).toBe(3);
    expect(m['InternalSqlScriptUtils.div']!(7, new ScriptDouble(2))).toBe(3.5);
    expect(m['InternalSqlScriptUtils.mul']!(new ScriptDouble(2), 3)).toBe(6);
    expect(m['InternalSqlScriptUtils.mod']!(7.5, new ScriptDouble(2))).toBe(1.5);
  });

  it("reads an empty bucket's NaN metric as epoch 0 in asDateTime", () => {
    const d = m['InternalSqlScriptUtils.asDateTime']!(NaN) as DateTimeValue;
    expect(d.millis).toBe(0);
  });

  it('returns datetimes that sort as numbers and hash as distinct terms', () => {
    const d = m['InternalSqlScriptUtils.asDateTime']!(86_400_000) as DateTimeValue;
    expect(d).toBeInstanceOf(DateTimeValue);
    expect(+d).toBe(86_400_000);
    expect(String(d)).toBe('1970-01-02T00:00:00.000Z');
  });
});
