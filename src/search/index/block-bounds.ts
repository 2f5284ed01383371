/**
 * Per-block impacts of a field's postings (Lucene's skip-data "impacts"), from which a query
 * bounds the BM25 score of any doc of a block of 128 postings (top-k pruning: MaxScore, block-max
 * conjunctions). Like Lucene's competitive (freq, norm) pairs, but of fixed size: the shortest
 * norm among the block's docs with freq 1, with freq 2, and with freq >= 3 together with the
 * largest freq; most postings have freq 1, so a long doc's high freq is not paired with another
 * doc's short norm. Computed for a whole field in one pass when its segment is published
 * (ShardIndex.publish), so queries never pay it; a field nobody prepared (nested docs) is
 * computed on first use.
 */
import type { InvertedField, Segment } from './segment.js';

/** Postings per impact block (Lucene's postings block size). */
export const IMPACT_BLOCK_SHIFT = 7;
export const IMPACT_BLOCK_SIZE = 1 << IMPACT_BLOCK_SHIFT;

export interface BlockImpacts {
  /** Block b of term t is `blockBase[t] + b`; term t has `blockBase[t + 1] - blockBase[t]`. */
  readonly blockBase: Int32Array;
  /** Largest freq in the block (1 when freqs are not indexed). */
  readonly maxFreq: Int32Array;
  /**
   * Per block, 3 norm bytes: the smallest among docs with freq 1, with freq 2, and with freq >= 3
   * (the shortest field of each; 255 when there is none; 0 without norms).
   */
  readonly minNorm: Uint8Array;
}

const cache = new WeakMap<InvertedField, BlockImpacts | null>();

/**
 * The field's block impacts, or null when every posting has freq 1 and no norm (keyword-like
 * fields: every doc of a term scores the same).
 */
export function blockImpacts(inv: InvertedField): BlockImpacts | null {
  const bi = cache.get(inv);
  return bi !== undefined ? bi : prepareBlockImpactsFrom(inv, inv);
}

/**
 * Computes `inv`'s block impacts from `from`, the same field over other arrays (itself, or private
 * copies of arrays `inv` reads in place from the store's map, where a scan of every posting would
 * leave every page it read resident, counted in the process's RSS, although queries may never read
 * it). Kept once computed.
 */
export function prepareBlockImpactsFrom(
  inv: InvertedField,
  from: InvertedField,
): BlockImpacts | null {
  let bi = cache.get(inv);
  if (bi === undefined) {
    bi = inv.freqs === null && inv.norms === null ? null : computeImpacts(from);
    cache.set(inv, bi);
  }
  return bi;
}

/** Whether `inv`'s block impacts are computed (for tests). */
export function blockImpactsReady(inv: InvertedField): boolean {
  return cache.has(inv);
}

/** Computes the impacts of every scored field of a newly published segment. */
export function prepareBlockImpacts(seg: Segment): void {
  for (const f of seg.fields.values()) if (f.inverted) blockImpacts(f.inverted);
}

export function computeImpacts(inv: InvertedField): BlockImpacts {
  const nTerms = inv.terms.length;
  const ts = inv.termStart;
  const blockBase = new Int32Array(nTerms + 1);
  for (let t = 0; t < nTerms; t++) {
    const df = ts[t + 1]! - ts[t]!;
    blockBase[t + 1] = blockBase[t]! + ((df + IMPACT_BLOCK_SIZE - 1) >>> IMPACT_BLOCK_SHIFT);
  }
  const nBlocks = blockBase[nTerms]!;
  const maxFreq = new Int32Array(nBlocks);
  const minNorm = new Uint8Array(nBlocks * 3);
  const { freqs, norms, docs } = inv;
  let b = 0;
  // Blocks never span two terms: walk the postings term by term.
  for (let t = 0; t < nTerms; t++) {
    const e = ts[t + 1]!;
    for (let i = ts[t]!; i < e; i += IMPACT_BLOCK_SIZE, b++) {
      const be = i + IMPACT_BLOCK_SIZE < e ? i + IMPACT_BLOCK_SIZE : e;
      let mf = 1;
      let n1 = 0;
      let n2 = 0;
      let n3 = 0;
      if (norms !== null) {
        n1 = n2 = n3 = 255;
        for (let k = i; k < be; k++) {
          const fr = freqs !== null ? freqs[k]! : 1;
          const nb = norms[docs[k]!]!;
          if (fr === 1) {
            if (nb < n1) n1 = nb;
          } else if (fr === 2) {
            if (nb < n2) n2 = nb;
          } else if (nb < n3) n3 = nb;
          if (fr > mf) mf = fr;
        }
      } else if (freqs !== null) for (let k = i; k < be; k++) if (freqs[k]! > mf) mf = freqs[k]!;
      maxFreq[b] = mf;
      minNorm[3 * b] = n1;
      minNorm[3 * b + 1] = n2;
      minNorm[3 * b + 2] = n3;
    }
  }
  return { blockBase, maxFreq, minNorm };
}
