/**
 * Lucene FlattenGraphFilter: squashes a token graph (tokens spanning several positions, as the
 * graph synonym and word delimiter filters make) onto a linear sequence of positions an index
 * can hold. Each graph node becomes one position: a node follows the furthest of the nodes with
 * tokens arriving at it, so parallel paths of different lengths share positions; a node nothing
 * arrives at keeps its distance to the node before it (holes stay).
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';

interface Edge {
  term: string;
  start: number;
  end: number;
  type: string;
  keyword: boolean;
  from: number;
  to: number;
}

export class FlattenGraphFilter extends TokenFilter {
  private out: Edge[] | null = null;
  private at = 0;
  private lastPos = -1;
  private finalInc = 0;
  private finalEnd: { start: number; end: number } | null = null;

  constructor(input: TokenStream) {
    super(input);
  }

  private flatten(): Edge[] {
    const edges: Edge[] = [];
    const t = this.token;
    let pos = -1;
    while (this.input.next()) {
      pos += t.posInc;
      edges.push({
        term: t.term,
        start: t.startOffset,
        end: t.endOffset,
        type: t.type,
        keyword: t.keyword,
        from: pos,
        to: pos + Math.max(1, t.posLen),
      });
    }
    this.input.end();
    this.finalInc = t.posInc;
    this.finalEnd = { start: t.startOffset, end: t.endOffset };
    const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort((a, b) => a - b);
    const incoming = new Map<number, number[]>();
    for (const e of edges) {
      const list = incoming.get(e.to) ?? [];
      list.push(e.from);
      incoming.set(e.to, list);
    }
    const out = new Map<number, number>();
    let prev: number | undefined;
    for (const n of nodes) {
      const froms = (incoming.get(n) ?? []).filter((m) => out.has(m));
      const p =
        froms.length > 0
          ? Math.max(...froms.map((m) => out.get(m)! + 1))
          : prev === undefined
            ? n
            : out.get(prev)! + (n - prev);
      out.set(n, p);
      prev = n;
    }
    const mapped = edges.map((e) => ({ ...e, from: out.get(e.from)!, to: out.get(e.to)! }));
    // stable: tokens keep their order within a position
    mapped.sort((a, b) => a.from - b.from);
    return mapped;
  }

  next(): boolean {
    if (this.out === null) this.out = this.flatten();
    const e = this.out[this.at++];
    if (e === undefined) return false;
    const t = this.token;
    t.term = e.term;
    t.startOffset = e.start;
    t.endOffset = e.end;
    t.type = e.type;
    t.keyword = e.keyword;
    t.posInc = e.from - this.lastPos;
    t.posLen = Math.max(1, e.to - e.from);
    this.lastPos = e.from;
    return true;
  }

  override end(): void {
    if (this.out === null) this.out = this.flatten();
    const t = this.token;
    t.posInc = this.finalInc;
    if (this.finalEnd !== null) {
      t.startOffset = this.finalEnd.start;
      t.endOffset = this.finalEnd.end;
    }
  }
}
