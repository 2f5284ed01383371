/**
 * `parseSql`: SQL text (+ REST `params`) to an AST statement, or ES's error. Lexes and parses
 * with the shared grammar, reports syntax errors in ES's ANTLR wording (`line 1:8: mismatched
 * input 'FROM' expecting {...}`), the errors ES's parse listener raises (backquoted and
 * digit-leading identifiers), missing parameters, then builds the AST, which raises ES's
 * post-parse `parsing_exception`s.
 */
import type { CstNode, IToken } from 'chevrotain';
import { LineIndex, tokenizeSql } from '../../grammar/sql/lexer.js';
import { sqlParser } from '../../grammar/sql/parser.js';
import type { SingleExpressionCstNode, SingleStatementCstNode } from '../../grammar/sql/sql-cst.js';
import { describeSyntaxError } from '../../grammar/sql/syntax-errors.js';
import * as t from '../../grammar/sql/tokens.js';
import type { EsError } from '../common/errors.js';
import { buildSingleExpression, buildSingleStatement, createBuildContext } from './ast/build.js';
import { parsingError, syntaxError } from './ast/errors.js';
import type { Expression, Statement } from './ast/nodes.js';
import type { SqlParam } from './ast/params.js';

export type { SqlParam } from './ast/params.js';

/**
 * Parses one SQL statement (ES `SqlParser.createStatement`). Throws EsError. `tokens`: the
 * text's tokens when the caller lexed it already (`tokenizeSql`).
 */
export function parseSql(
  text: string,
  params: readonly SqlParam[] = [],
  tokens?: IToken[],
): Statement {
  return run(
    text,
    params,
    'singleStatement',
    (ctx, cst) => buildSingleStatement(ctx, cst as SingleStatementCstNode),
    tokens,
  );
}

/** Parses one expression (ES `SqlParser.createExpression`, used by tests). Throws EsError. */
export function parseSqlExpression(text: string, params: readonly SqlParam[] = []): Expression {
  return run(text, params, 'singleExpression', (ctx, cst) =>
    buildSingleExpression(ctx, cst as SingleExpressionCstNode),
  );
}

function run<T>(
  text: string,
  params: readonly SqlParam[],
  startRule: 'singleStatement' | 'singleExpression',
  build: (ctx: ReturnType<typeof createBuildContext>, cst: CstNode) => T,
  lexed?: IToken[],
): T {
  const tokens = lexed ?? tokenizeSql(text).tokens;
  const cst = guardStack(text, () => sqlParser().parse(tokens, startRule));
  // ES fails at the first problem its token stream or parser meets, in input order
  const failAt =
    cst === undefined ? guardStack(text, () => syntaxFailure(text, tokens, startRule)) : null;
  const limit = failAt?.tokenIndex ?? tokens.length;
  const early = listenerError(text, tokens, limit) ?? missingParamError(tokens, params, limit);
  if (early) throw early;
  if (failAt) throw failAt.error;
  return guardStack(text, () => build(createBuildContext(text, tokens, params, t.Param), cst!));
}

/**
 * Deeply nested input exhausts the stack; ES catches StackOverflowError the same way
 * (SqlParser.invokeParser). Chevrotain may surface the overflow as another RangeError once its
 * rule stack is cut short, so any RangeError from the parser counts; the next parse resets it.
 * The session guards a statement's later stages with it too: ES's StackOverflowError there
 * would take the node down, so Quarry answers as its parser does.
 */
export function guardStack<T>(text: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw stackOverflowAsParsingError(text, e);
  }
}

/** A stack overflow of `text`'s processing as ES's parsing error; any other error as it is. */
export function stackOverflowAsParsingError(text: string, e: unknown): unknown {
  if (
    e instanceof RangeError &&
    (/call stack/i.test(e.message) || /array length/i.test(e.message))
  ) {
    return parsingError(
      null,
      `SQL statement is too large, causing stack overflow when generating the parsing tree: [${text}]`,
    );
  }
  return e;
}

function syntaxFailure(
  text: string,
  tokens: IToken[],
  startRule: string,
): { tokenIndex: number; error: EsError } {
  const info = describeSyntaxError(text, tokens, sqlParser().errors[0]!, startRule);
  const { line, charPositionInLine } = new LineIndex(text).position(info.offset);
  return {
    tokenIndex: info.tokenIndex,
    error: syntaxError(line, charPositionInLine, info.message, info.cause),
  };
}

/**
 * ES's parse listener rejects backquoted identifiers and identifiers starting with a digit as
 * soon as it reads them (`SqlParser.PostProcessor`); only tokens before `limit` were read.
 */
function listenerError(text: string, tokens: IToken[], limit: number): EsError | null {
  for (let i = 0; i < limit && i < tokens.length; i++) {
    const token = tokens[i]!;
    const message =
      token.tokenType === t.BackquotedIdentifier
        ? 'backquoted identifiers not supported; please use double quotes instead'
        : token.tokenType === t.DigitIdentifier
          ? 'identifiers must not start with a digit; please use double quotes'
          : null;
    if (message !== null) {
      const { line, charPositionInLine } = new LineIndex(text).position(token.startOffset);
      return syntaxError(line, charPositionInLine, message, null);
    }
  }
  return null;
}

/** ES `ParametrizedTokenSource`: a `?` beyond the given parameters fails when it is read. */
function missingParamError(
  tokens: IToken[],
  params: readonly SqlParam[],
  limit: number,
): EsError | null {
  let seen = 0;
  for (let i = 0; i < tokens.length && i <= limit; i++) {
    if (tokens[i]!.tokenType !== t.Param) continue;
    if (seen++ === params.length) {
      return parsingError(null, `Not enough actual parameters ${params.length} `);
    }
  }
  return null;
}
