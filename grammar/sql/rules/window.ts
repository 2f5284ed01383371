/**
 * Window specifications (Quarry extension, issue 16; not in SqlBase.g4): `fn(...) OVER
 * ([PARTITION BY expr, ...] [ORDER BY orderBy, ...])`. OVER and PARTITION are not keywords (no
 * new tokens, so ES's expected-token lists in syntax errors are unchanged): they are identifiers
 * recognised by their text, and OVER only when `(` follows, so `COUNT(*) over` stays an alias.
 */
import type { IToken } from 'chevrotain';
import * as t from '../tokens.js';
import { isIdentifierToken } from './dsl.js';
import type { Dsl, SqlGrammar } from './dsl.js';

const word = (token: IToken, w: string) =>
  isIdentifierToken(token) && token.image.toUpperCase() === w;

/** `OVER (` follows. */
export const isOverAhead = ($: Dsl): boolean =>
  word($.LA(1), 'OVER') && $.LA(2).tokenType === t.LeftParen;

export function defineWindowRules($: SqlGrammar): void {
  // OVER '(' (PARTITION BY booleanExpression (',' booleanExpression)*)?
  //          (ORDER BY orderBy (',' orderBy)*)? ')'
  $.overClause = $.RULE('overClause', () => {
    $.SUBRULE($.identifier);
    $.CONSUME(t.LeftParen);
    $.OPTION({
      GATE: () => word($.LA(1), 'PARTITION') && $.LA(2).tokenType === t.By,
      DEF: () => $.SUBRULE($.partitionBy),
    });
    $.OPTION1(() => {
      $.CONSUME(t.Order);
      $.CONSUME(t.By);
      $.SUBRULE($.orderBy);
      $.MANY(() => {
        $.CONSUME(t.Comma);
        $.SUBRULE1($.orderBy);
      });
    });
    $.CONSUME(t.RightParen);
  });

  // PARTITION BY booleanExpression (',' booleanExpression)*
  $.partitionBy = $.RULE('partitionBy', () => {
    $.SUBRULE($.identifier);
    $.CONSUME(t.By);
    $.SUBRULE($.booleanExpression);
    $.MANY(() => {
      $.CONSUME(t.Comma);
      $.SUBRULE1($.booleanExpression);
    });
  });
}
