/**
 * Chevrotain grammar of Lucene's classic query syntax, rule for rule as Lucene 7.7
 * `QueryParser.jj`. Semantic actions are delegated to a `QsActions` implementation (the `.jj`
 * actions call `QueryParserBase`), so the order in which actions run, and therefore which error
 * wins, is JavaCC's. The parser also records, per token position, the token kinds JavaCC would
 * list under "Was expecting" (its `jj_la1` bookkeeping), for exact error messages.
 */
import { EmbeddedActionsParser, type IToken, type TokenType } from '../chevrotain.js';
import {
  And,
  BareOper,
  Carat,
  Colon,
  FuzzySlop,
  Kind,
  LParen,
  Minus,
  Not,
  NumberTok,
  Or,
  Plus,
  PrefixTerm,
  Quoted,
  RangeExEnd,
  RangeExStart,
  RangeGoop,
  RangeInEnd,
  RangeInStart,
  RangeQuoted,
  RangeTo,
  RegexpTerm,
  RParen,
  Star,
  Term,
  WildTerm,
  allTokens,
  kindOf,
} from './tokens.js';

export type Conj = 'AND' | 'OR' | null;
export type Mods = '+' | '-' | null;

/** The `QueryParserBase` methods that `QueryParser.jj` actions call. */
export interface QsActions<Q, L> {
  /** `discardEscapeChar(fieldToken.image)` for `field:`. */
  field(token: IToken): string;
  /** `handleBareTokenQuery`: TERM, STAR, PREFIXTERM, WILDTERM, REGEXPTERM, NUMBER or BAREOPER. */
  bareTerm(field: string | null, term: IToken, fuzzySlop: IToken | undefined): Q | null;
  /** `handleQuotedTerm`. */
  quotedTerm(field: string | null, term: IToken, fuzzySlop: IToken | undefined): Q | null;
  /** `getRangeQuery` for `[a TO b]` / `{a TO b}` (tokens are RANGE_GOOP, RANGE_QUOTED or RANGE_TO). */
  range(
    field: string | null,
    goop1: IToken,
    goop2: IToken,
    startInclusive: boolean,
    endInclusive: boolean,
  ): Q | null;
  /** `getFieldQuery` over whitespace-joined TERMs (splitOnWhitespace=false). */
  multiTerm(field: string | null, terms: IToken[]): Q | null;
  /** `handleBoost`. */
  boost(q: Q | null, boost: IToken | undefined): Q | null;
  /** A fresh clause list for one `Query` production. */
  newClauses(): L;
  /** `addClause`. */
  addClause(clauses: L, conj: Conj, mods: Mods, q: Q | null): void;
  /** `addMultiTermClauses`. */
  addMultiTermClauses(clauses: L, q: Q | null): void;
  /** End of `Query`: the lone first query, or `getBooleanQuery(clauses)`. */
  finishQuery(clauses: L, firstQuery: Q | null): Q | null;
}

// QueryParser.allowedPostMultiTerm
const DISALLOWED_POST_MULTI_TERM = new Set<number>([
  Kind.COLON,
  Kind.STAR,
  Kind.FUZZY_SLOP,
  Kind.CARAT,
  Kind.AND,
  Kind.OR,
]);

/** A set of JavaCC token kinds as two 32-bit masks. */
interface KindSet {
  readonly lo: number;
  readonly hi: number;
}

function kinds(...ks: number[]): KindSet {
  let lo = 0;
  let hi = 0;
  for (const k of ks) {
    if (k < 32) lo |= 1 << k;
    else hi |= 1 << (k - 32);
  }
  return { lo, hi };
}

// First sets of the JavaCC choice points (jj_la1 entries) the messages are built from.
const MODIFIERS = [Kind.PLUS, Kind.MINUS, Kind.NOT];
const CONJUNCTION = [Kind.AND, Kind.OR];
const CLAUSE_BODY = [
  Kind.BAREOPER,
  Kind.LPAREN,
  Kind.STAR,
  Kind.QUOTED,
  Kind.TERM,
  Kind.PREFIXTERM,
  Kind.WILDTERM,
  Kind.REGEXPTERM,
  Kind.RANGEIN_START,
  Kind.RANGEEX_START,
  Kind.NUMBER,
];
const EXPECT = {
  modifiers: kinds(...MODIFIERS),
  conjunction: kinds(...CONJUNCTION),
  clauseBody: kinds(...CLAUSE_BODY),
  queryStart: kinds(...MODIFIERS, ...CLAUSE_BODY),
  queryLoop: kinds(...CONJUNCTION, ...MODIFIERS, ...CLAUSE_BODY),
  rangePart: kinds(Kind.RANGE_TO, Kind.RANGE_QUOTED, Kind.RANGE_GOOP),
  rangeEnd: kinds(Kind.RANGEIN_END, Kind.RANGEEX_END),
  eof: kinds(Kind.EOF),
  rparen: kinds(Kind.RPAREN),
  carat: kinds(Kind.CARAT),
  number: kinds(Kind.NUMBER),
  fuzzySlop: kinds(Kind.FUZZY_SLOP),
  suffix: kinds(Kind.CARAT, Kind.FUZZY_SLOP),
  rangeTo: kinds(Kind.RANGE_TO),
};

/** Thrown out of the parser when it peeks past the point where lexing failed. */
export class LexicalAbort extends Error {}

export class QueryStringParser<Q, L> extends EmbeddedActionsParser {
  private acts!: QsActions<Q, L>;
  /** Token position -> bit set of the JavaCC kinds expected there (kinds 0-31, then 32+). */
  private expectedLo: number[] = [];
  private expectedHi: number[] = [];
  /** Index of the token the lexer could not produce (-1: none). */
  private lexErrorIndex = -1;
  private peekedLexError = false;

  constructor() {
    super(allTokens, { recoveryEnabled: false, maxLookahead: 3 });
    this.performSelfAnalysis();
  }

  /** Parses `tokens`; `lexErrorIndex` is where a lexical error cut the token list short. */
  parse(
    tokens: IToken[],
    actions: QsActions<Q, L>,
    lexErrorIndex: number,
  ): { value: Q | null; error: IToken | null; expected: number[] } {
    this.acts = actions;
    this.expectedLo.length = 0;
    this.expectedHi.length = 0;
    this.lexErrorIndex = lexErrorIndex;
    this.peekedLexError = false;
    this.input = tokens;
    const value = this.topLevelQuery() ?? null;
    const err = this.errors[0];
    if (!err) return { value, error: null, expected: [] };
    const idx = tokens.indexOf(err.token);
    const at = idx < 0 ? tokens.length : idx;
    const lo = this.expectedLo[at] ?? 0;
    const hi = this.expectedHi[at] ?? 0;
    const expected: number[] = [];
    for (let k = 0; k < 32; k++) if (lo & (1 << k)) expected.push(k);
    for (let k = 32; k < 64; k++) if (hi & (1 << (k - 32))) expected.push(k);
    return { value: null, error: err.token, expected };
  }

  override LA(howMuch: number): IToken {
    this.notePeek(howMuch);
    return super.LA(howMuch);
  }

  override LA_FAST(howMuch: number): IToken {
    this.notePeek(howMuch);
    return super.LA_FAST(howMuch);
  }

  /** Index of the last consumed token (Chevrotain's lexer-adapter state, untyped in its API). */
  private position(): number {
    return (this as unknown as { exportLexerState(): number }).exportLexerState();
  }

  private notePeek(howMuch: number): void {
    if (this.lexErrorIndex >= 0 && this.position() + howMuch === this.lexErrorIndex) {
      this.peekedLexError = true;
    }
  }

  /** Runs a semantic action, unless JavaCC would already have hit the lexical error. */
  private act<T>(f: () => T): T {
    return this.ACTION(() => {
      if (this.peekedLexError) throw new LexicalAbort();
      return f();
    });
  }

  /** Records a choice point's first set at the current position (JavaCC `jj_la1[i] = jj_gen`). */
  private expect(kinds: KindSet): void {
    this.ACTION(() => {
      const at = this.position() + 1;
      this.expectedLo[at] = (this.expectedLo[at] ?? 0) | kinds.lo;
      this.expectedHi[at] = (this.expectedHi[at] ?? 0) | kinds.hi;
    });
  }

  private isType(k: number, t: TokenType): boolean {
    return this.LA(k).tokenType === t;
  }

  // QueryParser.jj: LOOKAHEAD(2) MultiTerm, i.e. TERM TERM and an allowed token after them
  private multiTermAhead(): boolean {
    return this.isType(1, Term) && this.isType(2, Term) && this.allowedPostMultiTerm(3);
  }

  // QueryParser.jj MultiTerm loop: LOOKAHEAD({ getToken(1).kind == TERM && allowed(getToken(2)) })
  private multiTermMore(): boolean {
    return this.isType(1, Term) && this.allowedPostMultiTerm(2);
  }

  private allowedPostMultiTerm(k: number): boolean {
    const kind = kindOf(this.LA(k).tokenType);
    return kind === undefined || !DISALLOWED_POST_MULTI_TERM.has(kind);
  }

  // QueryParser.jj: TopLevelQuery ::= Query <EOF>
  public topLevelQuery = this.RULE('topLevelQuery', (): Q | null => {
    const q = this.SUBRULE(this.query, { ARGS: [null] });
    this.expect(EXPECT.eof);
    return q;
  });

  // QueryParser.jj: Conjunction ::= [ <AND> | <OR> ]
  private conjunction = this.RULE('conjunction', (): Conj => {
    this.expect(EXPECT.conjunction);
    let conj: Conj = null;
    this.OPTION(() => {
      this.OR([
        { ALT: () => (this.CONSUME(And), (conj = 'AND')) },
        { ALT: () => (this.CONSUME(Or), (conj = 'OR')) },
      ]);
    });
    return conj;
  });

  // QueryParser.jj: Modifiers ::= [ <PLUS> | <MINUS> | <NOT> ]
  private modifiers = this.RULE('modifiers', (): Mods => {
    this.expect(EXPECT.modifiers);
    let mods: Mods = null;
    this.OPTION(() => {
      this.OR([
        { ALT: () => (this.CONSUME(Plus), (mods = '+')) },
        { ALT: () => (this.CONSUME(Minus), (mods = '-')) },
        { ALT: () => (this.CONSUME(Not), (mods = '-')) },
      ]);
    });
    return mods;
  });

  // QueryParser.jj: Query ::= ( MultiTerm | Modifiers Clause ) ( MultiTerm | Conjunction Modifiers Clause )*
  private query = this.RULE('query', (field: string | null): Q | null => {
    const clauses = this.ACTION(() => this.acts.newClauses());
    let first: Q | null = null;
    this.expect(EXPECT.queryStart);
    this.OR([
      {
        GATE: () => this.multiTermAhead(),
        ALT: () => {
          first = this.SUBRULE(this.multiTerm, { ARGS: [field, clauses] });
        },
      },
      {
        ALT: () => {
          const mods = this.SUBRULE(this.modifiers);
          const q = this.SUBRULE(this.clause, { ARGS: [field] });
          this.act(() => {
            this.acts.addClause(clauses, null, mods, q);
            if (mods === null) first = q;
          });
        },
      },
    ]);
    this.MANY(() => {
      this.OR2([
        {
          GATE: () => this.multiTermAhead(),
          ALT: () => {
            this.SUBRULE2(this.multiTerm, { ARGS: [field, clauses] });
          },
        },
        {
          ALT: () => {
            const conj = this.SUBRULE(this.conjunction);
            const mods = this.SUBRULE2(this.modifiers);
            const q = this.SUBRULE2(this.clause, { ARGS: [field] });
            this.act(() => this.acts.addClause(clauses, conj, mods, q));
          },
        },
      ]);
    });
    this.expect(EXPECT.queryLoop);
    return this.act(() => this.acts.finishQuery(clauses, first));
  });

  // QueryParser.jj: Clause ::= [ (<TERM> | <STAR>) <COLON> ] ( Term | "(" Query ")" [ "^" <NUMBER> ] )
  private clause = this.RULE('clause', (field: string | null): Q | null => {
    this.OPTION({
      GATE: () => (this.isType(1, Term) || this.isType(1, Star)) && this.isType(2, Colon),
      DEF: () => {
        this.OR([
          {
            ALT: () => {
              const t = this.CONSUME(Term);
              this.CONSUME(Colon);
              field = this.act(() => this.acts.field(t));
            },
          },
          {
            ALT: () => {
              this.CONSUME(Star);
              this.CONSUME2(Colon);
              field = '*';
            },
          },
        ]);
      },
    });
    this.expect(EXPECT.clauseBody);
    return this.OR2([
      { ALT: () => this.SUBRULE(this.term, { ARGS: [field] }) },
      {
        ALT: () => {
          this.CONSUME(LParen);
          const q = this.SUBRULE(this.query, { ARGS: [field] });
          this.expect(EXPECT.rparen);
          this.CONSUME(RParen);
          const boost = this.SUBRULE(this.boostSuffix);
          return this.act(() => this.acts.boost(q, boost));
        },
      },
    ]);
  });

  // QueryParser.jj: [ <CARAT> boost=<NUMBER> ] after a group or range
  private boostSuffix = this.RULE('boostSuffix', (): IToken | undefined => {
    this.expect(EXPECT.carat);
    let boost: IToken | undefined;
    this.OPTION(() => {
      this.CONSUME(Carat);
      this.expect(EXPECT.number);
      boost = this.CONSUME(NumberTok);
    });
    return boost;
  });

  // QueryParser.jj: [ ^NUMBER [FUZZY_SLOP] | FUZZY_SLOP [^NUMBER] ] after a term or phrase
  private termSuffix = this.RULE(
    'termSuffix',
    (): { boost: IToken | undefined; fuzzy: IToken | undefined } => {
      let boost: IToken | undefined;
      let fuzzy: IToken | undefined;
      this.expect(EXPECT.suffix);
      this.OPTION(() => {
        this.OR([
          {
            ALT: () => {
              this.CONSUME(Carat);
              this.expect(EXPECT.number);
              boost = this.CONSUME(NumberTok);
              this.expect(EXPECT.fuzzySlop);
              this.OPTION2(() => {
                fuzzy = this.CONSUME(FuzzySlop);
              });
            },
          },
          {
            ALT: () => {
              fuzzy = this.CONSUME2(FuzzySlop);
              this.expect(EXPECT.carat);
              this.OPTION3(() => {
                this.CONSUME2(Carat);
                this.expect(EXPECT.number);
                boost = this.CONSUME2(NumberTok);
              });
            },
          },
        ]);
      });
      return { boost, fuzzy };
    },
  );

  // QueryParser.jj: Term ::= bare term [suffix] | range [^NUMBER] | <QUOTED> [suffix]
  private term = this.RULE('term', (field: string | null): Q | null => {
    return this.OR([
      {
        ALT: () => {
          const t = this.OR2([
            { ALT: () => this.CONSUME(Term) },
            { ALT: () => this.CONSUME(Star) },
            { ALT: () => this.CONSUME(PrefixTerm) },
            { ALT: () => this.CONSUME(WildTerm) },
            { ALT: () => this.CONSUME(RegexpTerm) },
            { ALT: () => this.CONSUME(NumberTok) },
            { ALT: () => this.CONSUME(BareOper) },
          ]);
          const s = this.SUBRULE(this.termSuffix);
          return this.act(() => this.acts.boost(this.acts.bareTerm(field, t, s.fuzzy), s.boost));
        },
      },
      { ALT: () => this.SUBRULE(this.range, { ARGS: [field] }) },
      {
        ALT: () => {
          const t = this.CONSUME(Quoted);
          const s = this.SUBRULE2(this.termSuffix);
          return this.act(() => this.acts.boost(this.acts.quotedTerm(field, t, s.fuzzy), s.boost));
        },
      },
    ]);
  });

  private rangePart = this.RULE('rangePart', (): IToken => {
    this.expect(EXPECT.rangePart);
    return this.OR([
      { ALT: () => this.CONSUME(RangeGoop) },
      { ALT: () => this.CONSUME(RangeQuoted) },
      { ALT: () => this.CONSUME(RangeTo) },
    ]);
  });

  // QueryParser.jj: ( "[" | "{" ) goop "TO" goop ( "]" | "}" ) [ "^" <NUMBER> ]
  private range = this.RULE('range', (field: string | null): Q | null => {
    const startInc = this.OR([
      { ALT: () => (this.CONSUME(RangeInStart), true) },
      { ALT: () => (this.CONSUME(RangeExStart), false) },
    ]);
    const goop1 = this.SUBRULE(this.rangePart);
    this.expect(EXPECT.rangeTo);
    this.CONSUME(RangeTo);
    const goop2 = this.SUBRULE2(this.rangePart);
    this.expect(EXPECT.rangeEnd);
    const endInc = this.OR2([
      { ALT: () => (this.CONSUME(RangeInEnd), true) },
      { ALT: () => (this.CONSUME(RangeExEnd), false) },
    ]);
    const boost = this.SUBRULE(this.boostSuffix);
    return this.act(() =>
      this.acts.boost(this.acts.range(field, goop1, goop2, startInc, endInc), boost),
    );
  });

  // QueryParser.jj: MultiTerm ::= <TERM> ( <TERM> )+ under the allowedPostMultiTerm lookahead
  private multiTerm = this.RULE('multiTerm', (field: string | null, clauses: L): Q | null => {
    const terms: IToken[] = [this.CONSUME(Term)];
    this.AT_LEAST_ONE({
      GATE: () => this.multiTermMore(),
      DEF: () => {
        terms.push(this.CONSUME2(Term));
      },
    });
    return this.act(() => {
      const q = this.acts.multiTerm(field, terms);
      this.acts.addMultiTermClauses(clauses, q);
      return q;
    });
  });
}
