/**
 * Expressions: SqlBase.g4 precedence and associativity, ES's literal folding quirks, CAST and
 * function forms, and many spellings that must give one AST (pgsql-ast-parser style).
 */
import { describe, expect, it } from 'vitest';
import { parseSql, parseSqlExpression } from '../../../src/sql/parse.js';
import type { Expression, QueryNoWith, QuerySpecification } from '../../../src/sql/ast/nodes.js';

/** A compact S-expression of an expression tree, for precedence checks. */
function shape(e: Expression): string {
  switch (e.kind) {
    case 'Literal':
      return typeof e.value === 'object' && e.value !== null ? e.dataType : String(e.value);
    case 'Column':
      return e.name;
    case 'Arithmetic':
    case 'Comparison':
      return `(${e.operator} ${shape(e.left)} ${shape(e.right)})`;
    case 'And':
    case 'Or':
      return `(${e.kind.toUpperCase()} ${shape(e.left)} ${shape(e.right)})`;
    case 'Not':
      return `(NOT ${shape(e.operand)})`;
    case 'Negate':
      return `(neg ${shape(e.operand)})`;
    case 'Cast':
      return `(cast ${shape(e.expression)} ${e.dataType})`;
    case 'Between':
      return `(between ${shape(e.value)} ${shape(e.lower)} ${shape(e.upper)})`;
    case 'IsNull':
      return `(${e.negated ? 'notnull' : 'isnull'} ${shape(e.value)})`;
    case 'FunctionCall':
      return `${e.name}(${e.args.map(shape).join(' ')})`;
    default:
      return e.kind;
  }
}

const expr = (sql: string) => shape(parseSqlExpression(sql));

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'loc' && key !== 'sourceText')
      .map(([key, v]) => [key, strip(v)]),
  );
}

/** Several spellings, one AST (positions and source text aside). */
function sameAst(...spellings: string[]): void {
  const [first, ...others] = spellings.map((s) => strip(parseSql(s)));
  for (const [i, other] of others.entries()) expect(other, spellings[i + 1]).toEqual(first);
}

const spec = (sql: string) =>
  (parseSql(sql) as { body: QueryNoWith }).body.term as QuerySpecification;

describe('expression precedence', () => {
  it('orders * / % over + - over comparisons, all left associative', () => {
    expect(expr('1 + 2 * 3 - 4 / 5 % 6')).toBe('(- (+ 1 (* 2 3)) (% (/ 4 5) 6))');
    expect(expr('a - b - c')).toBe('(- (- a b) c)');
    expect(expr('a + 1 > b * 2 = c')).toBe('(= (> (+ a 1) (* b 2)) c)');
  });

  it('binds AND over OR and NOT over AND', () => {
    expect(expr('a OR b AND c OR d')).toBe('(OR (OR a (AND b c)) d)');
    expect(expr('NOT a = 1 AND b')).toBe('(AND (NOT (= a 1)) b)');
  });

  it('reads BETWEEN bounds as value expressions', () => {
    expect(expr('a BETWEEN 1 AND 2 + 3 AND b')).toBe('(AND (between a 1 (+ 2 3)) b)');
    expect(expr('a = b BETWEEN 1 AND 2')).toBe('(between (= a b) 1 2)');
  });

  it('binds :: tighter than a sign and chains casts', () => {
    expect(expr('-a::int')).toBe('(neg (cast a integer))');
    expect(expr('a::int::long')).toBe('(cast (cast a integer) long)');
    expect(expr('(10* 2::long)')).toBe('(* 10 (cast 2 long))');
  });
});

describe("ES's literal folding (ExpressionBuilder.withMinus / visitArithmeticUnary)", () => {
  it('folds a minus into the number it precedes, through parentheses', () => {
    const e = parseSqlExpression('- ( ( (1.25) )    )');
    expect(e).toMatchObject({ kind: 'Literal', value: -1.25, sourceText: '- ( ( (1.25) )    )' });
  });

  it('keeps a minus in front of other expressions as Negate', () => {
    expect(expr('-(1 + a)')).toBe('(neg (+ 1 a))');
    expect(parseSqlExpression('- a')).toMatchObject({ kind: 'Negate', sourceText: '- a' });
  });

  it('drops a minus applied to any literal, as ES does', () => {
    expect(expr('-(-2)')).toBe('-2');
    expect(expr('-+5')).toBe('5');
    expect(expr("-'a'")).toBe('a');
    expect(expr('-NULL')).toBe('null');
  });

  it('negates string intervals under a minus but not numeric ones', () => {
    const negative = parseSqlExpression("-INTERVAL '1' DAY") as { value: unknown };
    const positive = parseSqlExpression('-INTERVAL 1 DAY') as { value: unknown };
    expect(negative.value).toEqual({ kind: 'DayTime', millis: -86400000 });
    expect(positive.value).toEqual({ kind: 'DayTime', millis: 86400000 });
  });
});

describe('one AST, many spellings', () => {
  it('for aliases', () => {
    sameAst(
      'SELECT a AS b FROM t',
      'select a b from t',
      'SELECT "a" AS "b" FROM "t"',
      'SELECT  a\n AS b FROM t',
    );
  });

  it('for inequality and equality', () => {
    sameAst('SELECT * FROM t WHERE a <> 1', 'SELECT * FROM t WHERE a != 1');
  });

  it('for casts (the type name is kept as written)', () => {
    sameAst('SELECT CAST(a AS INTEGER) FROM t', 'SELECT {fn CAST(a AS INTEGER)} FROM t');
    expect(parseSqlExpression('CAST(a AS integer)')).toMatchObject({
      typeName: 'integer',
      dataType: 'integer',
    });
    expect(parseSqlExpression('CONVERT(a, SQL_INTEGER)')).toMatchObject({
      typeName: 'SQL_INTEGER',
      dataType: 'integer',
    });
  });

  it('for LIMIT', () => {
    sameAst('SELECT * FROM t LIMIT 5', 'SELECT * FROM t {limit 5}', 'SELECT * FROM t { LIMIT 5 }');
  });

  it('for LIKE escapes', () => {
    sameAst(
      "SELECT * FROM t WHERE a LIKE 'x|%' ESCAPE '|'",
      "SELECT * FROM t WHERE a LIKE 'x|%' {escape '|'}",
    );
  });

  it('for ORDER BY defaults', () => {
    sameAst('SELECT * FROM t ORDER BY a', 'SELECT * FROM t ORDER BY a ASC');
  });

  it('for quantifiers and function escapes', () => {
    sameAst('SELECT COUNT(a) FROM t', 'SELECT COUNT(ALL a) FROM t', 'SELECT {fn COUNT(a)} FROM t');
    sameAst('SELECT a FROM t', 'SELECT ALL a FROM t');
  });

  it('for parentheses around terms and statements', () => {
    sameAst('SELECT (a + b) * 2 FROM t', 'SELECT ((a + b)) * (2) FROM t');
  });
});

describe('statement structure', () => {
  it('keeps WHERE, GROUP BY and HAVING apart', () => {
    const s = spec('SELECT a, COUNT(*) c FROM t WHERE b > 1 GROUP BY a HAVING c > 2');
    expect(s.where && shape(s.where)).toBe('(> b 1)');
    expect(s.groupBy?.expressions.map(shape)).toEqual(['a']);
    expect(s.having && shape(s.having)).toBe('(> c 2)');
  });

  it('reads HAVING alone as HAVING', () => {
    const s = spec('SELECT MAX(a) FROM t HAVING MAX(a) > 0');
    expect(s.where).toBeNull();
    expect(s.having && shape(s.having)).toBe('(> MAX(a) 0)');
  });

  it('takes LIMIT, PIVOT and FULL OUTER after a table as clauses, else as aliases', () => {
    const relation = (sql: string) => spec(sql).from?.relations[0];
    expect(relation('SELECT * FROM t LIMIT 5')).toMatchObject({ alias: null });
    expect(relation('SELECT * FROM t limit')).toMatchObject({ alias: 'limit' });
    expect(relation('SELECT * FROM t pivot')).toMatchObject({ alias: 'pivot' });
    expect(spec('SELECT * FROM t PIVOT (MAX(a) FOR b IN (1))').from?.pivot).not.toBeNull();
    expect(relation('SELECT a RLIKE FROM t')).toMatchObject({ table: { index: 't' } });
    expect(spec('SELECT a RLIKE FROM t').selectItems[0]).toMatchObject({ alias: 'RLIKE' });
  });

  it('keeps the function name as written and CURRENT_* without parentheses as calls', () => {
    const items = spec('SELECT current_date, Current_Timestamp(3), {fn abs(1)}').selectItems;
    expect(items.map((i) => i.expression)).toMatchObject([
      { kind: 'FunctionCall', name: 'current_date', args: [], sourceText: 'current_date' },
      { kind: 'FunctionCall', name: 'Current_Timestamp', args: [{ value: 3 }] },
      { kind: 'FunctionCall', name: 'abs', sourceText: '{fn abs(1)}' },
    ]);
  });

  it('reads EXTRACT as an EXTRACT call named after the field', () => {
    expect(parseSqlExpression('EXTRACT(year FROM d)')).toMatchObject({
      kind: 'FunctionCall',
      name: 'year',
      resolution: 'EXTRACT',
      sourceText: 'EXTRACT(year FROM d)',
    });
  });

  it('reports ES column positions (charPositionInLine + 1) on every node', () => {
    const s = spec('SELECT a,\n  b + 1 AS c\nFROM t');
    expect(s.selectItems[1]).toMatchObject({
      loc: { line: 2, column: 3 },
      sourceText: 'b + 1 AS c',
    });
    expect(s.from?.relations[0]).toMatchObject({ loc: { line: 3, column: 6 } });
  });
});
