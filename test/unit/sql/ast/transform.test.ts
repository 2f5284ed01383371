/**
 * Exhaustive helpers: child listing, walking and bottom-up expression rewriting.
 */
import { describe, expect, it } from 'vitest';
import { parseSql, parseSqlExpression } from '../../../../src/sql/parse.js';
import { printSql } from '../../../../src/sql/ast/print.js';
import { literal } from '../../../../src/sql/ast/nodes.js';
import type { Node } from '../../../../src/sql/ast/nodes.js';
import { childrenOf, transformExpressionUp, walk } from '../../../../src/sql/ast/transform.js';

describe('AST transforms', () => {
  it('walk every node in source order', () => {
    const kinds: string[] = [];
    walk(parseSql('SELECT a + 1 FROM t WHERE b IN (2, 3)'), (n: Node) => void kinds.push(n.kind));
    expect(kinds).toEqual([
      'Query',
      'QueryNoWith',
      'QuerySpecification',
      'SelectItem',
      'Arithmetic',
      'Column',
      'Literal',
      'FromClause',
      'TableRelation',
      'TableIdentifier',
      'In',
      'Column',
      'Literal',
      'Literal',
    ]);
  });

  it('list direct children only', () => {
    expect(
      childrenOf(parseSqlExpression('CASE a WHEN 1 THEN 2 ELSE 3 END')).map((n) => n.kind),
    ).toEqual(['Column', 'When', 'Literal']);
  });

  it('rewrite bottom-up, children first', () => {
    const doubled = transformExpressionUp(parseSqlExpression('f(1, 2 + x)'), (e) =>
      e.kind === 'Literal' && typeof e.value === 'number'
        ? literal({ ...e, value: e.value * 2, sourceText: String(e.value * 2) })
        : e,
    );
    expect(printSql(doubled)).toBe('f(2, 4 + x)');
  });
});
