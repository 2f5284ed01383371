/** Hand-built segment parts for segment codec and storage tests. */
import type { InvertedField } from '../../src/search/index/segment.js';

/** An inverted field with no terms (a segment's `fieldNames` when no test needs it). */
export function emptyInverted(): InvertedField {
  return {
    terms: [],
    termStart: new Int32Array(1),
    docs: new Int32Array(0),
    freqs: null,
    posStart: null,
    positions: null,
    norms: null,
    docCount: 0,
    sumTotalTermFreq: 0,
    sumDocFreq: 0,
  };
}
