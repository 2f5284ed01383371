/**
 * Statements: a query, EXPLAIN/DEBUG, and the metadata commands (SHOW, DESCRIBE, SYS).
 * Each labelled alternative of SqlBase.g4 `statement` (`#explain`, `#showTables`, ...) is a rule
 * of its own named after the label, so the CST has one node type per command as ES's
 * `CommandBuilder` has one visit method per label.
 */
import { EOF } from '../../chevrotain.js';
import * as t from '../tokens.js';
import { isStringToken } from './dsl.js';
import type { SqlGrammar } from './dsl.js';

export function defineStatementRules($: SqlGrammar): void {
  // SqlBase.g4: singleStatement
  $.singleStatement = $.RULE('singleStatement', () => {
    $.SUBRULE($.statement);
    $.CONSUME(EOF);
  });

  // SqlBase.g4: singleExpression (expression EOF)
  $.singleExpression = $.RULE('singleExpression', () => {
    $.SUBRULE($.booleanExpression);
    $.CONSUME(EOF);
  });

  // SqlBase.g4: statement
  $.statement = $.RULE('statement', () => {
    $.OR([
      { ALT: () => $.SUBRULE($.query) }, // #statementDefault
      { ALT: () => $.SUBRULE($.explain) },
      { ALT: () => $.SUBRULE($.debug) },
      { ALT: () => $.SUBRULE($.showTables) },
      { ALT: () => $.SUBRULE($.showColumns) },
      { ALT: () => $.SUBRULE($.showFunctions) },
      { ALT: () => $.SUBRULE($.showSchemas) },
      { ALT: () => $.SUBRULE($.sysTables) },
      { ALT: () => $.SUBRULE($.sysColumns) },
      { ALT: () => $.SUBRULE($.sysTypes) },
    ]);
  });

  // SqlBase.g4: statement #explain
  // EXPLAIN ('(' (PLAN type | FORMAT format | VERIFY booleanValue)* ')')? statement
  $.explain = $.RULE('explain', () => {
    $.CONSUME(t.Explain);
    $.OPTION(() => {
      $.CONSUME(t.LeftParen);
      $.MANY(() => {
        $.OR([
          {
            ALT: () => {
              $.CONSUME(t.Plan);
              $.OR1([
                { ALT: () => $.CONSUME(t.Parsed) },
                { ALT: () => $.CONSUME(t.Analyzed) },
                { ALT: () => $.CONSUME(t.Optimized) },
                { ALT: () => $.CONSUME(t.Mapped) },
                { ALT: () => $.CONSUME(t.Executable) },
                { ALT: () => $.CONSUME(t.All) },
              ]);
            },
          },
          {
            ALT: () => {
              $.CONSUME(t.Format);
              $.OR2([{ ALT: () => $.CONSUME(t.Text) }, { ALT: () => $.CONSUME(t.Graphviz) }]);
            },
          },
          {
            ALT: () => {
              $.CONSUME(t.Verify);
              $.SUBRULE($.booleanValue);
            },
          },
        ]);
      });
      $.CONSUME(t.RightParen);
    });
    $.SUBRULE($.statement);
  });

  // SqlBase.g4: statement #debug
  // DEBUG ('(' (PLAN (ANALYZED | OPTIMIZED) | FORMAT (TEXT | GRAPHVIZ))* ')')? statement
  $.debug = $.RULE('debug', () => {
    $.CONSUME(t.Debug);
    $.OPTION(() => {
      $.CONSUME(t.LeftParen);
      $.MANY(() => {
        $.OR([
          {
            ALT: () => {
              $.CONSUME(t.Plan);
              $.OR1([{ ALT: () => $.CONSUME(t.Analyzed) }, { ALT: () => $.CONSUME(t.Optimized) }]);
            },
          },
          {
            ALT: () => {
              $.CONSUME(t.Format);
              $.OR2([{ ALT: () => $.CONSUME(t.Text) }, { ALT: () => $.CONSUME(t.Graphviz) }]);
            },
          },
        ]);
      });
      $.CONSUME(t.RightParen);
    });
    $.SUBRULE($.statement);
  });

  // SqlBase.g4: statement #showTables
  // SHOW TABLES (INCLUDE FROZEN)? (tableLike=likePattern | tableIdent=tableIdentifier)?
  $.showTables = $.RULE('showTables', () => {
    $.CONSUME(t.Show);
    $.CONSUME(t.Tables);
    $.OPTION(() => {
      $.CONSUME(t.Include);
      $.CONSUME(t.Frozen);
    });
    $.OPTION1(() => {
      $.OR([{ ALT: () => $.SUBRULE($.likePattern) }, { ALT: () => $.SUBRULE($.tableIdentifier) }]);
    });
  });

  // SqlBase.g4: statement #showColumns (both alternatives share the label)
  // SHOW COLUMNS (INCLUDE FROZEN)? (FROM | IN) (likePattern | tableIdentifier)
  // (DESCRIBE | DESC) (INCLUDE FROZEN)? (likePattern | tableIdentifier)
  $.showColumns = $.RULE('showColumns', () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(t.Show);
          $.CONSUME(t.Columns);
          $.OPTION(() => {
            $.CONSUME(t.Include);
            $.CONSUME(t.Frozen);
          });
          $.OR1([{ ALT: () => $.CONSUME(t.From) }, { ALT: () => $.CONSUME(t.In) }]);
        },
      },
      {
        ALT: () => {
          $.OR2([{ ALT: () => $.CONSUME(t.Describe) }, { ALT: () => $.CONSUME(t.Desc) }]);
          $.OPTION1(() => {
            $.CONSUME1(t.Include);
            $.CONSUME1(t.Frozen);
          });
        },
      },
    ]);
    $.OR3([{ ALT: () => $.SUBRULE($.likePattern) }, { ALT: () => $.SUBRULE($.tableIdentifier) }]);
  });

  // SqlBase.g4: statement #showFunctions
  $.showFunctions = $.RULE('showFunctions', () => {
    $.CONSUME(t.Show);
    $.CONSUME(t.Functions);
    $.OPTION(() => $.SUBRULE($.likePattern));
  });

  // SqlBase.g4: statement #showSchemas
  $.showSchemas = $.RULE('showSchemas', () => {
    $.CONSUME(t.Show);
    $.CONSUME(t.Schemas);
  });

  // SqlBase.g4: statement #sysTables
  // SYS TABLES (CATALOG clusterLike=likePattern)? (tableLike=likePattern | tableIdent=tableIdentifier)?
  //   (TYPE string (',' string)*)?
  $.sysTables = $.RULE('sysTables', () => {
    $.CONSUME(t.Sys);
    $.CONSUME(t.Tables);
    $.OPTION(() => {
      $.CONSUME(t.Catalog);
      $.SUBRULE($.likePattern);
    });
    $.OPTION1({
      // TYPE is nonReserved: `TYPE 'TABLE'` is the type filter, not a table named "type"
      GATE: () => !($.LA(1).tokenType === t.Type && isStringToken($.LA(2))),
      DEF: () =>
        $.OR([
          { ALT: () => $.SUBRULE1($.likePattern) },
          { ALT: () => $.SUBRULE($.tableIdentifier) },
        ]),
    });
    $.OPTION2(() => {
      $.CONSUME(t.Type);
      $.SUBRULE($.string);
      $.MANY(() => {
        $.CONSUME(t.Comma);
        $.SUBRULE1($.string);
      });
    });
  });

  // SqlBase.g4: statement #sysColumns
  // SYS COLUMNS (CATALOG cluster=string)? (TABLE tableLike=likePattern | tableIdent=tableIdentifier)?
  //   (columnPattern=likePattern)?
  $.sysColumns = $.RULE('sysColumns', () => {
    $.CONSUME(t.Sys);
    $.CONSUME(t.Columns);
    $.OPTION(() => {
      $.CONSUME(t.Catalog);
      $.SUBRULE($.string);
    });
    $.OPTION1(() => {
      $.OR([
        {
          ALT: () => {
            $.CONSUME(t.Table);
            $.SUBRULE($.likePattern);
          },
        },
        { ALT: () => $.SUBRULE($.tableIdentifier) },
      ]);
    });
    $.OPTION2(() => $.SUBRULE1($.likePattern));
  });

  // SqlBase.g4: statement #sysTypes
  // SYS TYPES ((PLUS | MINUS)? type=number)?
  $.sysTypes = $.RULE('sysTypes', () => {
    $.CONSUME(t.Sys);
    $.CONSUME(t.Types);
    $.OPTION(() => {
      $.OPTION1(() => {
        $.OR([{ ALT: () => $.CONSUME(t.Plus) }, { ALT: () => $.CONSUME(t.Minus) }]);
      });
      $.SUBRULE($.number);
    });
  });
}
