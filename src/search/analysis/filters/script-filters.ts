/**
 * ES analysis-common's scripted token filters: `predicate_token_filter` keeps the tokens a
 * script accepts; `condition` sends only the tokens a script accepts through its filters. The
 * script engine lives above this layer: it registers a compiler here (src/dsl/script).
 */
import {
  SingleTokenStream,
  Token,
  TokenFilter,
  FilteringTokenFilter,
  type TokenStream,
} from '../token-stream.js';

/** What a script sees as `token` (ES AnalysisPredicateScript.Token). */
export interface ScriptToken {
  term: string;
  position: number;
  positionIncrement: number;
  positionLength: number;
  startOffset: number;
  endOffset: number;
  type: string;
  keyword: boolean;
}

/** Compiles a request's `script` value into a token predicate (throws ES errors). */
export type TokenPredicateCompiler = (
  script: unknown,
  where: string,
) => (t: ScriptToken) => boolean;

let compiler: TokenPredicateCompiler | null = null;

export function registerTokenPredicateCompiler(c: TokenPredicateCompiler): void {
  compiler = c;
}

export function tokenPredicateCompiler(): TokenPredicateCompiler | null {
  return compiler;
}

/** Tracks the absolute position and exposes the current token to scripts. */
function view(t: Token, position: number): ScriptToken {
  return {
    term: t.term,
    position,
    positionIncrement: t.posInc,
    positionLength: t.posLen,
    startOffset: t.startOffset,
    endOffset: t.endOffset,
    type: t.type,
    keyword: t.keyword,
  };
}

export class PredicateFilter extends FilteringTokenFilter {
  private position = -1;
  constructor(
    input: TokenStream,
    private readonly accepts: (t: ScriptToken) => boolean,
  ) {
    super(input);
  }
  protected accept(): boolean {
    this.position += this.token.posInc;
    return this.accepts(view(this.token, this.position));
  }
}

export class ConditionFilter extends TokenFilter {
  private readonly queue: Token[] = [];
  private position = -1;
  constructor(
    input: TokenStream,
    private readonly accepts: (t: ScriptToken) => boolean,
    private readonly chain: (input: TokenStream) => TokenStream,
  ) {
    super(input);
  }
  next(): boolean {
    while (this.queue.length === 0) {
      if (!this.input.next()) return false;
      const t = this.token;
      this.position += t.posInc;
      const original = new Token();
      original.copyFrom(t);
      if (!this.accepts(view(t, this.position))) {
        this.queue.push(original);
        continue;
      }
      const s = this.chain(new SingleTokenStream(original));
      while (s.next()) {
        const c = new Token();
        c.copyFrom(s.token);
        this.queue.push(c);
      }
    }
    this.token.copyFrom(this.queue.shift()!);
    return true;
  }
}
