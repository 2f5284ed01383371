/**
 * `simple_query_string` syntax: Lucene 7.7 `SimpleQueryParser` (a forgiving, left-to-right
 * character scanner: `+ | - " * ( ) ~N \` and whitespace, each switchable by a flag) producing
 * `QsNode`s, with ES 6.8 `SimpleQueryStringFlag` resolution. It never throws on bad syntax:
 * unmatched quotes and parentheses are ignored, as in Lucene.
 */
import { illegalArgument } from '../../common/errors.js';
import type { Occur, QsAnalyzedLeaf, QsClause, QsNode } from './ast.js';
import { javaParseInt, javaTrim } from '../../common/java-parse-number.js';

// SimpleQueryParser flag bits
export const SQS_FLAGS = {
  ALL: -1,
  NONE: 0,
  AND: 1 << 0,
  NOT: 1 << 1,
  OR: 1 << 2,
  PREFIX: 1 << 3,
  PHRASE: 1 << 4,
  PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6,
  WHITESPACE: 1 << 7,
  FUZZY: 1 << 8,
  NEAR: 1 << 9,
  SLOP: 1 << 9,
} as const;

/** ES `SimpleQueryStringFlag.resolveFlags`: `"OR|AND|PREFIX"`, empty = ALL. */
export function resolveSimpleQueryStringFlags(flags: string): number {
  if (flags.length === 0) return SQS_FLAGS.ALL;
  let magic = 0;
  for (const s of flags.split('|')) {
    if (s.length === 0) continue;
    const name = s.toUpperCase();
    if (!Object.hasOwn(SQS_FLAGS, name)) {
      throw illegalArgument(`Unknown simple_query_string flag [${s}]`);
    }
    if (name === 'NONE') return 0;
    if (name === 'ALL') return -1;
    magic |= SQS_FLAGS[name as keyof typeof SQS_FLAGS];
  }
  return magic;
}

export interface SimpleQueryStringOptions {
  readonly defaultOperator: 'OR' | 'AND';
  /** A flag string (`"AND|OR"`) or the numeric `flags` value; default ALL. Negative is ALL. */
  readonly flags?: string | number;
  /** Whether a Term/Phrase leaf analyzes to nothing (Lucene then adds no branch). */
  readonly isEmpty?: (leaf: QsAnalyzedLeaf) => boolean;
}

interface State {
  readonly data: string;
  index: number;
  readonly length: number;
  currentOperation: Occur | null;
  previousOperation: Occur | null;
  not: number;
  top: QsNode | null;
}

// LevenshteinAutomata.MAXIMUM_SUPPORTED_DISTANCE
const MAX_EDITS = 2;

const isWs = (c: string | undefined): boolean =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r';

export function parseSimpleQueryString(text: string, opts: SimpleQueryStringOptions): QsNode {
  const raw = opts.flags ?? -1;
  const flags = typeof raw === 'number' ? (raw < 0 ? -1 : raw) : resolveSimpleQueryStringFlags(raw);
  const has = (f: number): boolean => (flags & f) !== 0;
  const defaultOperator: Occur = opts.defaultOperator === 'AND' ? 'must' : 'should';
  const keep = (leaf: QsAnalyzedLeaf): QsNode | null =>
    opts.isEmpty && opts.isEmpty(leaf) ? null : leaf;

  if (javaTrim(text) === '*') return { kind: 'MatchAll' };

  // SimpleQueryParser.tokenFinished
  const tokenFinished = (s: State): boolean => {
    const c = s.data[s.index];
    return (
      (c === '"' && has(SQS_FLAGS.PHRASE)) ||
      (c === '|' && has(SQS_FLAGS.OR)) ||
      (c === '+' && has(SQS_FLAGS.AND)) ||
      ((c === '(' || c === ')') && has(SQS_FLAGS.PRECEDENCE)) ||
      (isWs(c) && has(SQS_FLAGS.WHITESPACE))
    );
  };

  // SimpleQueryParser.parseFuzziness: digits up to the end of the token, 0 when unreadable
  const parseFuzziness = (s: State): number => {
    if (s.data[s.index] !== '~') return 0;
    let slop = '';
    while (s.index < s.length) {
      s.index++;
      if (s.index < s.length) {
        if (tokenFinished(s)) break;
        slop += s.data[s.index];
      }
    }
    let fuzziness = 0;
    try {
      fuzziness = javaParseInt(slop);
    } catch {
      fuzziness = 0;
    }
    return fuzziness < 0 ? 0 : fuzziness;
  };

  // SimpleQueryParser.buildQueryTree: operators bind left to right, a change of operator nests
  const buildQueryTree = (s: State, branch: QsNode | null): void => {
    if (branch === null) return;
    if (s.not % 2 === 1) {
      branch = {
        kind: 'Bool',
        clauses: [
          { occur: 'must_not', node: branch },
          { occur: 'should', node: { kind: 'MatchAll' } },
        ],
      };
    }
    if (s.top === null) {
      s.top = branch;
    } else {
      if (s.currentOperation === null) s.currentOperation = defaultOperator;
      const op = s.currentOperation;
      let clauses: readonly QsClause[];
      if (s.previousOperation !== op) clauses = [{ occur: op, node: s.top }];
      else clauses = (s.top as { clauses: readonly QsClause[] }).clauses;
      s.top = { kind: 'Bool', clauses: [...clauses, { occur: op, node: branch }] };
      s.previousOperation = op;
    }
    s.currentOperation = null;
  };

  const consumeSubQuery = (s: State): void => {
    const start = ++s.index;
    let precedence = 1;
    let escaped = false;
    while (s.index < s.length) {
      const c = s.data[s.index];
      if (!escaped) {
        if (c === '\\' && has(SQS_FLAGS.ESCAPE)) {
          escaped = true;
          s.index++;
          continue;
        } else if (c === '(') {
          precedence++;
        } else if (c === ')') {
          if (--precedence === 0) break;
        }
      }
      escaped = false;
      s.index++;
    }
    if (s.index === s.length) {
      s.index = start; // no closing parenthesis: the opening one is ignored
    } else if (s.index === start) {
      s.currentOperation = null; // "()"
      s.index++;
    } else {
      const sub = fresh(s.data, start, s.index);
      parseSubQuery(sub);
      buildQueryTree(s, sub.top);
      s.index++;
    }
  };

  const consumePhrase = (s: State): void => {
    const start = ++s.index;
    let phrase = '';
    let escaped = false;
    let hasSlop = false;
    while (s.index < s.length) {
      const c = s.data[s.index]!;
      if (!escaped) {
        if (c === '\\' && has(SQS_FLAGS.ESCAPE)) {
          escaped = true;
          s.index++;
          continue;
        } else if (c === '"') {
          if (s.length > s.index + 1 && s.data[s.index + 1] === '~' && has(SQS_FLAGS.NEAR)) {
            s.index++;
            if (s.length > s.index + 1) hasSlop = true;
          }
          break;
        }
      }
      escaped = false;
      phrase += c;
      s.index++;
    }
    if (s.index === s.length) {
      s.index = start; // no closing quote: the opening one is ignored
    } else if (s.index === start) {
      s.currentOperation = null; // '""'
      s.index++;
    } else {
      const slop = hasSlop ? parseFuzziness(s) : 0;
      buildQueryTree(s, keep({ kind: 'Phrase', field: null, text: phrase, slop }));
      s.index++;
    }
  };

  const consumeToken = (s: State): void => {
    let token = '';
    let escaped = false;
    let prefix = false;
    let fuzzy = false;
    while (s.index < s.length) {
      const c = s.data[s.index]!;
      if (!escaped) {
        if (c === '\\' && has(SQS_FLAGS.ESCAPE)) {
          escaped = true;
          prefix = false;
          s.index++;
          continue;
        } else if (tokenFinished(s)) {
          break;
        } else if (token.length > 0 && c === '~' && has(SQS_FLAGS.FUZZY)) {
          fuzzy = true;
          break;
        }
        // a trailing unescaped '*' after at least one char makes a prefix query
        prefix = token.length > 0 && c === '*' && has(SQS_FLAGS.PREFIX);
      }
      escaped = false;
      token += c;
      s.index++;
    }
    if (token.length === 0) return;
    let branch: QsNode | null;
    if (fuzzy && has(SQS_FLAGS.FUZZY)) {
      const edits = Math.min(parseFuzziness(s), MAX_EDITS);
      branch =
        edits === 0
          ? keep({ kind: 'Term', field: null, text: token })
          : { kind: 'Term', field: null, text: token, fuzzy: { edits } };
    } else if (prefix) {
      branch = { kind: 'Prefix', field: null, text: token.slice(0, -1) };
    } else {
      branch = keep({ kind: 'Term', field: null, text: token });
    }
    buildQueryTree(s, branch);
  };

  const parseSubQuery = (s: State): void => {
    while (s.index < s.length) {
      const c = s.data[s.index];
      if (c === '(' && has(SQS_FLAGS.PRECEDENCE)) {
        consumeSubQuery(s);
      } else if (c === ')' && has(SQS_FLAGS.PRECEDENCE)) {
        s.index++; // extraneous
      } else if (c === '"' && has(SQS_FLAGS.PHRASE)) {
        consumePhrase(s);
      } else if (c === '+' && has(SQS_FLAGS.AND)) {
        if (s.currentOperation === null && s.top !== null) s.currentOperation = 'must';
        s.index++;
      } else if (c === '|' && has(SQS_FLAGS.OR)) {
        if (s.currentOperation === null && s.top !== null) s.currentOperation = 'should';
        s.index++;
      } else if (c === '-' && has(SQS_FLAGS.NOT)) {
        // consecutive '-' negate each other; the count survives only up to the next char
        s.not++;
        s.index++;
        continue;
      } else if (isWs(c) && has(SQS_FLAGS.WHITESPACE)) {
        s.index++;
      } else {
        consumeToken(s);
      }
      s.not = 0;
    }
  };

  const state = fresh(text, 0, text.length);
  parseSubQuery(state);
  return state.top ?? { kind: 'MatchNone' };
}

function fresh(data: string, index: number, length: number): State {
  return {
    data,
    index,
    length,
    currentOperation: null,
    previousOperation: null,
    not: 0,
    top: null,
  };
}
