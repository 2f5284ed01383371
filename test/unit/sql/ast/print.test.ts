/**
 * The printer writes SQL that parses back to the same tree: quoting, literal forms,
 * parentheses, parameters.
 */
import { describe, expect, it } from 'vitest';
import { parseSql, parseSqlExpression } from '../../../../src/sql/parse.js';
import type { SqlParam } from '../../../../src/sql/parse.js';
import { printIdentifier, printSql } from '../../../../src/sql/ast/print.js';

const print = (sql: string, params: SqlParam[] = []) => printSql(parseSql(sql, params));
const printExpr = (sql: string) => printSql(parseSqlExpression(sql));

describe('SQL printer', () => {
  it('quotes identifiers that are reserved words or not plain names', () => {
    expect(printIdentifier('emp_no')).toBe('emp_no');
    expect(printIdentifier('limit')).toBe('limit');
    expect(printIdentifier('select')).toBe('"select"');
    expect(printIdentifier('logs-*')).toBe('"logs-*"');
    expect(printIdentifier('a"b')).toBe('"a""b"');
    expect(printIdentifier('1a')).toBe('"1a"');
  });

  it('writes literals that lex back to the same type', () => {
    expect(printExpr('1.0')).toBe('1.0');
    expect(printExpr('1e21')).toBe('1e+21');
    expect(printExpr("'it''s'")).toBe("'it''s'");
    expect(printExpr('9223372036854775807')).toBe('9223372036854775807');
    expect(printExpr("{d '2020-01-02'}")).toBe("{d '2020-01-02'}");
    expect(printExpr("{ts '2020-01-02 03:04:05'}")).toBe("{ts '2020-01-02T03:04:05.000Z'}");
    expect(printExpr("INTERVAL '1 2:03:04.5' DAY TO SECOND")).toBe(
      "INTERVAL '1 02:03:04.500' DAY TO SECOND",
    );
    expect(printExpr("INTERVAL -'1-2' YEAR TO MONTH")).toBe("INTERVAL '-1-2' YEAR TO MONTH");
  });

  it('parenthesises operands, including negative numbers under a cast', () => {
    expect(printExpr('a + b * c')).toBe('a + (b * c)');
    expect(printExpr('(-2)::long')).toBe('(-2)::long');
    expect(printExpr('NOT a = 1 OR b')).toBe('(NOT (a = 1)) OR b');
  });

  it('prints parameters as ?', () => {
    expect(print('SELECT ? + 1 FROM t', [{ type: 'integer', value: 3 }])).toBe(
      'SELECT ? + 1 FROM t',
    );
  });

  it('prints every clause', () => {
    expect(
      print(
        'WITH w AS (SELECT 1) SELECT TOP 3 DISTINCT a x FROM FROZEN "logs-*" l WHERE b IS NOT NULL ' +
          'GROUP BY a HAVING COUNT(*) > 1 ORDER BY a DESC NULLS LAST',
      ),
    ).toBe(
      'WITH w AS (SELECT 1) SELECT TOP 3 DISTINCT a AS x FROM FROZEN "logs-*" AS l WHERE b IS NOT NULL ' +
        'GROUP BY a HAVING COUNT(*) > 1 ORDER BY a DESC NULLS LAST',
    );
    expect(print("SYS TABLES CATALOG LIKE '%' LIKE 'a%' TYPE 'TABLE'")).toBe(
      "SYS TABLES CATALOG LIKE '%' LIKE 'a%' TYPE 'TABLE'",
    );
    expect(print('EXPLAIN (PLAN PARSED VERIFY FALSE) SHOW FUNCTIONS')).toBe(
      'EXPLAIN (PLAN PARSED VERIFY FALSE) SHOW FUNCTIONS',
    );
  });
});
