/**
 * What the CST-to-AST builders share: the input text (for `sourceText`), offset-to-position
 * mapping (for `loc`), and the REST parameters bound to each `?` token.
 */
import type { CstNode, IToken } from 'chevrotain';
import { LineIndex } from '../../../grammar/sql/lexer.js';
import type { Loc } from './nodes.js';
import type { SqlParam } from './params.js';

export interface BuildContext {
  readonly text: string;
  readonly lines: LineIndex;
  readonly params: readonly SqlParam[];
  /** Parameter index of each `?` token, by the token's start offset. */
  readonly paramIndexByOffset: ReadonlyMap<number, number>;
}

export function createBuildContext(
  text: string,
  tokens: readonly IToken[],
  params: readonly SqlParam[],
  paramTokenType: unknown,
): BuildContext {
  const paramIndexByOffset = new Map<number, number>();
  for (const token of tokens) {
    if (token.tokenType === paramTokenType) {
      paramIndexByOffset.set(token.startOffset, paramIndexByOffset.size);
    }
  }
  return { text, lines: new LineIndex(text), params, paramIndexByOffset };
}

/** A span of the input: start offset and inclusive end offset (as Chevrotain reports them). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

type Spanned = CstNode | IToken;

function isToken(n: Spanned): n is IToken {
  return (n as IToken).image !== undefined;
}

export function startOf(n: Spanned): number {
  return isToken(n) ? n.startOffset : n.location!.startOffset;
}

export function endOf(n: Spanned): number {
  return isToken(n) ? n.endOffset! : n.location!.endOffset!;
}

export function spanOf(first: Spanned, last: Spanned = first): Span {
  return { start: startOf(first), end: endOf(last) };
}

export function locAt(ctx: BuildContext, offset: number): Loc {
  const p = ctx.lines.position(offset);
  return { line: p.line, column: p.charPositionInLine + 1 };
}

export function locOf(ctx: BuildContext, n: Spanned | Span): Loc {
  return locAt(ctx, 'start' in n && typeof n.start === 'number' ? n.start : startOf(n as Spanned));
}

export function textOf(ctx: BuildContext, n: Spanned | Span): string {
  const span = 'start' in n && typeof n.start === 'number' ? (n as Span) : spanOf(n as Spanned);
  return ctx.text.substring(span.start, span.end + 1);
}

/** The first element of a CST child list the grammar guarantees. */
export function one<T>(list: readonly T[] | undefined): T {
  return list![0]!;
}
