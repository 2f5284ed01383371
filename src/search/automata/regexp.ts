/**
 * `regexpMatcher`: Lucene `RegexpQuery` term matching (anchored, whole term, code points).
 * The expression is compiled to a DFA rather than to a JS RegExp: matching stays linear in the
 * term length whatever the pattern (no backtracking blow-up on user input), complement and
 * intersection need automata anyway, and determinization reproduces Lucene's
 * `maxDeterminizedStates` failure. The DFA also yields the literal prefix for dictionary seeks.
 */
import { EsError, illegalArgument } from '../../common/errors.js';
import { TooComplexError, alphabetFor, compile, type Alphabet, type Dfa } from './automaton.js';
import { REGEXP_FLAGS, parseRegExp, resolveRegexpFlags, type Re } from './regexp-syntax.js';
import type { TermMatcher } from './wildcard.js';

/** Lucene `Operations.DEFAULT_MAX_DETERMINIZED_STATES`. */
export const DEFAULT_MAX_DETERMINIZED_STATES = 10_000;

export interface RegexpMatcher extends TermMatcher {
  /** States of the compiled DFA (for diagnostics and tests). */
  readonly states: number;
}

/**
 * Compiles a Lucene RegExp. `flags` is an ES flag string (`"INTERSECTION|COMPLEMENT"`) or the
 * numeric `flags_value`; default ALL. Throws `illegal_argument_exception` on bad syntax and
 * `too_complex_to_determinize_exception` past `maxDeterminizedStates`.
 */
export function regexpMatcher(
  pattern: string,
  flags: string | number = REGEXP_FLAGS.ALL,
  maxDeterminizedStates: number = DEFAULT_MAX_DETERMINIZED_STATES,
): RegexpMatcher {
  const { dfa, alphabet } = compileRegexp(pattern, flags, maxDeterminizedStates);
  return new DfaMatcher(dfa, alphabet, literalPrefix(dfa, alphabet));
}

/** A compiled Lucene RegExp: its DFA over the classes of `alphabet`, start state 0. */
export interface CompiledRegexp {
  readonly dfa: Dfa;
  readonly alphabet: Alphabet;
}

/** Parses and determinizes a Lucene RegExp with ES's errors (see `regexpMatcher`). */
export function compileRegexp(
  pattern: string,
  flags: string | number = REGEXP_FLAGS.ALL,
  maxDeterminizedStates: number = DEFAULT_MAX_DETERMINIZED_STATES,
): CompiledRegexp {
  const bits = typeof flags === 'string' ? resolveRegexpFlags(flags) : flags;
  const re = parseRegExp(pattern, bits);
  checkNamedAutomata(re);
  const alphabet = alphabetFor(re);
  try {
    return { dfa: compile(re, alphabet, maxDeterminizedStates), alphabet };
  } catch (e) {
    if (e instanceof TooComplexError) {
      // Lucene RegExp.toAutomaton rethrows with the original pattern
      throw new EsError(
        'too_complex_to_determinize_exception',
        `Determinizing ${pattern} would result in more than ${e.limit} states.`,
        500,
      );
    }
    throw e;
  }
}

/** Lucene resolves `<name>` against an automaton map ES never provides. */
function checkNamedAutomata(re: Re): void {
  switch (re.t) {
    case 'automaton':
      throw illegalArgument(`'${re.name}' not found`);
    case 'union':
    case 'concat':
    case 'inter':
      checkNamedAutomata(re.a);
      checkNamedAutomata(re.b);
      return;
    case 'opt':
    case 'star':
    case 'repeat':
    case 'compl':
      checkNamedAutomata(re.a);
      return;
    default:
      return;
  }
}

/** The string every accepted term starts with: follow single-code-point, single-exit states. */
function literalPrefix(dfa: Dfa, alphabet: Alphabet): string {
  let prefix = '';
  let q = 0;
  const seen = new Set<number>();
  while (!dfa.accept[q] && !seen.has(q)) {
    seen.add(q);
    let only = -1;
    for (let c = 0; c < dfa.k; c++) {
      if (dfa.table[q * dfa.k + c]! < 0) continue;
      if (only >= 0) return prefix;
      only = c;
    }
    if (only < 0) return prefix;
    const [start, width] = alphabet.span(only);
    if (width !== 1) return prefix;
    prefix += String.fromCodePoint(start);
    q = dfa.table[q * dfa.k + only]!;
  }
  return prefix;
}

/** Above this many states the per-state ASCII rows (128 entries each) are not built. */
const ASCII_TABLE_MAX_STATES = 4096;

class DfaMatcher implements RegexpMatcher {
  private readonly table: Int32Array;
  private readonly accept: Uint8Array;
  private readonly k: number;
  /** `ascii[state * 128 + unit]`: transitions on ASCII without the class lookup, if built. */
  private readonly ascii: Int32Array | null;

  constructor(
    dfa: Dfa,
    private readonly alphabet: Alphabet,
    readonly prefix: string,
  ) {
    this.table = dfa.table;
    this.accept = dfa.accept;
    this.k = dfa.k;
    this.ascii = null;
    if (dfa.states <= ASCII_TABLE_MAX_STATES) {
      const ascii = new Int32Array(dfa.states * 128);
      for (let q = 0; q < dfa.states; q++) {
        for (let c = 0; c < 128; c++)
          ascii[q * 128 + c] = dfa.table[q * dfa.k + alphabet.classOf(c)]!;
      }
      this.ascii = ascii;
    }
  }

  get states(): number {
    return this.accept.length;
  }

  test(term: string): boolean {
    if (!term.startsWith(this.prefix)) return false;
    const { table, k, alphabet, ascii } = this;
    let q = 0;
    for (let i = 0; i < term.length; i++) {
      let c = term.charCodeAt(i);
      if (c < 128 && ascii !== null) {
        q = ascii[q * 128 + c]!;
        if (q < 0) return false;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < term.length) {
        const d = term.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          i++;
        }
      }
      q = table[q * k + alphabet.classOf(c)]!;
      if (q < 0) return false;
    }
    return this.accept[q] === 1;
  }
}
