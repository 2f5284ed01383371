/**
 * Lucene SynonymGraphFilter: like the synonym filter, but a multi-word synonym becomes its own
 * path through the token graph instead of being stacked on the matched words' positions. At a
 * match every output path leaves the match's start node and reaches one shared end node; each
 * path's inner tokens get new nodes, numbered path by path (the synonyms in rule order, then the
 * original words when the rule keeps them). Tokens come out ordered by their start node, each
 * with the number of nodes it spans as its position length.
 */
import type { TokenStream } from '../token-stream.js';
import {
  LookaheadFilter,
  SynonymFilter,
  type BufferedToken,
  type SynonymMap,
} from './synonym-filter.js';

const SEP = '\u0000';

interface Out extends BufferedToken {
  posLen: number;
}

export class SynonymGraphFilter extends LookaheadFilter {
  private readonly out: Out[] = [];

  private key(tokens: readonly BufferedToken[]): string {
    return tokens.map((b) => (this.ignoreCase ? b.term.toLowerCase() : b.term)).join(SEP);
  }

  /** Queues the graph for a match of the first `len` buffered tokens. */
  private emitMatch(len: number, outputs: readonly string[][], key: string): void {
    const taken = this.buf.splice(0, len);
    const keepOrig = this.map.keepOrig.has(key);
    const start = taken[0]!.start;
    const end = taken[taken.length - 1]!.end;
    const paths: Array<{ terms: readonly string[]; orig: boolean }> = [];
    for (const o of outputs) {
      if (keepOrig && (this.ignoreCase ? o.map((x) => x.toLowerCase()) : o).join(SEP) === key)
        continue;
      paths.push({ terms: o, orig: false });
    }
    if (keepOrig) paths.push({ terms: taken.map((b) => b.term), orig: true });
    const inner = paths.reduce((n, p) => n + p.terms.length - 1, 0);
    const endNode = inner + 1;
    // nodes relative to the match's start node (0); inner nodes numbered path by path
    const edges: Array<Out & { from: number }> = [];
    let next = 1;
    for (const p of paths) {
      let from = 0;
      p.terms.forEach((term, i) => {
        const to = i === p.terms.length - 1 ? endNode : next++;
        const src = p.orig ? taken[i]! : undefined;
        edges.push({
          term,
          start: src?.start ?? start,
          end: src?.end ?? end,
          type: src?.type ?? 'SYNONYM',
          posInc: 0,
          posLen: to - from,
          from,
        });
        from = to;
      });
    }
    edges.sort((a, b) => a.from - b.from);
    let at = 0;
    edges.forEach((e, i) => {
      e.posInc = i === 0 ? taken[0]!.posInc : e.from - at;
      at = e.from;
      this.out.push(e);
    });
  }

  next(): boolean {
    while (this.out.length === 0) {
      this.fill(this.map.maxInput);
      if (this.buf.length === 0) return false;
      let matched = false;
      for (let len = Math.min(this.map.maxInput, this.buf.length); len >= 1; len--) {
        const key = this.key(this.buf.slice(0, len));
        const o = this.map.rules.get(key);
        if (o !== undefined) {
          this.emitMatch(len, o, key);
          matched = true;
          break;
        }
      }
      if (!matched) this.out.push({ ...this.buf.shift()!, posLen: 1 });
    }
    const p = this.out.shift()!;
    const t = this.token;
    t.term = p.term;
    t.startOffset = p.start;
    t.endOffset = p.end;
    t.type = p.type;
    t.posInc = p.posInc;
    t.posLen = p.posLen;
    t.keyword = false;
    return true;
  }
}

/** The synonym filter (`graph`: synonym_graph) over `input`. */
export function synonymStream(
  input: TokenStream,
  map: SynonymMap,
  ignoreCase: boolean,
  graph: boolean,
): TokenStream {
  return graph
    ? new SynonymGraphFilter(input, map, ignoreCase)
    : new SynonymFilter(input, map, ignoreCase);
}
