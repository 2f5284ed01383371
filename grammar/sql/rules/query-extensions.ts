/**
 * Quarry's query clauses beyond Elasticsearch SQL (issue 16): OFFSET, FETCH FIRST and UNION.
 * Their keywords are `ExtensionKeyword` tokens (identifiers to ES's vocabulary), so statements
 * ES SQL rejects keep ES's syntax errors.
 */
import * as t from '../tokens.js';
import type { SqlGrammar } from './dsl.js';

export function defineQueryExtensionRules($: SqlGrammar): void {
  // OFFSET n [ROW | ROWS]
  $.offsetClause = $.RULE('offsetClause', () => {
    $.CONSUME(t.Offset);
    $.CONSUME(t.IntegerValue);
    $.OPTION(() => $.OR([{ ALT: () => $.CONSUME(t.Row) }, { ALT: () => $.CONSUME(t.Rows) }]));
  });

  // FETCH {FIRST | NEXT} [n] {ROW | ROWS} ONLY (SQL:2008; n defaults to 1)
  $.fetchClause = $.RULE('fetchClause', () => {
    $.CONSUME(t.Fetch);
    $.OR([{ ALT: () => $.CONSUME(t.First) }, { ALT: () => $.CONSUME(t.Next) }]);
    $.OPTION(() => $.CONSUME(t.IntegerValue));
    $.OR1([{ ALT: () => $.CONSUME(t.Row) }, { ALT: () => $.CONSUME(t.Rows) }]);
    $.CONSUME(t.Only);
  });

  // UNION [ALL | DISTINCT] queryTerm
  $.unionClause = $.RULE('unionClause', () => {
    $.CONSUME(t.Union);
    $.OPTION1(() => $.SUBRULE($.setQuantifier));
    $.SUBRULE($.queryTerm);
  });
}
