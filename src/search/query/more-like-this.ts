/**
 * Lucene/ES MoreLikeThis term selection, run against a shard's statistics at weight time (ES
 * rewrites MoreLikeThisQuery against the shard's reader): each candidate term scores
 * tf × idf (the search similarity's idf of its document frequency), terms too rare in the
 * source, too rare or too common in the index are dropped, and the best `maxQueryTerms` become
 * SHOULD term clauses (lowest score first, as Lucene pops its queue), optionally boosted by their
 * score relative to the first popped, under a minimum_should_match.
 */
import type { Query } from './query.js';
import type { SearchStats } from './stats.js';

/** Candidate terms with their frequency in the liked content, in the order they are visited. */
export type TermFreqs = ReadonlyArray<readonly [string, number]>;

export interface MltParams {
  readonly maxQueryTerms: number;
  readonly minTermFreq: number;
  readonly minDocFreq: number;
  readonly maxDocFreq: number;
  /** 0: no term boosts; else the factor of the boost of each term. */
  readonly boostTerms: number;
  /** Minimum number of SHOULD clauses that must match, of `optional` clauses. */
  readonly minShouldMatch: (optional: number) => number;
}

export interface ScoreTerm {
  word: string;
  field: string;
  score: number;
}

/** BM25Similarity.idf (Lucene 7). */
export const bm25Idf = (docFreq: number, docCount: number): number =>
  Math.fround(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));

/**
 * Lucene's PriorityQueue of ScoreTerms by score (least on top), with its exact heap moves so
 * that ties pop in Lucene's order.
 */
class TermQueue {
  private readonly heap: Array<ScoreTerm | null>;
  size = 0;
  constructor(private readonly max: number) {
    this.heap = new Array<ScoreTerm | null>(max + 1).fill(null);
  }
  top(): ScoreTerm {
    return this.heap[1]!;
  }
  add(t: ScoreTerm): void {
    this.heap[++this.size] = t;
    let i = this.size;
    const node = this.heap[i]!;
    let j = i >>> 1;
    while (j > 0 && node.score < this.heap[j]!.score) {
      this.heap[i] = this.heap[j]!;
      i = j;
      j >>>= 1;
    }
    this.heap[i] = node;
  }
  pop(): ScoreTerm | null {
    if (this.size === 0) return null;
    const result = this.heap[1]!;
    this.heap[1] = this.heap[this.size]!;
    this.heap[this.size--] = null;
    this.downHeap();
    return result;
  }
  updateTop(): void {
    this.downHeap();
  }
  private downHeap(): void {
    let i = 1;
    const node = this.heap[i];
    if (!node) return;
    let j = i << 1;
    let k = j + 1;
    if (k <= this.size && this.heap[k]!.score < this.heap[j]!.score) j = k;
    while (j <= this.size && this.heap[j]!.score < node.score) {
      this.heap[i] = this.heap[j]!;
      i = j;
      j = i << 1;
      k = j + 1;
      if (k <= this.size && this.heap[k]!.score < this.heap[j]!.score) j = k;
    }
    this.heap[i] = node;
  }
}

/**
 * XMoreLikeThis.createQueue: the best terms of `words` for `fields` (a term's document frequency
 * is its largest over the fields, which names the field of its clause), lowest score first.
 */
export function selectTerms(
  words: TermFreqs,
  fields: readonly string[],
  stats: SearchStats,
  p: MltParams,
): ScoreTerm[] {
  const numDocs = stats.numDocs ?? stats.maxDoc;
  const limit = Math.min(p.maxQueryTerms, words.length);
  if (limit <= 0) return [];
  const queue = new TermQueue(limit);
  for (const [word, tf] of words) {
    if (p.minTermFreq > 0 && tf < p.minTermFreq) continue;
    let topField = fields[0]!;
    let docFreq = 0;
    for (const f of fields) {
      const freq = stats.term(f, word).docFreq;
      if (freq > docFreq) {
        topField = f;
        docFreq = freq;
      }
    }
    if (p.minDocFreq > 0 && docFreq < p.minDocFreq) continue;
    if (docFreq > p.maxDocFreq) continue;
    if (docFreq === 0) continue;
    const score = Math.fround(tf * bm25Idf(docFreq, numDocs));
    if (queue.size < limit) queue.add({ word, field: topField, score });
    else {
      const t = queue.top();
      if (t.score < score) {
        t.word = word;
        t.field = topField;
        t.score = score;
        queue.updateTop();
      }
    }
  }
  const out: ScoreTerm[] = [];
  for (let t = queue.pop(); t !== null; t = queue.pop()) out.push(t);
  return out;
}

/** XMoreLikeThis.addToQuery: term clauses, boosted relative to the first when asked. */
export function termClauses(terms: readonly ScoreTerm[], boostFactor: number): Query[] {
  const best = terms.length > 0 ? terms[0]!.score : -1;
  return terms.map((t) => {
    const boost = boostFactor === 0 ? 1 : Math.fround((boostFactor * t.score) / best);
    return { kind: 'Term', field: t.field, term: t.word, boost };
  });
}

/** A bool of SHOULD clauses under the minimum_should_match (Queries.applyMinimumShouldMatch). */
function shouldBool(clauses: Query[], p: MltParams): Query {
  const msm = clauses.length > 0 ? p.minShouldMatch(clauses.length) : 0;
  return {
    kind: 'Bool',
    must: [],
    should: clauses,
    mustNot: [],
    filter: [],
    minShouldMatch: msm > 0 ? msm : 0,
    boost: 1,
  };
}

export interface MltSpec {
  /** Terms of the liked documents per field (MoreLikeThis.like(Fields...)), or null. */
  readonly fieldTerms: ReadonlyArray<{ readonly field: string; readonly terms: TermFreqs }> | null;
  /** Terms of the liked texts, analyzed for the first field; chosen over all `textFields`. */
  readonly textTerms: TermFreqs | null;
  readonly textFields: readonly string[];
  readonly params: MltParams;
}

/** MoreLikeThisQuery.createQuery against one shard's statistics. */
export function rewriteMoreLikeThis(spec: MltSpec, stats: SearchStats): Query {
  const parts: Query[] = [];
  if (spec.fieldTerms) {
    const clauses: Query[] = [];
    for (const { field, terms } of spec.fieldTerms) {
      clauses.push(...termClauses(selectTerms(terms, [field], stats, spec.params), spec.params.boostTerms)); // prettier-ignore
    }
    parts.push(shouldBool(clauses, spec.params));
  }
  if (spec.textTerms) {
    const terms = selectTerms(spec.textTerms, spec.textFields, stats, spec.params);
    parts.push(shouldBool(termClauses(terms, spec.params.boostTerms), spec.params));
  }
  return { kind: 'Bool', must: [], should: parts, mustNot: [], filter: [], minShouldMatch: 0, boost: 1 }; // prettier-ignore
}
