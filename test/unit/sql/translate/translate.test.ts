/**
 * Lowering details the goldens do not isolate: page size vs LIMIT, the REST `filter` combined with
 * WHERE, datetime terms values as ES prints ZonedDateTime, `_script` sorts (with the value ref kept
 * for execution), bucket_selector names that must be valid aggregation names, and the side record
 * of integral Double script params.
 */
import { describe, expect, it } from 'vitest';
import { doubleParamNames } from '../../../../src/sql/translate/script.js';
import { plan, translate } from './helpers.js';

describe('sizes and filters', () => {
  it('sends min(LIMIT, fetch_size) as size', () => {
    expect(translate('SELECT emp_no FROM test_emp LIMIT 5').size).toBe(5);
    expect(translate('SELECT emp_no FROM test_emp LIMIT 5', 2).size).toBe(2);
    expect(translate('SELECT emp_no FROM test_emp', 250).size).toBe(250);
  });

  it('ANDs the REST filter with WHERE in a bool query', () => {
    const filter = { term: { gender: 'F' } };
    expect(translate('SELECT emp_no FROM test_emp WHERE emp_no > 10', 1000, filter).query).toEqual({
      bool: {
        must: [
          {
            range: {
              emp_no: {
                from: 10,
                to: null,
                include_lower: false,
                include_upper: false,
                boost: 1.0,
              },
            },
          },
        ],
        filter: [filter],
        adjust_pure_negative: true,
        boost: 1.0,
      },
    });
    expect(translate('SELECT emp_no FROM test_emp', 1000, filter).query).toEqual({
      bool: { filter: [filter], adjust_pure_negative: true, boost: 1.0 },
    });
  });
});

describe('values', () => {
  it('prints datetime terms as ISO instants, converted to the first value type (DATE)', () => {
    const b = translate(
      "SELECT birth_date FROM test_emp WHERE birth_date IN ({d '1959-07-23'}, CAST('1959-12-25T12:12:12' AS TIMESTAMP), {d '1959-07-23'})",
    );
    expect(b.query).toEqual({
      terms: { birth_date: ['1959-07-23T00:00:00.000Z', '1959-12-25T00:00:00.000Z'], boost: 1.0 },
    });
  });

  it('records integral Double params of scripts (12.0 is not 12)', () => {
    const b = translate('SELECT SUM(salary / 12.0) s, SUM(salary / 12) i FROM test_emp');
    const aggs = Object.values(b.aggregations.groupby.aggregations) as any[];
    const [dbl, int] = aggs.map((a) => a.sum.script);
    expect(dbl.params).toEqual({ v0: 'salary', v1: 12 });
    expect([...(doubleParamNames(dbl.params) ?? [])]).toEqual(['v1']);
    expect(doubleParamNames(int.params)).toBeUndefined();
  });
});

describe('sorts', () => {
  it('sorts on a scalar through a null-safe _script and keeps its value reference', () => {
    const sql = 'SELECT first_name FROM test_emp ORDER BY LENGTH(first_name) DESC, emp_no LIMIT 3';
    expect(translate(sql).sort).toEqual([
      {
        _script: {
          script: {
            source:
              'InternalQlScriptUtils.nullSafeSortNumeric(InternalSqlScriptUtils.length(InternalQlScriptUtils.docValue(doc,params.v0)))',
            lang: 'painless',
            params: { v0: 'first_name.keyword' },
          },
          type: 'number',
          order: 'desc',
        },
      },
      { emp_no: { order: 'asc', missing: '_last', unmapped_type: 'integer' } },
    ]);
    const sorts = plan(sql).container!.sort.map(([, s]) => s);
    expect(sorts.map((s) => s.kind)).toEqual(['script', 'field']);
    const script = sorts[0]!;
    if (script.kind !== 'script') throw new Error('script sort expected');
    expect(script.script.outputType).toBe('INTEGER');
  });
});

describe('having', () => {
  it('names bucket selectors validly when the filtered expression has `>` in its name', () => {
    const b = translate(
      "SELECT languages, CASE WHEN COUNT(*) > 10 THEN 'many' ELSE 'few' END c FROM test_emp GROUP BY languages HAVING c = 'many'",
    );
    const names = Object.keys(b.aggregations.groupby.aggregations);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^having\.[0-9a-f]{1,8}$/);
    expect(b.aggregations.groupby.aggregations[names[0]!].bucket_selector.buckets_path).toEqual({
      a0: '_count',
    });
  });
});
