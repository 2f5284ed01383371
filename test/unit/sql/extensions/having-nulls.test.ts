/**
 * HAVING with SQL NULL semantics: a group whose aggregate has no values (languages is null for
 * ten employees) is dropped by a comparison and kept by IS NULL, as H2 answers; datetime
 * aggregates keep ES's behaviour (the upstream csv-spec pins it).
 */
import { describe, expect, it } from 'vitest';
import { useExtNode } from './ext-node.js';

const run = useExtNode();

describe('HAVING over aggregates without values', () => {
  it('a comparison drops the group (NaN is no longer above every number)', async () => {
    const r = await run(
      'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages HAVING MAX(languages) > 3 ORDER BY languages',
    );
    // H2: 4 18, 5 21 (the null group's MAX is NULL)
    expect(r.rows).toEqual([
      [4, 18],
      [5, 21],
    ]);
  });

  it('<> and arithmetic over the null aggregate drop it too', async () => {
    const r = await run(
      'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages HAVING COUNT(*) - MAX(languages) <> -5 ORDER BY languages',
    );
    expect(r.rows.map((x) => x[0])).toEqual([1, 2, 3, 4, 5]);
  });

  it('IS NULL keeps it', async () => {
    const r = await run(
      'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages HAVING MIN(languages) IS NULL',
    );
    expect(r.rows).toEqual([[null, 10]]);
  });

  it('the translated body stays ES', () => {
    const t = JSON.stringify(
      run.translate('SELECT languages FROM test_emp GROUP BY languages HAVING MAX(languages) > 3'),
    );
    expect(t).not.toContain('isNaN');
  });

  it('a datetime aggregate keeps ES behaviour (date:dateParseHaving)', async () => {
    const r = await run(
      "SELECT MAX(birth_date) AS max, DATETIME_FORMAT(birth_date, 'MM') AS m FROM test_emp GROUP BY m HAVING DATE_PARSE(DATETIME_FORMAT(MAX(birth_date), 'dd/MM/uuuu'), 'dd/MM/uuuu') > '1961-10-20'::date ORDER BY 1 DESC NULLS LAST",
    );
    expect(r.rows[r.rows.length - 1]).toEqual([null, null]);
  });
});

describe('HAVING over SUM without values', () => {
  it('is NULL, not 0', async () => {
    const r = await run(
      'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages HAVING SUM(languages) < 1',
    );
    expect(r.rows).toEqual([]);
    const n = await run(
      'SELECT languages, COUNT(*) c FROM test_emp GROUP BY languages HAVING SUM(languages) IS NULL',
    );
    expect(n.rows).toEqual([[null, 10]]);
  });

  it('is NULL when it shares a stats aggregation with MAX', async () => {
    const r = await run(
      'SELECT languages, MAX(languages) m FROM test_emp GROUP BY languages HAVING SUM(languages) <> 1 ORDER BY languages',
    );
    expect(r.rows.map((x) => x[0])).toEqual([1, 2, 3, 4, 5]);
  });
});
