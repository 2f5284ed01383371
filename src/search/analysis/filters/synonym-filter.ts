/**
 * A synonym filter for Solr-format rules (`a, b => c`, `a, b, c` with `expand`), matching the
 * longest rule at each token (multi-word inputs included). Replacement tokens get type SYNONYM;
 * the i-th token of every output sits at the i-th position of the match. ES 6 analyzes the rules
 * with the tokenizer and filters before this one (`analyzeRule`).
 */
import { illegalArgument } from '../../../common/errors.js';
import { TokenFilter, type TokenStream } from '../token-stream.js';

export interface SynonymMap {
  readonly rules: Map<string, string[][]>;
  readonly maxInput: number;
  /**
   * Inputs whose own text is among their outputs only because an expanded rule lists them
   * (Lucene's SolrSynonymParser maps each word of an expanded rule to the others and keeps the
   * original): the graph filter emits the original tokens instead of a SYNONYM copy.
   */
  readonly keepOrig: Set<string>;
}

const SEP = '\u0000';

export function parseSynonymRules(
  rules: readonly string[],
  expand: boolean,
  ignoreCase: boolean,
  analyzeRule: (text: string) => string[] = (t) => t.split(/\s+/).filter((s) => s.length > 0),
): SynonymMap {
  const map = new Map<string, string[][]>();
  const keepOrig = new Set<string>();
  let maxInput = 1;
  const norm = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const add = (input: string[], output: string[]) => {
    if (input.length === 0 || output.length === 0) return;
    const key = input.map(norm).join(SEP);
    const outs = map.get(key) ?? [];
    if (!outs.some((o) => o.join(SEP) === output.join(SEP))) outs.push(output);
    map.set(key, outs);
    maxInput = Math.max(maxInput, input.length);
  };
  const split = (s: string) =>
    s
      .split(/(?<!\\),/)
      .map((x) => x.trim().replace(/\\(.)/g, '$1'))
      .filter((x) => x.length > 0);
  for (const raw of rules) {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith('#')) continue;
    const arrow = line.split('=>');
    if (arrow.length > 2)
      throw illegalArgument(
        `Invalid synonym rule at line 1: more than one explicit mapping specified on the same line`,
      );
    if (arrow.length === 2) {
      const inputs = split(arrow[0]!).map(analyzeRule);
      const outputs = split(arrow[1]!).map(analyzeRule);
      for (const i of inputs) for (const o of outputs) add(i, o);
    } else {
      const words = split(line).map(analyzeRule);
      for (const i of words) {
        if (expand) {
          for (const o of words) add(i, o);
          if (i.length > 0) keepOrig.add(i.map(norm).join(SEP));
        } else add(i, words[0]!);
      }
    }
  }
  return { rules: map, maxInput, keepOrig };
}

/** A token held while the filter looks ahead for a multi-word rule. */
export interface BufferedToken {
  term: string;
  start: number;
  end: number;
  type: string;
  posInc: number;
}

/**
 * The look-ahead both synonym filters share: tokens pulled from the input into `buf` until it
 * holds `n` or the input ends.
 */
export abstract class LookaheadFilter extends TokenFilter {
  protected readonly buf: BufferedToken[] = [];
  protected exhausted = false;

  constructor(
    input: TokenStream,
    protected readonly map: SynonymMap,
    protected readonly ignoreCase: boolean,
  ) {
    super(input);
  }

  protected fill(n: number): void {
    while (!this.exhausted && this.buf.length < n) {
      if (!this.input.next()) {
        this.exhausted = true;
        break;
      }
      const t = this.token;
      this.buf.push({
        term: t.term,
        start: t.startOffset,
        end: t.endOffset,
        type: t.type,
        posInc: t.posInc,
      });
    }
  }
}

export class SynonymFilter extends LookaheadFilter {
  private readonly out: BufferedToken[] = [];

  next(): boolean {
    if (this.out.length === 0) {
      this.fill(this.map.maxInput);
      if (this.buf.length === 0) return false;
      let matched = 0;
      let outputs: string[][] | undefined;
      for (let len = Math.min(this.map.maxInput, this.buf.length); len >= 1; len--) {
        const key = this.buf
          .slice(0, len)
          .map((b) => (this.ignoreCase ? b.term.toLowerCase() : b.term))
          .join(SEP);
        const o = this.map.rules.get(key);
        if (o !== undefined) {
          matched = len;
          outputs = o;
          break;
        }
      }
      if (outputs === undefined) {
        const b = this.buf.shift()!;
        this.out.push({ ...b });
      } else {
        const taken = this.buf.splice(0, matched);
        const width = Math.max(...outputs.map((o) => o.length));
        for (let i = 0; i < width; i++) {
          let first = true;
          for (const o of outputs) {
            if (i >= o.length) continue;
            const src = taken[Math.min(i, taken.length - 1)]!;
            const start = i === 0 ? taken[0]!.start : src.start;
            const end = i === o.length - 1 ? taken[taken.length - 1]!.end : src.end;
            this.out.push({
              term: o[i]!,
              start,
              end,
              type: 'SYNONYM',
              posInc: first ? (i === 0 ? taken[0]!.posInc : 1) : 0,
            });
            first = false;
          }
        }
      }
    }
    const p = this.out.shift()!;
    const t = this.token;
    t.term = p.term;
    t.startOffset = p.start;
    t.endOffset = p.end;
    t.type = p.type;
    t.posInc = p.posInc;
    t.posLen = 1;
    t.keyword = false;
    return true;
  }
}
