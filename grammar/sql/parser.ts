/**
 * `SqlParser`: the Elasticsearch SQL grammar (SqlBase.g4, ES 7.10) as a Chevrotain CstParser.
 * This class only wires the rule files together (one per clause family, prettier-java style);
 * rule names follow SqlBase.g4 and every deviation is marked `DEVIATION:` where it is made.
 * Build the parser once per process (`sqlParser()`) and reuse it: Chevrotain's self-analysis is
 * the expensive part (~0.2 s), so it runs on the first SQL statement, not at node start; a parse
 * only resets `input`.
 */
import { CstParser } from '../chevrotain.js';
import type { CstNode, ILookaheadStrategy, IToken, ParserMethod, TokenType } from 'chevrotain';
import { allTokens } from './tokens.js';
import { FirstTokenLookahead } from './lookahead.js';
import type { SqlGrammar, SqlRules } from './rules/dsl.js';
import { defineStatementRules } from './rules/statement.js';
import { defineQueryRules } from './rules/query.js';
import { defineQueryExtensionRules } from './rules/query-extensions.js';
import { defineRelationRules } from './rules/relation.js';
import { defineExpressionRules } from './rules/expression.js';
import { definePrimaryRules } from './rules/primary.js';
import { defineLiteralRules } from './rules/literal.js';
import { defineWindowRules } from './rules/window.js';

type Rule = ParserMethod<[], CstNode>;

export class SqlParser extends CstParser {
  declare readonly singleStatement: Rule;
  declare readonly singleExpression: Rule;

  /** `lookahead`: the decision strategy (tests compare the default with Chevrotain's own). */
  constructor(lookahead: ILookaheadStrategy = new FirstTokenLookahead({ maxLookahead: 3 })) {
    super(allTokens, {
      // INTERVAL '1' DAY TO HOUR vs the column `interval` needs four tokens
      maxLookahead: 3,
      recoveryEnabled: false,
      nodeLocationTracking: 'onlyOffset',
      // Chevrotain's LL(3) choices, found through a table of the next token's type
      lookaheadStrategy: lookahead,
    });
    // Chevrotain's DSL methods are protected; the rule files see them through `SqlGrammar`.
    const grammar = this as unknown as SqlGrammar;
    defineStatementRules(grammar);
    defineQueryRules(grammar);
    defineQueryExtensionRules(grammar);
    defineRelationRules(grammar);
    defineExpressionRules(grammar);
    definePrimaryRules(grammar);
    defineLiteralRules(grammar);
    defineWindowRules(grammar);
    this.performSelfAnalysis();
  }

  /** Parses tokens with the given start rule; syntax errors end up in `errors`. */
  parse(tokens: IToken[], startRule: keyof SqlRules = 'singleStatement'): CstNode | undefined {
    this.input = tokens;
    const rule = (this as unknown as SqlRules)[startRule];
    const cst = rule.call(this);
    return this.errors.length === 0 ? cst : undefined;
  }

  /**
   * Token types that may follow `preceding` from `startRule` (Chevrotain content assist).
   * Content assist prunes alternatives that split more than `maxLookahead` tokens back, which
   * assumes an LL(k) grammar; this one decides some choices with GATEs, so pruning is turned
   * off for the call. Used on the error path only.
   */
  nextTokenTypes(startRule: keyof SqlRules, preceding: IToken[]): TokenType[] {
    const self = this as unknown as { maxLookahead: number };
    const saved = self.maxLookahead;
    self.maxLookahead = Number.MAX_SAFE_INTEGER;
    try {
      return this.computeContentAssist(startRule, preceding).map((path) => path.nextTokenType);
    } finally {
      self.maxLookahead = saved;
    }
  }
}

let instance: SqlParser | null = null;

/** The process-wide parser instance, built on first use. */
export function sqlParser(): SqlParser {
  return (instance ??= new SqlParser());
}
