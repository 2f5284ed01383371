/**
 * Data derived from a field's postings on first use and kept beside the (immutable) field:
 * where each posting's positions start, and per-block impacts (Lucene's skip data "impacts": the
 * largest freq and the shortest norm of every 128 postings of a term) that bound BM25 scores for
 * top-k pruning. Built lazily so segments that never need them pay nothing, on disk or in memory.
 */
import type { InvertedField } from './segment.js';

/** Postings per impact block (Lucene's postings block size). */
export const BLOCK_SHIFT = 7;
export const BLOCK_SIZE = 1 << BLOCK_SHIFT;

const posOffsetsCache = new WeakMap<InvertedField, Int32Array>();

/**
 * Offset into `positions` of each posting's first position (length postings + 1): posting i has
 * its `freqs[i]` positions at `positions[off[i] .. off[i] + freqs[i])`. Null without positions.
 */
export function positionOffsets(inv: InvertedField): Int32Array | null {
  if (!inv.positions || !inv.posStart || !inv.freqs) return null;
  let off = posOffsetsCache.get(inv);
  if (off) return off;
  const n = inv.docs.length;
  const freqs = inv.freqs;
  const termStart = inv.termStart;
  off = new Int32Array(n + 1);
  for (let t = 0; t < inv.terms.length; t++) {
    let p = inv.posStart[t]!;
    const e = termStart[t + 1]!;
    for (let i = termStart[t]!; i < e; i++) {
      off[i] = p;
      p += freqs[i]!;
    }
  }
  off[n] = inv.positions.length;
  posOffsetsCache.set(inv, off);
  return off;
}

/** Block impacts of one field: block b of term t is `blockBase[t] + b`, built per term. */
export interface FieldImpacts {
  readonly blockBase: Int32Array;
  /** Largest freq in the block (1 when freqs are not indexed). */
  readonly maxFreq: Int32Array;
  /** Smallest norm byte in the block (shortest field; 0 without norms). */
  readonly minNorm: Uint8Array;
  /** Per term: 1 once its blocks are filled. */
  readonly built: Uint8Array;
}

const impactsCache = new WeakMap<InvertedField, FieldImpacts>();

function fieldImpacts(inv: InvertedField): FieldImpacts {
  let fi = impactsCache.get(inv);
  if (fi) return fi;
  const nTerms = inv.terms.length;
  const blockBase = new Int32Array(nTerms + 1);
  for (let t = 0; t < nTerms; t++) {
    const df = inv.termStart[t + 1]! - inv.termStart[t]!;
    blockBase[t + 1] = blockBase[t]! + ((df + BLOCK_SIZE - 1) >>> BLOCK_SHIFT);
  }
  const nBlocks = blockBase[nTerms]!;
  fi = {
    blockBase,
    maxFreq: new Int32Array(nBlocks),
    minNorm: new Uint8Array(nBlocks),
    built: new Uint8Array(nTerms),
  };
  impactsCache.set(inv, fi);
  return fi;
}

/** The field's impacts with term `t`'s blocks filled in. */
export function termImpacts(inv: InvertedField, t: number): FieldImpacts {
  const fi = fieldImpacts(inv);
  if (fi.built[t]) return fi;
  const s = inv.termStart[t]!;
  const e = inv.termStart[t + 1]!;
  const { freqs, norms, docs } = inv;
  let b = fi.blockBase[t]!;
  for (let i = s; i < e; i += BLOCK_SIZE, b++) {
    const be = Math.min(e, i + BLOCK_SIZE);
    let mf = 1;
    if (freqs) for (let k = i; k < be; k++) if (freqs[k]! > mf) mf = freqs[k]!;
    let mn = 0;
    if (norms) {
      mn = 255;
      for (let k = i; k < be; k++) {
        const nb = norms[docs[k]!]!;
        if (nb < mn) mn = nb;
      }
    }
    fi.maxFreq[b] = mf;
    fi.minNorm[b] = mn;
  }
  fi.built[t] = 1;
  return fi;
}
