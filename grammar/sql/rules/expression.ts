/**
 * Boolean and value expressions: AND/OR/NOT, the full-text predicates (QUERY, MATCH), the
 * postfix predicates (BETWEEN, IN, LIKE, RLIKE, IS NULL) and arithmetic/comparison.
 * SqlBase.g4 writes the binary operators as left-recursive alternatives; here each level is one
 * flat rule `operand (operator operand)*` and the AST builder applies ANTLR's precedence
 * (booleanExpression: AND over OR; valueExpression: * / % over + - over comparisons).
 */
import * as t from '../tokens.js';
import { isStringToken } from './dsl.js';
import type { Rule, SqlGrammar } from './dsl.js';

export function defineExpressionRules($: SqlGrammar): void {
  // SqlBase.g4: expression (`expression : booleanExpression`)
  // DEVIATION: folded away; every use of `expression` calls booleanExpression directly (one
  // rule call less per expression)

  // SqlBase.g4: booleanExpression #logicalBinary
  // DEVIATION: `operand ((AND | OR) operand)*`, precedence applied in the AST builder; the
  // operand is SqlBase.g4's other booleanExpression alternatives (see booleanPrimary) inlined,
  // so a leaf expression is one rule level less (the builder splits the children at the
  // operators). The DSL arguments of hot rules are built once, not on every call.
  const predicateAfter = [0, 1].map((k) => ({
    // RLIKE is nonReserved: without a pattern after it, it is a select alias
    GATE: () => !isRlikeAlias($),
    DEF: () => (k === 0 ? $.SUBRULE($.predicate) : $.SUBRULE1($.predicate)),
  }));
  // the alternatives of an operand, once per place they occur (Chevrotain numbers each use)
  const operandAlternatives = [0, 1].map((k) => {
    const sub = k === 0 ? (r: Rule) => $.SUBRULE(r) : (r: Rule) => $.SUBRULE1(r);
    return {
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          // #booleanDefault first (the common case); `valueExpression predicate?` is SqlBase.g4
          // `predicated`. QUERY('x') and MATCH(...) are the full-text predicates, not calls.
          GATE: () => !isFullTextAhead($),
          ALT: () => {
            sub($.valueExpression);
            if (k === 0) $.OPTION(predicateAfter[0]!);
            else $.OPTION1(predicateAfter[1]!);
          },
        },
        { ALT: () => sub($.logicalNot) },
        { ALT: () => sub($.exists) },
        { ALT: () => sub($.stringQuery) },
        { ALT: () => sub($.matchQuery) },
        { ALT: () => sub($.multiMatchQuery) },
      ],
    };
  });
  const logicalOperand = () => {
    $.CONSUME(t.LogicalOperator);
    $.OR1(operandAlternatives[1]!);
  };
  $.booleanExpression = $.RULE('booleanExpression', () => {
    $.OR(operandAlternatives[0]!);
    $.MANY(logicalOperand);
  });

  // SqlBase.g4: booleanExpression (the non-left-recursive alternatives) and predicated
  // DEVIATION: a rule of its own for the operand of NOT only (booleanExpression inlines the same
  // alternatives); SqlBase.g4's `predicated` rule is inlined as its default alternative
  $.booleanPrimary = $.RULE('booleanPrimary', () => {
    $.OR(operandAlternatives[0]!);
  });

  // SqlBase.g4: booleanExpression #logicalNot
  // NOT booleanExpression (NOT binds tighter than AND/OR)
  $.logicalNot = $.RULE('logicalNot', () => {
    $.CONSUME(t.Not);
    $.SUBRULE($.booleanPrimary);
  });

  // SqlBase.g4: booleanExpression #exists
  $.exists = $.RULE('exists', () => {
    $.CONSUME(t.Exists);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.query);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: booleanExpression #stringQuery
  // QUERY '(' queryString=string matchQueryOptions ')'
  $.stringQuery = $.RULE('stringQuery', () => {
    $.CONSUME(t.Query);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.string);
    $.SUBRULE($.matchQueryOptions);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: booleanExpression #matchQuery
  // MATCH '(' singleField=qualifiedName ',' queryString=string matchQueryOptions ')'
  $.matchQuery = $.RULE('matchQuery', () => {
    $.CONSUME(t.Match);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.qualifiedName);
    $.CONSUME(t.Comma);
    $.SUBRULE($.string);
    $.SUBRULE($.matchQueryOptions);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: booleanExpression #multiMatchQuery
  // MATCH '(' multiFields=string ',' queryString=string matchQueryOptions ')'
  $.multiMatchQuery = $.RULE('multiMatchQuery', () => {
    $.CONSUME(t.Match);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.string);
    $.CONSUME(t.Comma);
    $.SUBRULE1($.string);
    $.SUBRULE($.matchQueryOptions);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: matchQueryOptions
  // (',' string)*
  $.matchQueryOptions = $.RULE('matchQueryOptions', () => {
    $.MANY(() => {
      $.CONSUME(t.Comma);
      $.SUBRULE($.string);
    });
  });

  // SqlBase.g4: predicate
  // NOT? BETWEEN lower AND upper | NOT? IN '(' valueExpression (',' valueExpression)* ')'
  // | NOT? IN '(' query ')' | NOT? LIKE pattern | NOT? RLIKE regex=string | IS NOT? NULL
  $.predicate = $.RULE('predicate', () => {
    $.OR([
      {
        ALT: () => {
          $.OPTION(() => $.CONSUME(t.Not));
          $.OR1([
            {
              ALT: () => {
                $.CONSUME(t.Between);
                $.SUBRULE($.valueExpression);
                $.CONSUME(t.And);
                $.SUBRULE1($.valueExpression);
              },
            },
            {
              ALT: () => {
                $.CONSUME(t.In);
                $.CONSUME(t.LeftParen);
                $.OR2({
                  IGNORE_AMBIGUITIES: true,
                  DEF: [
                    {
                      // `IN ((SELECT 1))` is a list holding a scalar sub-select (ANTLR's first alternative)
                      GATE: () => $.LA(1).tokenType === t.Select || $.LA(1).tokenType === t.With,
                      ALT: () => $.SUBRULE($.query),
                    },
                    {
                      ALT: () => {
                        $.SUBRULE2($.valueExpression);
                        $.MANY(() => {
                          $.CONSUME(t.Comma);
                          $.SUBRULE3($.valueExpression);
                        });
                      },
                    },
                  ],
                });
                $.CONSUME(t.RightParen);
              },
            },
            {
              ALT: () => {
                $.CONSUME(t.Like);
                $.SUBRULE($.pattern);
              },
            },
            {
              ALT: () => {
                $.CONSUME(t.Rlike);
                $.SUBRULE($.string);
              },
            },
          ]);
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.Is);
          $.OPTION1(() => $.CONSUME1(t.Not));
          $.CONSUME(t.Null);
        },
      },
    ]);
  });

  // SqlBase.g4: likePattern
  $.likePattern = $.RULE('likePattern', () => {
    $.CONSUME(t.Like);
    $.SUBRULE($.pattern);
  });

  // SqlBase.g4: pattern
  // value=string patternEscape?
  $.pattern = $.RULE('pattern', () => {
    $.SUBRULE($.string);
    $.OPTION(() => $.SUBRULE($.patternEscape));
  });

  // SqlBase.g4: patternEscape
  // ESCAPE escape=string | ESCAPE_ESC escape=string ESC_END
  $.patternEscape = $.RULE('patternEscape', () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(t.Escape);
          $.SUBRULE($.string);
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.EscapeEsc);
          $.SUBRULE1($.string);
          $.CONSUME(t.EscEnd);
        },
      },
    ]);
  });

  // SqlBase.g4: valueExpression (#comparison, #arithmeticBinary), valueExpression
  // #arithmeticUnary and primaryExpression #castOperatorExpression
  // DEVIATION: `unary (operator unary)*` with unary `(MINUS | PLUS)* primaryExpression
  // (CAST_OP dataType)*` inlined (one rule level less per leaf expression); the AST builder
  // splits the children at the operators and applies ANTLR's precedence. `::` binds tighter than
  // a sign.
  const unary = [0, 1].map((k) => {
    const signs =
      k === 0
        ? [{ ALT: () => $.CONSUME(t.Minus) }, { ALT: () => $.CONSUME(t.Plus) }]
        : [{ ALT: () => $.CONSUME1(t.Minus) }, { ALT: () => $.CONSUME1(t.Plus) }];
    const sign = k === 0 ? () => $.OR2(signs) : () => $.OR3(signs);
    const castSuffix =
      k === 0
        ? () => {
            $.CONSUME(t.CastOp);
            $.SUBRULE($.dataType);
          }
        : () => {
            $.CONSUME1(t.CastOp);
            $.SUBRULE1($.dataType);
          };
    return k === 0
      ? () => {
          $.MANY(sign);
          $.SUBRULE($.primaryExpression);
          $.MANY1(castSuffix);
        }
      : () => {
          $.MANY2(sign);
          $.SUBRULE1($.primaryExpression);
          $.MANY3(castSuffix);
        };
  });
  const firstUnary = unary[0]!;
  const nextUnary = unary[1]!;
  const binaryOperand = () => {
    $.CONSUME(t.BinaryOperator);
    nextUnary();
  };
  $.valueExpression = $.RULE('valueExpression', () => {
    firstUnary();
    $.MANY4(binaryOperand);
  });
}

// QUERY('...') and MATCH(...) start full-text predicates (QUERY(1) is a function call).
function isFullTextAhead($: SqlGrammar): boolean {
  const la1 = $.LA(1).tokenType;
  if (la1 === t.Match) return true;
  return la1 === t.Query && $.LA(2).tokenType === t.LeftParen && isStringToken($.LA(3));
}

// `SELECT a RLIKE FROM t` aliases `a` as "RLIKE"; a predicate needs its pattern string.
function isRlikeAlias($: SqlGrammar): boolean {
  const la1 = $.LA(1).tokenType;
  if (la1 === t.Rlike) return !isStringToken($.LA(2));
  return la1 === t.Not && $.LA(2).tokenType === t.Rlike && !isStringToken($.LA(3));
}
