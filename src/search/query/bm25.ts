/**
 * BM25 exactly as Lucene 7.7's BM25Similarity scores it for Elasticsearch 6.8: k1 = 1.2, b = 0.75,
 * idf = ln(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)), the (k1 + 1) factor in the
 * numerator, document length decoded from the one-byte norm, and float32 arithmetic at each step
 * so `_score` matches to the last bit.
 */
import { javaFloatToString } from '../../mapping/java-numbers.js';
import { LENGTH_TABLE } from '../index/norms.js';
import { expl, type Explanation } from './explanation.js';
import type { FieldStats, TermStats } from './stats.js';

const f = Math.fround;
export const K1 = f(1.2);
export const B = f(0.75);

export function idf(docFreq: number, docCount: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

export function avgFieldLength(fs: FieldStats, maxDoc: number): number {
  const docCount = fs.docCount > 0 ? fs.docCount : maxDoc;
  if (fs.sumTotalTermFreq <= 0) return 1;
  return f(fs.sumTotalTermFreq / docCount);
}

/** Length-normalisation tables by average field length: shared by every term of a field. */
const normCaches = new Map<number, Float32Array>();

function normCache(avgdl: number): Float32Array {
  let cache = normCaches.get(avgdl);
  if (cache) return cache;
  cache = new Float32Array(256);
  for (let i = 0; i < 256; i++) cache[i] = f(K1 * f(f(1 - B) + f(f(B * LENGTH_TABLE[i]!) / avgdl)));
  // avgdl changes as indices grow: keep the table small
  if (normCaches.size >= 64) normCaches.clear();
  normCaches.set(avgdl, cache);
  return cache;
}

/** Per-query BM25 scoring state: the weight and the 256-entry length-normalisation cache. */
export class Bm25 {
  readonly idf: number;
  readonly avgdl: number;
  readonly weightValue: number;
  readonly cache: Float32Array;
  readonly docCount: number;

  /** `idfValue`: the idf of several terms (phrases, spans: the sum of their idfs), else ts's. */
  constructor(
    readonly boost: number,
    fs: FieldStats,
    ts: TermStats,
    maxDoc: number,
    idfValue?: number,
  ) {
    this.docCount = fs.docCount > 0 ? fs.docCount : maxDoc;
    this.idf = idfValue ?? idf(ts.docFreq, this.docCount);
    this.avgdl = avgFieldLength(fs, maxDoc);
    // Lucene: weight = boost * idf; BM25DocScorer.weightValue = weight * (k1 + 1)
    this.weightValue = f(f(boost * this.idf) * f(K1 + 1));
    this.cache = normCache(this.avgdl);
  }

  /** Score of a doc with term frequency `freq` and norm byte `norm` (-1: no norms). */
  score(freq: number, norm: number): number {
    // k1 as a literal (see NO_NORM_K1 in bulk-scorers.ts): K1 here would box the score
    const n = norm < 0 ? 1.2000000476837158 : this.cache[norm]!;
    return f(f(this.weightValue * freq) / f(freq + n));
  }

  /**
   * Lucene BM25Similarity.explainScore. `opts.freq` names the frequency (`phraseFreq` for spans),
   * `opts.idf` replaces the single-term idf explanation (Lucene's "idf(), sum of:").
   */
  explain(
    doc: number,
    freq: number,
    norm: number,
    termDocFreq: number,
    opts: { freq?: string; idf?: Explanation } = {},
  ): Explanation {
    const idfE =
      opts.idf ??
      expl(
        this.idf,
        'idf, computed as log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)) from:',
        [expl(termDocFreq, 'docFreq'), expl(this.docCount, 'docCount')],
      );
    const freqName = opts.freq ?? 'termFreq';
    const freqE = expl(freq, `${freqName}=${javaFloat(freq)}`);
    let tfNorm: Explanation;
    if (norm < 0) {
      tfNorm = expl(
        (freq * (K1 + 1)) / (freq + K1),
        'tfNorm, computed as (freq * (k1 + 1)) / (freq + k1) from:',
        [freqE, expl(K1, 'parameter k1'), expl(0, 'parameter b (norms omitted for field)')],
      );
    } else {
      const dl = LENGTH_TABLE[norm]!;
      tfNorm = expl(
        (freq * (K1 + 1)) / (freq + K1 * (1 - B + (B * dl) / this.avgdl)),
        'tfNorm, computed as (freq * (k1 + 1)) / (freq + k1 * (1 - b + b * fieldLength / avgFieldLength)) from:',
        [
          freqE,
          expl(K1, 'parameter k1'),
          expl(B, 'parameter b'),
          expl(this.avgdl, 'avgFieldLength'),
          expl(dl, 'fieldLength'),
        ],
      );
    }
    const details: Explanation[] = [];
    if (this.boost !== 1) details.push(expl(this.boost, 'boost'));
    details.push(idfE, tfNorm);
    // Lucene prints the freq Explanation itself: "1.0 = termFreq=1.0\n".
    return expl(
      this.boost * this.idf * tfNorm.value,
      `score(doc=${doc},freq=${javaFloat(freq)} = ${freqName}=${javaFloat(freq)}\n), product of:`,
      details,
    );
  }
}

/** BM25Similarity.idfExplain(collectionStats, termStats). */
export function idfExplanation(docFreq: number, docCount: number): Explanation {
  return expl(
    idf(docFreq, docCount),
    'idf, computed as log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)) from:',
    [expl(docFreq, 'docFreq'), expl(docCount, 'docCount')],
  );
}

/** Java's Float.toString of a frequency (1.0, 2.0, 0.5, 1.3333334). */
export function javaFloat(v: number): string {
  return Number.isInteger(v) ? `${v}.0` : javaFloatToString(Math.fround(v));
}
