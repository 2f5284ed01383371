/**
 * `FirstTokenLookahead`: Chevrotain's LL(k) lookahead (the same paths, the same choices), with
 * each decision's candidates indexed by the type of the next token. Chevrotain's own functions
 * try every path of every alternative in turn (and, when an alternative has a GATE, first
 * collect every alternative's GATE in a new array); `primaryExpression` has dozens of paths, and
 * a plain column is the last of them. Here the next token's type picks the few paths that can
 * match (worked out on the first token of each type, then kept), which are then checked as
 * Chevrotain checks them, in the same order: the first alternative whose GATE allows it and one
 * of whose paths matches wins. A GATE is only called for an alternative with such a candidate
 * path (the grammar's GATEs are lookahead checks without side effects).
 */
import type { IOrAlt, IToken, LookaheadSequence, Rule, TokenType } from 'chevrotain';
import { LLkLookaheadStrategy, getLookaheadPaths } from '../chevrotain.js';

interface Candidate {
  readonly alt: number;
  readonly path: readonly TokenType[];
}

interface Lookahead {
  LA(howMuch: number): IToken;
}

/** Chevrotain's `tokenStructuredMatcher`: the type itself or a category holding it. */
function matches(tokenTypeIdx: number, type: TokenType): boolean {
  const t = type as TokenType & {
    tokenTypeIdx: number;
    isParent?: boolean;
    categoryMatchesMap?: Record<number, boolean>;
  };
  return (
    tokenTypeIdx === t.tokenTypeIdx ||
    (t.isParent === true && t.categoryMatchesMap![tokenTypeIdx] === true)
  );
}

/** The candidate paths of each alternative for a next token of a given type, built on demand. */
function candidateTable(alts: readonly LookaheadSequence[]): (tokenTypeIdx: number) => Candidate[] {
  const table: Candidate[][] = [];
  return (idx) => {
    let list = table[idx];
    if (list === undefined) {
      list = [];
      for (let alt = 0; alt < alts.length; alt++)
        for (const path of alts[alt]!)
          if (path.length === 0 || matches(idx, path[0]!)) list.push({ alt, path });
      table[idx] = list;
    }
    return list;
  };
}

/** The rest of a candidate path (its first token matched when the table was built). */
function restMatches(parser: Lookahead, path: readonly TokenType[]): boolean {
  for (let i = 1; i < path.length; i++)
    if (!matches(parser.LA(i + 1).tokenTypeIdx, path[i]!)) return false;
  return true;
}

export class FirstTokenLookahead extends LLkLookaheadStrategy {
  override buildLookaheadForAlternation(options: {
    prodOccurrence: number;
    rule: Rule;
    maxLookahead: number;
    hasPredicates: boolean;
    dynamicTokensEnabled: boolean;
  }): (orAlts?: IOrAlt<unknown>[]) => number | undefined {
    if (options.dynamicTokensEnabled) return super.buildLookaheadForAlternation(options);
    const alts = getLookaheadPaths({
      occurrence: options.prodOccurrence,
      rule: options.rule,
      prodType: 'Alternation',
      maxLookahead: options.maxLookahead,
    });
    const candidates = candidateTable(alts);
    const gated = options.hasPredicates;
    return function (this: Lookahead, orAlts?: IOrAlt<unknown>[]) {
      const list = candidates(this.LA(1).tokenTypeIdx);
      for (let i = 0; i < list.length; i++) {
        const c = list[i]!;
        if (gated) {
          const gate = orAlts![c.alt]!.GATE;
          if (gate !== undefined && gate.call(this) === false) continue;
        }
        if (restMatches(this, c.path)) return c.alt;
      }
      return undefined;
    };
  }

  override buildLookaheadForOptional(options: {
    prodOccurrence: number;
    prodType: 'Option' | 'RepetitionMandatory' | 'RepetitionMandatoryWithSeparator' | 'Repetition' | 'RepetitionWithSeparator'; // prettier-ignore
    rule: Rule;
    maxLookahead: number;
    dynamicTokensEnabled: boolean;
  }): () => boolean {
    const paths = options.dynamicTokensEnabled
      ? null
      : getLookaheadPaths({
          occurrence: options.prodOccurrence,
          rule: options.rule,
          prodType: options.prodType,
          maxLookahead: options.maxLookahead,
        })[0]!;
    // one-token decisions are a table lookup in Chevrotain already
    if (paths === null || paths.every((p) => p.length === 1))
      return super.buildLookaheadForOptional(options);
    const candidates = candidateTable([paths]);
    return function (this: Lookahead) {
      const list = candidates(this.LA(1).tokenTypeIdx);
      for (let i = 0; i < list.length; i++) if (restMatches(this, list[i]!.path)) return true;
      return false;
    };
  }
}
