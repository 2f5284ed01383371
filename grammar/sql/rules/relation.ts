/**
 * FROM items: tables, sub-selects, parenthesised relations, JOINs and PIVOT. This is a
 * super-grammar like SqlBase.g4: JOINs and PIVOTs with several aggregations parse, and the AST
 * builder rejects them with ES's messages (LogicalPlanBuilder).
 */
import * as t from '../tokens.js';
import { isAliasAhead, isSubSelectAhead } from './dsl.js';
import type { SqlGrammar } from './dsl.js';

export function defineRelationRules($: SqlGrammar): void {
  // SqlBase.g4: relation
  // relationPrimary joinRelation*
  $.relation = $.RULE('relation', () => {
    $.SUBRULE($.relationPrimary);
    $.MANY(() => $.SUBRULE($.joinRelation));
  });

  // SqlBase.g4: joinRelation
  // (joinType) JOIN right=relationPrimary joinCriteria? | NATURAL joinType JOIN right=relationPrimary
  $.joinRelation = $.RULE('joinRelation', () => {
    $.OR([
      {
        ALT: () => {
          $.SUBRULE($.joinType);
          $.CONSUME(t.Join);
          $.SUBRULE($.relationPrimary);
          $.OPTION(() => $.SUBRULE($.joinCriteria));
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.Natural);
          $.SUBRULE1($.joinType);
          $.CONSUME1(t.Join);
          $.SUBRULE1($.relationPrimary);
        },
      },
    ]);
  });

  // SqlBase.g4: joinType
  // INNER? | LEFT OUTER? | RIGHT OUTER? | FULL OUTER?
  $.joinType = $.RULE('joinType', () => {
    $.OPTION(() => {
      $.OR([
        { ALT: () => $.CONSUME(t.Inner) },
        {
          ALT: () => {
            $.OR1([
              { ALT: () => $.CONSUME(t.Left) },
              { ALT: () => $.CONSUME(t.Right) },
              { ALT: () => $.CONSUME(t.Full) },
            ]);
            $.OPTION1(() => $.CONSUME(t.Outer));
          },
        },
      ]);
    });
  });

  // SqlBase.g4: joinCriteria
  // ON booleanExpression | USING '(' identifier (',' identifier)* ')'
  $.joinCriteria = $.RULE('joinCriteria', () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(t.On);
          $.SUBRULE($.booleanExpression);
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.Using);
          $.CONSUME(t.LeftParen);
          $.SUBRULE($.identifier);
          $.MANY(() => {
            $.CONSUME(t.Comma);
            $.SUBRULE1($.identifier);
          });
          $.CONSUME(t.RightParen);
        },
      },
    ]);
  });

  // SqlBase.g4: relationPrimary (#tableName | #aliasedQuery | #aliasedRelation)
  $.relationPrimary = $.RULE('relationPrimary', () => {
    $.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => $.SUBRULE($.tableName) },
        {
          GATE: () => isSubSelectAhead($, $.aliasedQuery, $.aliasedRelation),
          ALT: () => $.SUBRULE($.aliasedQuery),
        },
        { ALT: () => $.SUBRULE($.aliasedRelation) },
      ],
    });
  });

  // SqlBase.g4: relationPrimary #tableName
  // FROZEN? tableIdentifier (AS? qualifiedName)?
  $.tableName = $.RULE('tableName', () => {
    $.OPTION(() => $.CONSUME(t.Frozen));
    $.SUBRULE($.tableIdentifier);
    $.OPTION1({
      GATE: () => isAliasAhead($),
      DEF: () => {
        $.OPTION2(() => $.CONSUME(t.As));
        $.SUBRULE($.qualifiedName);
      },
    });
  });

  // SqlBase.g4: relationPrimary #aliasedQuery
  // '(' queryNoWith ')' (AS? qualifiedName)?
  $.aliasedQuery = $.RULE('aliasedQuery', () => {
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.queryNoWith);
    $.CONSUME(t.RightParen);
    $.OPTION({
      GATE: () => isAliasAhead($),
      DEF: () => {
        $.OPTION1(() => $.CONSUME(t.As));
        $.SUBRULE($.qualifiedName);
      },
    });
  });

  // SqlBase.g4: relationPrimary #aliasedRelation
  // '(' relation ')' (AS? qualifiedName)?
  $.aliasedRelation = $.RULE('aliasedRelation', () => {
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.relation);
    $.CONSUME(t.RightParen);
    $.OPTION({
      GATE: () => isAliasAhead($),
      DEF: () => {
        $.OPTION1(() => $.CONSUME(t.As));
        $.SUBRULE($.qualifiedName);
      },
    });
  });

  // SqlBase.g4: pivotClause
  // PIVOT '(' aggs=pivotArgs FOR column=qualifiedName IN '(' vals=pivotArgs ')' ')'
  $.pivotClause = $.RULE('pivotClause', () => {
    $.CONSUME(t.Pivot);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.pivotArgs);
    $.CONSUME(t.For);
    $.SUBRULE($.qualifiedName);
    $.CONSUME(t.In);
    $.CONSUME1(t.LeftParen);
    $.SUBRULE1($.pivotArgs);
    $.CONSUME(t.RightParen);
    $.CONSUME1(t.RightParen);
  });

  // SqlBase.g4: pivotArgs
  $.pivotArgs = $.RULE('pivotArgs', () => {
    $.SUBRULE($.namedValueExpression);
    $.MANY(() => {
      $.CONSUME(t.Comma);
      $.SUBRULE1($.namedValueExpression);
    });
  });

  // SqlBase.g4: namedValueExpression
  // valueExpression (AS? identifier)?
  $.namedValueExpression = $.RULE('namedValueExpression', () => {
    $.SUBRULE($.valueExpression);
    $.OPTION({
      GATE: () => isAliasAhead($),
      DEF: () => {
        $.OPTION1(() => $.CONSUME(t.As));
        $.SUBRULE($.identifier);
      },
    });
  });
}
