/**
 * Primary expressions: CAST/CONVERT, EXTRACT, function calls (with `{fn ...}` escapes),
 * CURRENT_DATE/TIME/TIMESTAMP, constants, `*` and `t.*`, sub-selects, column references,
 * parentheses and CASE. SqlBase.g4 resolves overlaps between these with unbounded lookahead and
 * "first alternative wins"; the GATEs below make the same choices.
 */
import * as t from '../tokens.js';
import { isOverAhead } from './window.js';
import {
  isIdentifierToken,
  isIntervalAhead,
  isQualifiedStarAhead,
  isSubSelectAhead,
} from './dsl.js';
import type { SqlGrammar } from './dsl.js';

export function definePrimaryRules($: SqlGrammar): void {
  // Alternatives are built once (not per call); the most common case, a plain column, is tried
  // first so the gated decision usually ends at its first alternative.
  const qualifierParts = {
    GATE: () => isIdentifierToken($.LA(2)),
    DEF: () => {
      $.CONSUME(t.Dot);
      $.CONSUME1(t.IdentifierToken);
    },
  };
  const primaryAlternatives = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        // #dereference (SqlBase.g4 `qualifiedName`), the common case first. DEVIATION: the
        // name tokens are consumed here (no qualifiedName node); not a call, CURRENT_* alone,
        // an interval literal or `a.*`
        GATE: () => isNameAhead($),
        ALT: () => {
          $.CONSUME(t.IdentifierToken);
          $.MANY(qualifierParts);
        },
      },
      { ALT: () => $.SUBRULE1($.castExpression) }, // #cast
      { ALT: () => $.SUBRULE1($.extractExpression) }, // #extract
      {
        // #function; before #currentDateTimeFunction: CURRENT_DATE( is a call
        GATE: () =>
          $.LA(1).tokenType === t.FunctionEsc ||
          ($.LA(2).tokenType === t.LeftParen && isFunctionName($)),
        ALT: () => $.SUBRULE1($.functionExpression),
      },
      {
        // #currentDateTimeFunction; `current_date.x` is a column reference
        GATE: () => $.LA(2).tokenType !== t.Dot,
        ALT: () => $.SUBRULE1($.builtinDateTimeFunction),
      },
      {
        // #constantDefault; INTERVAL is nonReserved and may name a column
        GATE: () => $.LA(1).tokenType !== t.Interval || isIntervalAhead($),
        ALT: () => $.SUBRULE1($.constant),
      },
      {
        GATE: () => $.LA(1).tokenType === t.Asterisk || isQualifiedStarAhead($),
        ALT: () => $.SUBRULE1($.star), // #star
      },
      {
        // #subqueryExpression before #parenthesizedExpression, as in SqlBase.g4
        GATE: () => isSubSelectAhead($, $.subqueryExpression, $.parenthesizedExpression),
        ALT: () => $.SUBRULE1($.subqueryExpression),
      },
      { ALT: () => $.SUBRULE1($.parenthesizedExpression) },
      { ALT: () => $.SUBRULE1($.case) },
    ],
  };

  // SqlBase.g4: primaryExpression
  $.primaryExpression = $.RULE('primaryExpression', () => {
    $.OR(primaryAlternatives);
  });

  // SqlBase.g4: builtinDateTimeFunction
  $.builtinDateTimeFunction = $.RULE('builtinDateTimeFunction', () => {
    $.OR([
      { ALT: () => $.CONSUME(t.CurrentTimestamp) },
      { ALT: () => $.CONSUME(t.CurrentDate) },
      { ALT: () => $.CONSUME(t.CurrentTime) },
    ]);
  });

  // SqlBase.g4: castExpression
  // castTemplate | FUNCTION_ESC castTemplate ESC_END | convertTemplate | FUNCTION_ESC convertTemplate ESC_END
  $.castExpression = $.RULE('castExpression', () => {
    $.OR([
      { ALT: () => $.SUBRULE($.castTemplate) },
      {
        ALT: () => {
          $.CONSUME(t.FunctionEsc);
          $.SUBRULE1($.castTemplate);
          $.CONSUME(t.EscEnd);
        },
      },
      { ALT: () => $.SUBRULE($.convertTemplate) },
      {
        ALT: () => {
          $.CONSUME1(t.FunctionEsc);
          $.SUBRULE1($.convertTemplate);
          $.CONSUME1(t.EscEnd);
        },
      },
    ]);
  });

  // SqlBase.g4: castTemplate
  // CAST '(' expression AS dataType ')'
  $.castTemplate = $.RULE('castTemplate', () => {
    $.CONSUME(t.Cast);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.booleanExpression);
    $.CONSUME(t.As);
    $.SUBRULE($.dataType);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: convertTemplate
  // CONVERT '(' expression ',' dataType ')'
  $.convertTemplate = $.RULE('convertTemplate', () => {
    $.CONSUME(t.Convert);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.booleanExpression);
    $.CONSUME(t.Comma);
    $.SUBRULE($.dataType);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: extractExpression
  // extractTemplate | FUNCTION_ESC extractTemplate ESC_END
  $.extractExpression = $.RULE('extractExpression', () => {
    $.OR([
      { ALT: () => $.SUBRULE($.extractTemplate) },
      {
        ALT: () => {
          $.CONSUME(t.FunctionEsc);
          $.SUBRULE1($.extractTemplate);
          $.CONSUME(t.EscEnd);
        },
      },
    ]);
  });

  // SqlBase.g4: extractTemplate
  // EXTRACT '(' field=identifier FROM valueExpression ')'
  $.extractTemplate = $.RULE('extractTemplate', () => {
    $.CONSUME(t.Extract);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.identifier);
    $.CONSUME(t.From);
    $.SUBRULE($.valueExpression);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: functionExpression
  // functionTemplate | FUNCTION_ESC functionTemplate ESC_END
  $.functionExpression = $.RULE('functionExpression', () => {
    $.OR([
      { ALT: () => $.SUBRULE($.functionTemplate) },
      {
        ALT: () => {
          $.CONSUME(t.FunctionEsc);
          $.SUBRULE1($.functionTemplate);
          $.CONSUME(t.EscEnd);
        },
      },
    ]);
    // Quarry extension (issue 16): a window function, see window.ts
    $.OPTION({ GATE: () => isOverAhead($), DEF: () => $.SUBRULE($.overClause) });
  });

  // SqlBase.g4: functionTemplate
  // functionName '(' (setQuantifier? expression (',' expression)*)? ')'
  $.functionTemplate = $.RULE('functionTemplate', () => {
    $.SUBRULE($.functionName);
    $.CONSUME(t.LeftParen);
    $.OPTION(() => {
      $.OPTION1(() => $.SUBRULE($.setQuantifier));
      $.SUBRULE($.booleanExpression);
      $.MANY(() => {
        $.CONSUME(t.Comma);
        $.SUBRULE1($.booleanExpression);
      });
    });
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: functionName
  // LEFT | RIGHT | identifier
  $.functionName = $.RULE('functionName', () => {
    $.OR([
      { ALT: () => $.CONSUME(t.Left) },
      { ALT: () => $.CONSUME(t.Right) },
      { ALT: () => $.SUBRULE($.identifier) },
    ]);
  });

  // SqlBase.g4: primaryExpression #star
  // (qualifiedName DOT)? ASTERISK
  $.star = $.RULE('star', () => {
    $.OPTION(() => {
      $.SUBRULE($.qualifiedName);
      $.CONSUME(t.Dot);
    });
    $.CONSUME(t.Asterisk);
  });

  // SqlBase.g4: primaryExpression #subqueryExpression
  // '(' query ')'
  $.subqueryExpression = $.RULE('subqueryExpression', () => {
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.query);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: primaryExpression #parenthesizedExpression
  // '(' expression ')'
  $.parenthesizedExpression = $.RULE('parenthesizedExpression', () => {
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.booleanExpression);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: primaryExpression #case
  // CASE (operand=booleanExpression)? whenClause+ (ELSE elseClause=booleanExpression)? END
  $.case = $.RULE('case', () => {
    $.CONSUME(t.Case);
    $.OPTION(() => $.SUBRULE($.booleanExpression));
    $.AT_LEAST_ONE(() => $.SUBRULE($.whenClause));
    $.OPTION1(() => {
      $.CONSUME(t.Else);
      $.SUBRULE1($.booleanExpression);
    });
    $.CONSUME(t.End);
  });

  // SqlBase.g4: whenClause
  // WHEN condition=expression THEN result=expression
  $.whenClause = $.RULE('whenClause', () => {
    $.CONSUME(t.When);
    $.SUBRULE($.booleanExpression);
    $.CONSUME(t.Then);
    $.SUBRULE1($.booleanExpression);
  });
}

const BUILTINS = new Set([t.CurrentDate, t.CurrentTime, t.CurrentTimestamp]);

// A column reference: a name not followed by `(`, not CURRENT_* alone (the builtin), not an
// interval literal and not a qualified star.
function isNameAhead($: SqlGrammar): boolean {
  const la1 = $.LA(1);
  if (!isIdentifierToken(la1)) return false;
  const next = $.LA(2).tokenType;
  if (next === t.LeftParen) return false;
  if (BUILTINS.has(la1.tokenType) && next !== t.Dot) return false;
  if (la1.tokenType === t.Interval && isIntervalAhead($)) return false;
  return next !== t.Dot || !isQualifiedStarAhead($);
}

function isFunctionName($: SqlGrammar): boolean {
  const la1 = $.LA(1);
  return la1.tokenType === t.Left || la1.tokenType === t.Right || isIdentifierToken(la1);
}
