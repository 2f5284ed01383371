/**
 * JavaCC `ParseException.initialise` text for the classic query parser: the offending token
 * ("Encountered ... at line 1, column N.", columns being Lucene FastCharStream's 0-based offsets)
 * and the kinds JavaCC would list as expected, one per line, in token-kind order.
 */
import type { IToken } from 'chevrotain';
import { Kind, TOKEN_IMAGE, kindOf } from '../../../grammar/query-string/tokens.js';
import { javaccEscape } from '../../../grammar/query-string/lexer.js';

const EOL = '\n';

export function encounteredMessage(
  token: IToken | null,
  textLength: number,
  expected: readonly number[],
): string {
  const kind = token ? kindOf(token.tokenType) : undefined;
  let msg = 'Encountered "';
  let column: number;
  if (!token || kind === undefined || kind === Kind.EOF) {
    msg += TOKEN_IMAGE[Kind.EOF];
    column = textLength;
  } else {
    msg += ` ${TOKEN_IMAGE[kind]} "${javaccEscape(token.image)} "`;
    column = token.startOffset;
  }
  msg += `" at line 1, column ${column}.${EOL}`;
  msg += expected.length === 1 ? `Was expecting:${EOL}    ` : `Was expecting one of:${EOL}    `;
  for (const k of expected) {
    msg += `${TOKEN_IMAGE[k]} ${k !== Kind.EOF ? '...' : ''}${EOL}    `;
  }
  return msg;
}
