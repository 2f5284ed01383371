/**
 * Lucene 7 field-length norms: the number of tokens in a field encoded in one byte
 * (SmallFloat.intToByte4 / byte4ToInt), exact below 24 and with 4 significant bits above.
 * BM25 decodes the byte back, so scores depend on this quantisation exactly as in Lucene.
 */

function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) return i;
  const shift = numBits - 4;
  let encoded = (i >>> shift) & 0x07;
  encoded |= (shift + 1) << 3;
  return encoded;
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(0x7fffffff);
export const NUM_FREE_VALUES = 255 - MAX_INT4;

export function intToByte4(i: number): number {
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

export function byte4ToInt(b: number): number {
  if (b < NUM_FREE_VALUES) return b;
  return NUM_FREE_VALUES + int4ToLong(b - NUM_FREE_VALUES);
}

/** byte → decoded length, for all 256 norm values (Lucene BM25Similarity.LENGTH_TABLE). */
export const LENGTH_TABLE: Float32Array = (() => {
  const t = new Float32Array(256);
  for (let i = 0; i < 256; i++) t[i] = byte4ToInt(i);
  return t;
})();
