/**
 * Syntax errors read like ES 7.10's: each expected reason below is what Elasticsearch's own
 * generated ANTLR parser (SqlBaseParser, run with ES's error listener) reports for the input,
 * position, wording, expected tokens and the ANTLR exception ES nests as `caused_by`.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../src/common/errors.js';
import { parseSql } from '../../../src/sql/parse.js';

const ES_REPORTS: [sql: string, reason: string, causedBy: string | null][] = [
  ['SELECT', "line 1:7: no viable alternative at input '<EOF>'", 'no_viable_alt_exception'],
  ['SELECT * FROM', "line 1:14: no viable alternative at input '<EOF>'", 'no_viable_alt_exception'],
  [
    'SELECT * FROM t WHERE',
    "line 1:22: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  [
    'SELECT * FROM t WHERE a =',
    "line 1:26: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  [
    'SELECT * FROM t ORDER',
    "line 1:22: mismatched input '<EOF>' expecting 'BY'",
    'input_mismatch_exception',
  ],
  [
    'SELECT * FROM t ORDER BY',
    "line 1:25: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  [
    'SELECT a, FROM t',
    "line 1:11: extraneous input 'FROM' expecting {'(', 'ANALYZE', 'ANALYZED', 'CASE', 'CAST', 'CATALOGS', 'COLUMNS', 'CONVERT', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'DAY', 'DEBUG', 'EXECUTABLE', 'EXISTS', 'EXPLAIN', 'EXTRACT', 'FALSE', 'FIRST', 'FORMAT', 'FULL', 'FUNCTIONS', 'GRAPHVIZ', 'HOUR', 'INTERVAL', 'LAST', 'LEFT', 'LIMIT', 'MAPPED', 'MATCH', 'MINUTE', 'MONTH', 'NOT', 'NULL', 'OPTIMIZED', 'PARSED', 'PHYSICAL', 'PIVOT', 'PLAN', 'RIGHT', 'RLIKE', 'QUERY', 'SCHEMAS', 'SECOND', 'SHOW', 'SYS', 'TABLES', 'TEXT', 'TRUE', 'TOP', 'TYPE', 'TYPES', 'VERIFY', 'YEAR', FUNCTION_ESC, DATE_ESC, TIME_ESC, TIMESTAMP_ESC, GUID_ESC, '+', '-', '*', '?', STRING, INTEGER_VALUE, DECIMAL_VALUE, IDENTIFIER, DIGIT_IDENTIFIER, QUOTED_IDENTIFIER, BACKQUOTED_IDENTIFIER}",
    null,
  ],
  [
    'SELECT a FROM t,',
    "line 1:17: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  [
    'SELECT a b c FROM t',
    "line 1:12: extraneous input 'c' expecting {<EOF>, ',', 'FROM', 'GROUP', 'HAVING', 'LIMIT', 'ORDER', 'WHERE', LIMIT_ESC}",
    null,
  ],
  ['SELECT COUNT(', "line 1:14: missing ')' at '<EOF>'", null],
  ['SELECT COUNT(a', "line 1:15: missing ')' at '<EOF>'", null],
  [
    'SELECT f(a,) FROM t',
    "line 1:12: mismatched input ')' expecting {'(', 'ANALYZE', 'ANALYZED', 'CASE', 'CAST', 'CATALOGS', 'COLUMNS', 'CONVERT', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'DAY', 'DEBUG', 'EXECUTABLE', 'EXISTS', 'EXPLAIN', 'EXTRACT', 'FALSE', 'FIRST', 'FORMAT', 'FULL', 'FUNCTIONS', 'GRAPHVIZ', 'HOUR', 'INTERVAL', 'LAST', 'LEFT', 'LIMIT', 'MAPPED', 'MATCH', 'MINUTE', 'MONTH', 'NOT', 'NULL', 'OPTIMIZED', 'PARSED', 'PHYSICAL', 'PIVOT', 'PLAN', 'RIGHT', 'RLIKE', 'QUERY', 'SCHEMAS', 'SECOND', 'SHOW', 'SYS', 'TABLES', 'TEXT', 'TRUE', 'TOP', 'TYPE', 'TYPES', 'VERIFY', 'YEAR', FUNCTION_ESC, DATE_ESC, TIME_ESC, TIMESTAMP_ESC, GUID_ESC, '+', '-', '*', '?', STRING, INTEGER_VALUE, DECIMAL_VALUE, IDENTIFIER, DIGIT_IDENTIFIER, QUOTED_IDENTIFIER, BACKQUOTED_IDENTIFIER}",
    'input_mismatch_exception',
  ],
  ['SELECT CAST(a AS INT FROM t', "line 1:22: missing ')' at 'FROM'", null],
  [
    'SELECT a FROM t WHERE a BETWEEN 1',
    "line 1:34: mismatched input '<EOF>' expecting 'AND'",
    'input_mismatch_exception',
  ],
  [
    'SELECT a FROM t WHERE a IN ()',
    "line 1:29: no viable alternative at input 'IN ()'",
    'no_viable_alt_exception',
  ],
  [
    'SELECT a FROM t WHERE a IN (1,',
    "line 1:31: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  ['SELECT a FROM t WHERE a LIKE', "line 1:29: missing {'?', STRING} at '<EOF>'", null],
  ['SELECT a FROM t WHERE a IS', "line 1:27: missing 'NULL' at '<EOF>'", null],
  ['SELECT a FROM t WHERE a IS NOT', "line 1:31: missing 'NULL' at '<EOF>'", null],
  [
    'SELECT INTERVAL 1',
    "line 1:18: missing {'DAY', 'DAYS', 'HOUR', 'HOURS', 'MINUTE', 'MINUTES', 'MONTH', 'MONTHS', 'SECOND', 'SECONDS', 'YEAR', 'YEARS'} at '<EOF>'",
    null,
  ],
  [
    "SELECT INTERVAL '1' DAY TO",
    "line 1:27: missing {'DAY', 'DAYS', 'HOUR', 'HOURS', 'MINUTE', 'MINUTES', 'MONTH', 'MONTHS', 'SECOND', 'SECONDS', 'YEAR', 'YEARS'} at '<EOF>'",
    null,
  ],
  ["SELECT {d '2020-01-01'", "line 1:23: missing '}' at '<EOF>'", null],
  ['SELECT {fn abs(1)', "line 1:18: missing '}' at '<EOF>'", null],
  [
    'SELECT a FROM t PIVOT (',
    "line 1:24: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  [
    'SELECT a FROM t PIVOT (SUM(a) FOR',
    "line 1:34: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  ['SHOW', "line 1:5: no viable alternative at input 'SHOW'", 'no_viable_alt_exception'],
  ['SHOW TABLES LIKE', "line 1:17: missing {'?', STRING} at '<EOF>'", null],
  [
    'SHOW COLUMNS',
    "line 1:13: mismatched input '<EOF>' expecting {'FROM', 'IN'}",
    'input_mismatch_exception',
  ],
  ['SYS', "line 1:4: no viable alternative at input 'SYS'", 'no_viable_alt_exception'],
  ['SYS TYPES x', "line 1:11: extraneous input 'x' expecting <EOF>", null],
  [
    'EXPLAIN (PLAN FOO) SELECT 1',
    "line 1:15: mismatched input 'FOO' expecting {'ALL', 'ANALYZED', 'EXECUTABLE', 'MAPPED', 'OPTIMIZED', 'PARSED'}",
    'input_mismatch_exception',
  ],
  [
    'WITH x SELECT 1',
    "line 1:8: mismatched input 'SELECT' expecting 'AS'",
    'input_mismatch_exception',
  ],
  [
    'SELECT 1 2',
    "line 1:10: extraneous input '2' expecting {<EOF>, ',', 'ANALYZE', 'ANALYZED', 'AND', 'AS', 'BETWEEN', 'CATALOGS', 'COLUMNS', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'DAY', 'DEBUG', 'EXECUTABLE', 'EXPLAIN', 'FIRST', 'FORMAT', 'FROM', 'FULL', 'FUNCTIONS', 'GRAPHVIZ', 'GROUP', 'HAVING', 'HOUR', 'IN', 'INTERVAL', 'IS', 'LAST', 'LIKE', 'LIMIT', 'MAPPED', 'MINUTE', 'MONTH', 'NOT', 'OPTIMIZED', 'OR', 'ORDER', 'PARSED', 'PHYSICAL', 'PIVOT', 'PLAN', 'RLIKE', 'QUERY', 'SCHEMAS', 'SECOND', 'SHOW', 'SYS', 'TABLES', 'TEXT', 'TOP', 'TYPE', 'TYPES', 'VERIFY', 'WHERE', 'YEAR', LIMIT_ESC, '=', '<=>', NEQ, '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '::', IDENTIFIER, DIGIT_IDENTIFIER, QUOTED_IDENTIFIER, BACKQUOTED_IDENTIFIER}",
    null,
  ],
  [
    "SELECT 'a' 1",
    "line 1:12: extraneous input '1' expecting {<EOF>, ',', 'ANALYZE', 'ANALYZED', 'AND', 'AS', 'BETWEEN', 'CATALOGS', 'COLUMNS', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'DAY', 'DEBUG', 'EXECUTABLE', 'EXPLAIN', 'FIRST', 'FORMAT', 'FROM', 'FULL', 'FUNCTIONS', 'GRAPHVIZ', 'GROUP', 'HAVING', 'HOUR', 'IN', 'INTERVAL', 'IS', 'LAST', 'LIKE', 'LIMIT', 'MAPPED', 'MINUTE', 'MONTH', 'NOT', 'OPTIMIZED', 'OR', 'ORDER', 'PARSED', 'PHYSICAL', 'PIVOT', 'PLAN', 'RLIKE', 'QUERY', 'SCHEMAS', 'SECOND', 'SHOW', 'SYS', 'TABLES', 'TEXT', 'TOP', 'TYPE', 'TYPES', 'VERIFY', 'WHERE', 'YEAR', LIMIT_ESC, '=', '<=>', NEQ, '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '::', STRING, IDENTIFIER, DIGIT_IDENTIFIER, QUOTED_IDENTIFIER, BACKQUOTED_IDENTIFIER}",
    null,
  ],
  [
    'SELECT a.* .b FROM t',
    "line 1:12: extraneous input '.' expecting {<EOF>, ',', 'ANALYZE', 'ANALYZED', 'AND', 'AS', 'BETWEEN', 'CATALOGS', 'COLUMNS', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'DAY', 'DEBUG', 'EXECUTABLE', 'EXPLAIN', 'FIRST', 'FORMAT', 'FROM', 'FULL', 'FUNCTIONS', 'GRAPHVIZ', 'GROUP', 'HAVING', 'HOUR', 'IN', 'INTERVAL', 'IS', 'LAST', 'LIKE', 'LIMIT', 'MAPPED', 'MINUTE', 'MONTH', 'NOT', 'OPTIMIZED', 'OR', 'ORDER', 'PARSED', 'PHYSICAL', 'PIVOT', 'PLAN', 'RLIKE', 'QUERY', 'SCHEMAS', 'SECOND', 'SHOW', 'SYS', 'TABLES', 'TEXT', 'TOP', 'TYPE', 'TYPES', 'VERIFY', 'WHERE', 'YEAR', LIMIT_ESC, '=', '<=>', NEQ, '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '::', IDENTIFIER, DIGIT_IDENTIFIER, QUOTED_IDENTIFIER, BACKQUOTED_IDENTIFIER}",
    null,
  ],
  [
    'SELECT * FROM t WHERE MATCH(a)',
    "line 1:30: mismatched input ')' expecting ','",
    'input_mismatch_exception',
  ],
  [
    'SELECT * FROM t GROUP BY a HAVING',
    "line 1:34: no viable alternative at input '<EOF>'",
    'no_viable_alt_exception',
  ],
  [
    'SELECT 1 ; SELECT 2',
    "line 1:10: mismatched input ';' expecting {<EOF>, ',', 'ANALYZE', 'ANALYZED', 'AND', 'AS', 'BETWEEN', 'CATALOGS', 'COLUMNS', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'DAY', 'DEBUG', 'EXECUTABLE', 'EXPLAIN', 'FIRST', 'FORMAT', 'FROM', 'FULL', 'FUNCTIONS', 'GRAPHVIZ', 'GROUP', 'HAVING', 'HOUR', 'IN', 'INTERVAL', 'IS', 'LAST', 'LIKE', 'LIMIT', 'MAPPED', 'MINUTE', 'MONTH', 'NOT', 'OPTIMIZED', 'OR', 'ORDER', 'PARSED', 'PHYSICAL', 'PIVOT', 'PLAN', 'RLIKE', 'QUERY', 'SCHEMAS', 'SECOND', 'SHOW', 'SYS', 'TABLES', 'TEXT', 'TOP', 'TYPE', 'TYPES', 'VERIFY', 'WHERE', 'YEAR', LIMIT_ESC, '=', '<=>', NEQ, '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '::', IDENTIFIER, DIGIT_IDENTIFIER, QUOTED_IDENTIFIER, BACKQUOTED_IDENTIFIER}",
    'input_mismatch_exception',
  ],
];

function failure(sql: string): EsError {
  try {
    parseSql(sql);
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error(`parsed: ${sql}`);
}

describe('syntax errors in ES wording', () => {
  for (const [sql, reason, causedBy] of ES_REPORTS) {
    it(sql, () => {
      const e = failure(sql);
      expect(e.type).toBe('parsing_exception');
      expect(e.status).toBe(400);
      expect(e.reason).toBe(reason);
      expect(e.causedBy?.type ?? null).toBe(causedBy);
      expect(e.causedBy?.reason ?? null).toBeNull();
    });
  }

  it("reports ANTLR's view of the offending token text (escaped whitespace)", () => {
    expect(failure('SELECT a FROM t\n\tx\ty').reason).toBe(
      "line 2:4: extraneous input 'y' expecting {<EOF>, ',', 'FULL', 'GROUP', 'HAVING', 'INNER', 'JOIN', 'LEFT', 'LIMIT', 'NATURAL', 'ORDER', 'PIVOT', 'RIGHT', 'WHERE', LIMIT_ESC}",
    );
  });

  it('turns stack exhaustion into ES\'s "statement is too large" error', () => {
    const sql = `SELECT ${'('.repeat(20000)}1${')'.repeat(20000)}`;
    expect(failure(sql).reason).toMatch(
      /^line -1:0: SQL statement is too large, causing stack overflow when generating the parsing tree: \[SELECT \(/,
    );
    // the shared parser recovers for the next statement
    expect(parseSql('SELECT 1 AS one')).toMatchObject({ kind: 'Query' });
  });
});
