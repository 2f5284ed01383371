/**
 * Literals, identifiers and names: constants (numbers, strings, booleans, NULL, `?`, intervals,
 * ODBC date/time/timestamp/guid escapes), data type names, qualified names and table
 * identifiers (`catalog:index`, quoted patterns such as "logs-*").
 */
import * as t from '../tokens.js';
import { isIdentifierToken } from './dsl.js';
import type { SqlGrammar } from './dsl.js';

export function defineLiteralRules($: SqlGrammar): void {
  // SqlBase.g4: constant
  $.constant = $.RULE('constant', () => {
    $.OR([
      { ALT: () => $.CONSUME(t.Null) }, // #nullLiteral
      { ALT: () => $.SUBRULE($.interval) }, // #intervalLiteral
      { ALT: () => $.SUBRULE($.number) }, // #numericLiteral
      { ALT: () => $.SUBRULE($.booleanValue) }, // #booleanLiteral
      { ALT: () => $.AT_LEAST_ONE(() => $.CONSUME(t.StringLiteral)) }, // #stringLiteral
      { ALT: () => $.CONSUME(t.Param) }, // #paramLiteral
      {
        ALT: () => {
          $.CONSUME(t.DateEsc); // #dateEscapedLiteral
          $.SUBRULE($.string);
          $.CONSUME(t.EscEnd);
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.TimeEsc); // #timeEscapedLiteral
          $.SUBRULE1($.string);
          $.CONSUME1(t.EscEnd);
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.TimestampEsc); // #timestampEscapedLiteral
          $.SUBRULE2($.string);
          $.CONSUME2(t.EscEnd);
        },
      },
      {
        ALT: () => {
          $.CONSUME(t.GuidEsc); // #guidEscapedLiteral
          $.SUBRULE3($.string);
          $.CONSUME3(t.EscEnd);
        },
      },
    ]);
  });

  // SqlBase.g4: booleanValue
  $.booleanValue = $.RULE('booleanValue', () => {
    $.OR([{ ALT: () => $.CONSUME(t.True) }, { ALT: () => $.CONSUME(t.False) }]);
  });

  // SqlBase.g4: interval
  // INTERVAL sign=(PLUS | MINUS)? (valueNumeric=number | valuePattern=string)
  //   leading=intervalField (TO trailing=intervalField)?
  $.interval = $.RULE('interval', () => {
    $.CONSUME(t.Interval);
    $.OPTION(() => {
      $.OR([{ ALT: () => $.CONSUME(t.Plus) }, { ALT: () => $.CONSUME(t.Minus) }]);
    });
    $.OR1([{ ALT: () => $.SUBRULE($.number) }, { ALT: () => $.SUBRULE($.string) }]);
    $.SUBRULE($.intervalField);
    $.OPTION1(() => {
      $.CONSUME(t.To);
      $.SUBRULE1($.intervalField);
    });
  });

  // SqlBase.g4: intervalField
  $.intervalField = $.RULE('intervalField', () => {
    $.OR([
      { ALT: () => $.CONSUME(t.Year) },
      { ALT: () => $.CONSUME(t.Years) },
      { ALT: () => $.CONSUME(t.Month) },
      { ALT: () => $.CONSUME(t.Months) },
      { ALT: () => $.CONSUME(t.Day) },
      { ALT: () => $.CONSUME(t.Days) },
      { ALT: () => $.CONSUME(t.Hour) },
      { ALT: () => $.CONSUME(t.Hours) },
      { ALT: () => $.CONSUME(t.Minute) },
      { ALT: () => $.CONSUME(t.Minutes) },
      { ALT: () => $.CONSUME(t.Second) },
      { ALT: () => $.CONSUME(t.Seconds) },
    ]);
  });

  // SqlBase.g4: dataType #primitiveDataType
  $.dataType = $.RULE('dataType', () => {
    $.SUBRULE($.identifier);
  });

  // SqlBase.g4: qualifiedName
  // DEVIATION: `IDENT (DOT IDENT)*` over identifier tokens directly, for `(identifier DOT)*
  // identifier`; a dot followed by `*` is left to the caller (`a.b.*`)
  $.qualifiedName = $.RULE('qualifiedName', () => {
    $.CONSUME(t.IdentifierToken);
    $.MANY({
      GATE: () => isIdentifierToken($.LA(2)),
      DEF: () => {
        $.CONSUME(t.Dot);
        $.CONSUME1(t.IdentifierToken);
      },
    });
  });

  // SqlBase.g4: identifier, quoteIdentifier, unquoteIdentifier, nonReserved
  // DEVIATION: one token of the IdentifierToken category (see tokens.ts)
  $.identifier = $.RULE('identifier', () => {
    $.CONSUME(t.IdentifierToken);
  });

  // SqlBase.g4: tableIdentifier
  // (catalog=identifier ':')? TABLE_IDENTIFIER | (catalog=identifier ':')? name=identifier
  // (TABLE_IDENTIFIER is never lexed, see tokens.ts; it stays for ANTLR's expected-token lists)
  $.tableIdentifier = $.RULE('tableIdentifier', () => {
    $.OPTION(() => {
      $.SUBRULE($.identifier);
      $.CONSUME(t.Colon);
    });
    $.OR([{ ALT: () => $.CONSUME(t.TableIdentifier) }, { ALT: () => $.SUBRULE1($.identifier) }]);
  });

  // SqlBase.g4: number
  $.number = $.RULE('number', () => {
    $.OR([
      { ALT: () => $.CONSUME(t.DecimalValue) }, // #decimalLiteral
      { ALT: () => $.CONSUME(t.IntegerValue) }, // #integerLiteral
    ]);
  });

  // SqlBase.g4: string
  $.string = $.RULE('string', () => {
    $.OR([{ ALT: () => $.CONSUME(t.Param) }, { ALT: () => $.CONSUME(t.StringLiteral) }]);
  });
}
