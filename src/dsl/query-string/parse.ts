/**
 * `parseQueryString`: Lucene classic query syntax (`query_string`, URI search `q=`) to `QsNode`,
 * with Lucene 7.7 QueryParser semantics as configured by ES 6.8 `QueryStringQueryBuilder`
 * (splitOnWhitespace=false, ES field handling) and ES's error wrapping
 * (`query_shard_exception` > `parse_exception` > JavaCC `parse_exception`/`token_mgr_error`).
 */
import type { EsError } from '../../common/errors.js';
import { tokenize } from '../../../grammar/query-string/lexer.js';
import { LexicalAbort, QueryStringParser } from '../../../grammar/query-string/parser.js';
import type { QsAnalyzedLeaf, QsNode } from './ast.js';
import { createActions, type ClauseList } from './build.js';
import { escapeQueryString } from './escape.js';
import { LuceneParseError, failedToParse, type IndexRef } from './errors.js';
import { javaTrim } from '../../common/java-parse-number.js';
import { encounteredMessage } from './syntax-error.js';

export interface QueryStringOptions {
  readonly defaultOperator: 'OR' | 'AND';
  /** ES default is true (`indices.query.query_string.allowLeadingWildcard`). */
  readonly allowLeadingWildcard?: boolean;
  /** ES `lenient`: a bad fuzziness (`a~-1`) matches nothing instead of failing. */
  readonly lenient?: boolean;
  /**
   * ES parser's default field: the `default_field` (`*` when it resolves to all fields), or
   * null/absent when `fields` lists several. It decides what `*`, `>=10` mean without a field.
   */
  readonly defaultField?: string | null;
  /** ES `escape: true`: the whole string is searched literally (Lucene `QueryParser.escape`). */
  readonly escape?: boolean;
  /** `index.max_regex_length`; checked on `/regex/` terms. */
  readonly maxRegexLength?: number;
  /** `index.query.bool.max_clause_count` (default 1024). */
  readonly maxClauseCount?: number;
  /**
   * Tells whether a Term/Phrase/Prefix leaf analyzes to nothing for every target field (ES then
   * builds a null query, which Lucene's addClause skips without undoing conjunction effects).
   */
  readonly isEmpty?: (leaf: QsAnalyzedLeaf) => boolean;
  /** Index named in the `query_shard_exception` metadata. */
  readonly index?: IndexRef;
}

let parser: QueryStringParser<QsNode, ClauseList> | undefined;

export function parseQueryString(text: string, opts: QueryStringOptions): QsNode {
  const query = opts.escape ? escapeQueryString(text) : text;
  // ES QueryStringQueryParser.parse: blank input matches nothing
  if (javaTrim(query).length === 0) return { kind: 'MatchNone' };
  const actions = createActions({
    defaultOperator: opts.defaultOperator,
    allowLeadingWildcard: opts.allowLeadingWildcard ?? true,
    lenient: opts.lenient ?? false,
    defaultField: opts.defaultField ?? null,
    maxRegexLength: opts.maxRegexLength,
    maxClauseCount: opts.maxClauseCount ?? 1024,
    isEmpty: opts.isEmpty,
  });
  const fail = (cause: LuceneParseError): EsError => failedToParse(text, query, cause, opts.index);

  const lex = tokenize(query);
  const tokens = lex.error ? lex.tokens.slice(0, -1) : lex.tokens;
  const lexical = (): EsError => fail(new LuceneParseError(lex.error!.message, 'token_mgr_error'));
  parser ??= new QueryStringParser<QsNode, ClauseList>();
  let result;
  try {
    result = parser.parse(tokens, actions, lex.error ? tokens.length : -1);
  } catch (e) {
    if (e instanceof LexicalAbort) throw lexical();
    if (e instanceof LuceneParseError) throw fail(e);
    throw e;
  }
  if (result.error) {
    const at = tokens.indexOf(result.error);
    if (lex.error && at < 0) throw lexical();
    const msg = encounteredMessage(at < 0 ? null : result.error, query.length, result.expected);
    throw fail(new LuceneParseError(msg));
  }
  if (lex.error) throw lexical();
  // Lucene QueryParserBase.parse: a query that vanished entirely is an empty BooleanQuery
  return result.value ?? { kind: 'MatchNone' };
}
