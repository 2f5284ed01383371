/**
 * Queries: WITH, query terms, SELECT blocks (SqlBase.g4 querySpecification), ORDER BY, LIMIT,
 * TOP and GROUP BY. Relations (FROM items, JOIN, PIVOT) live in relation.ts.
 */
import { EOF } from '../../chevrotain.js';
import * as t from '../tokens.js';
import { isAliasAhead } from './dsl.js';
import type { SqlGrammar } from './dsl.js';

export function defineQueryRules($: SqlGrammar): void {
  // SqlBase.g4: query
  // (WITH namedQuery (',' namedQuery)*)? queryNoWith
  $.query = $.RULE('query', () => {
    $.OPTION(() => {
      $.CONSUME(t.With);
      $.SUBRULE($.namedQuery);
      $.MANY(() => {
        $.CONSUME(t.Comma);
        $.SUBRULE1($.namedQuery);
      });
    });
    $.SUBRULE($.queryNoWith);
  });

  // SqlBase.g4: queryNoWith
  // queryTerm (ORDER BY orderBy (',' orderBy)*)? limitClause?
  // EXTENSION: UNION [ALL | DISTINCT] terms, then OFFSET and FETCH FIRST (query-extensions.ts)
  $.queryNoWith = $.RULE('queryNoWith', () => {
    $.SUBRULE($.queryTerm);
    $.MANY1(() => $.SUBRULE($.unionClause));
    $.OPTION(() => {
      $.CONSUME(t.Order);
      $.CONSUME(t.By);
      $.SUBRULE($.orderBy);
      $.MANY(() => {
        $.CONSUME(t.Comma);
        $.SUBRULE1($.orderBy);
      });
    });
    $.OPTION1(() => $.SUBRULE($.limitClause));
    $.OPTION2(() => $.SUBRULE($.offsetClause));
    $.OPTION3(() => $.SUBRULE($.fetchClause));
  });

  // SqlBase.g4: limitClause
  // LIMIT limit=(INTEGER_VALUE | ALL) | LIMIT_ESC limit=(INTEGER_VALUE | ALL) ESC_END
  $.limitClause = $.RULE('limitClause', () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(t.Limit);
          $.OR1([{ ALT: () => $.CONSUME(t.IntegerValue) }, { ALT: () => $.CONSUME(t.All) }]);
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.LimitEsc);
          $.OR2([{ ALT: () => $.CONSUME1(t.IntegerValue) }, { ALT: () => $.CONSUME1(t.All) }]);
          $.CONSUME(t.EscEnd);
        },
      },
    ]);
  });

  // SqlBase.g4: queryTerm
  // querySpecification #queryPrimaryDefault | '(' queryNoWith ')' #subquery
  $.queryTerm = $.RULE('queryTerm', () => {
    $.OR([
      { ALT: () => $.SUBRULE($.querySpecification) },
      {
        ALT: () => {
          $.CONSUME(t.LeftParen);
          $.SUBRULE($.queryNoWith);
          $.CONSUME(t.RightParen);
        },
      },
    ]);
  });

  // SqlBase.g4: orderBy
  // expression ordering=(ASC | DESC)? (NULLS nullOrdering=(FIRST | LAST))?
  $.orderBy = $.RULE('orderBy', () => {
    $.SUBRULE($.booleanExpression);
    $.OPTION(() => {
      $.OR([{ ALT: () => $.CONSUME(t.Asc) }, { ALT: () => $.CONSUME(t.Desc) }]);
    });
    $.OPTION1(() => {
      $.CONSUME(t.Nulls);
      $.OR1([{ ALT: () => $.CONSUME(t.First) }, { ALT: () => $.CONSUME(t.Last) }]);
    });
  });

  // SqlBase.g4: querySpecification
  // SELECT topClause? setQuantifier? selectItems fromClause? (WHERE where=booleanExpression)?
  //   (GROUP BY groupBy)? (HAVING having=booleanExpression)?
  $.querySpecification = $.RULE('querySpecification', () => {
    $.CONSUME(t.Select);
    $.OPTION(() => $.SUBRULE($.topClause));
    $.OPTION1(() => $.SUBRULE($.setQuantifier));
    $.SUBRULE($.selectItems);
    $.OPTION2(() => $.SUBRULE($.fromClause));
    $.OPTION3(() => {
      $.CONSUME(t.Where);
      $.SUBRULE($.booleanExpression);
    });
    $.OPTION4(() => {
      $.CONSUME(t.Group);
      $.CONSUME(t.By);
      $.SUBRULE($.groupBy);
    });
    $.OPTION5(() => {
      $.CONSUME(t.Having);
      $.SUBRULE1($.booleanExpression);
    });
  });

  // SqlBase.g4: fromClause
  // FROM relation (',' relation)* pivotClause?
  $.fromClause = $.RULE('fromClause', () => {
    $.CONSUME(t.From);
    $.SUBRULE($.relation);
    $.MANY(() => {
      $.CONSUME(t.Comma);
      $.SUBRULE1($.relation);
    });
    $.OPTION(() => $.SUBRULE($.pivotClause));
  });

  // SqlBase.g4: groupBy
  // setQuantifier? groupingElement (',' groupingElement)*
  $.groupBy = $.RULE('groupBy', () => {
    $.OPTION(() => $.SUBRULE($.setQuantifier));
    $.SUBRULE($.groupingElement);
    $.MANY(() => {
      $.CONSUME(t.Comma);
      $.SUBRULE1($.groupingElement);
    });
  });

  // SqlBase.g4: groupingElement #singleGroupingSet
  $.groupingElement = $.RULE('groupingElement', () => {
    $.SUBRULE($.groupingExpressions);
  });

  // SqlBase.g4: groupingExpressions
  // '(' (expression (',' expression)*)? ')' | expression
  $.groupingExpressions = $.RULE('groupingExpressions', () => {
    $.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          // ANTLR prefers the list whenever the parenthesised group can end the element
          GATE: () => isParenthesisedGroupAhead($),
          ALT: () => {
            $.CONSUME(t.LeftParen);
            $.OPTION(() => {
              $.SUBRULE($.booleanExpression);
              $.MANY(() => {
                $.CONSUME(t.Comma);
                $.SUBRULE1($.booleanExpression);
              });
            });
            $.CONSUME(t.RightParen);
          },
        },
        { ALT: () => $.SUBRULE2($.booleanExpression) },
      ],
    });
  });

  // SqlBase.g4: namedQuery
  // name=identifier AS '(' queryNoWith ')'
  $.namedQuery = $.RULE('namedQuery', () => {
    $.SUBRULE($.identifier);
    $.CONSUME(t.As);
    $.CONSUME(t.LeftParen);
    $.SUBRULE($.queryNoWith);
    $.CONSUME(t.RightParen);
  });

  // SqlBase.g4: topClause
  $.topClause = $.RULE('topClause', () => {
    $.CONSUME(t.Top);
    $.CONSUME(t.IntegerValue);
  });

  // SqlBase.g4: setQuantifier
  $.setQuantifier = $.RULE('setQuantifier', () => {
    $.OR([{ ALT: () => $.CONSUME(t.Distinct) }, { ALT: () => $.CONSUME(t.All) }]);
  });

  // SqlBase.g4: selectItems
  const nextSelectItem = () => {
    $.CONSUME(t.Comma);
    $.SUBRULE1($.selectItem);
  };
  $.selectItems = $.RULE('selectItems', () => {
    $.SUBRULE($.selectItem);
    $.MANY(nextSelectItem);
  });

  // SqlBase.g4: selectItem #selectExpression
  // expression (AS? identifier)?
  const as = () => $.CONSUME(t.As);
  const selectAlias = {
    GATE: () => isAliasAhead($),
    DEF: () => {
      $.OPTION1(as);
      $.SUBRULE($.identifier);
    },
  };
  $.selectItem = $.RULE('selectItem', () => {
    $.SUBRULE($.booleanExpression);
    $.OPTION(selectAlias);
  });
}

/**
 * After GROUP BY, `(a, b)` is a grouping set only if the closing parenthesis ends the element;
 * `(a) + 1` is an expression. Scans to the matching parenthesis and looks at what follows.
 */
function isParenthesisedGroupAhead($: SqlGrammar): boolean {
  if ($.LA(1).tokenType !== t.LeftParen) return false;
  let depth = 0;
  for (let k = 1; ; k++) {
    const type = $.LA(k).tokenType;
    if (type === t.LeftParen) depth++;
    else if (type === t.RightParen && --depth === 0) {
      const next = $.LA(k + 1).tokenType;
      return groupingFollowers.has(next);
    } else if (type === EOF) return false;
  }
}

const groupingFollowers = new Set([
  t.Comma,
  t.Having,
  t.Order,
  t.Limit,
  t.LimitEsc,
  t.RightParen,
  EOF,
]);
