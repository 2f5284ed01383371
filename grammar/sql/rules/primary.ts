/**
 * Primary expressions: CAST/CONVERT, EXTRACT, function calls (with `{fn ...}` escapes),
 * CURRENT_DATE/TIME/TIMESTAMP, constants, `*` and `t.*`, sub-selects, column references,
 * parentheses and CASE. SqlBase.g4 resolves overlaps between these with unbounded lookahead and
 * "first alternative wins"; the GATEs below make the same choices.
 */
import * as t from '../tokens.js';
import {
  isIdentifierToken,
  isIntervalAhead,
  isQualifiedStarAhead,
  isSubSelectAhead,
} from './dsl.js';
import type { SqlGrammar } from './dsl.js';

export function definePrimaryRules($: SqlGrammar): void {
  // SqlBase.g4: primaryExpression
  $.primaryExpression = $.RULE('primaryExpression', () => {
    $.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => $.SUBRULE($.castExpression) }, // #cast
        { ALT: () => $.SUBRULE($.extractExpression) }, // #extract
        {
          // #function; before #currentDateTimeFunction: CURRENT_DATE( is a call
          GATE: () =>
            $.LA(1).tokenType === t.FunctionEsc ||
            ($.LA(2).tokenType === t.LeftParen && isFunctionName($)),
          ALT: () => $.SUBRULE($.functionExpression),
        },
        {
          // #currentDateTimeFunction; `current_date.x` is a column reference
          GATE: () => $.LA(2).tokenType !== t.Dot,
          ALT: () => $.SUBRULE($.builtinDateTimeFunction),
        },
        {
          // #constantDefault; INTERVAL is nonReserved and may name a column
          GATE: () => $.LA(1).tokenType !== t.Interval || isIntervalAhead($),
          ALT: () => $.SUBRULE($.constant),
        },
        {
          GATE: () => $.LA(1).tokenType === t.Asterisk || isQualifiedStarAhead($),
          ALT: () => $.SUBRULE($.star), // #star
        },
        {
          // #subqueryExpression before #parenthesizedExpression, as in SqlBase.g4
          GATE: () => isSubSelectAhead($, $.subqueryExpression, $.parenthesizedExpression),
          ALT: () => $.SUBRULE($.subqueryExpression),
        },
        { ALT: () => $.SUBRULE($.qualifiedName) }, // #dereference
        { ALT: () => $.SUBRULE($.parenthesizedExpression) },
        { ALT: () => $.SUBRULE($.case) },
      ],
    });
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
    $.SUBRULE($.expression);
    $.CONSUME(t.As);
    $.SUBRULE($.dataType);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: convertTemplate
  // CONVERT '(' expression ',' dataType ')'
  $.convertTemplate = $.RULE('convertTemplate', () => {
    $.CONSUME(t.Convert);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.expression);
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
  });

  // SqlBase.g4: functionTemplate
  // functionName '(' (setQuantifier? expression (',' expression)*)? ')'
  $.functionTemplate = $.RULE('functionTemplate', () => {
    $.SUBRULE($.functionName);
    $.CONSUME(t.LeftParen);
    $.OPTION(() => {
      $.OPTION1(() => $.SUBRULE($.setQuantifier));
      $.SUBRULE($.expression);
      $.MANY(() => {
        $.CONSUME(t.Comma);
        $.SUBRULE1($.expression);
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
    $.SUBRULE($.expression);
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
    $.SUBRULE($.expression);
    $.CONSUME(t.Then);
    $.SUBRULE1($.expression);
  });
}

function isFunctionName($: SqlGrammar): boolean {
  const la1 = $.LA(1);
  return la1.tokenType === t.Left || la1.tokenType === t.Right || isIdentifierToken(la1);
}
