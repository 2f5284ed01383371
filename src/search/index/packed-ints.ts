/**
 * Small non-negative integers (term frequencies, positions) stored in the narrowest typed array
 * that holds the largest of them: most frequencies fit a byte and most positions 16 bits, so a
 * field's freqs take a quarter and its positions half of what Int32Arrays would.
 */

export type PackedInts = Uint8Array | Uint16Array | Int32Array;

/** A zeroed array of `n` ints able to hold values up to `max`. */
export function packedInts(max: number, n: number): PackedInts {
  if (max <= 0xff) return new Uint8Array(n);
  if (max <= 0xffff) return new Uint16Array(n);
  return new Int32Array(n);
}

/** The widest `max` any of these arrays can hold (for merging into one array). */
export function packedMax(arrays: ReadonlyArray<PackedInts | null>): number {
  let bytes = 1;
  for (const a of arrays) if (a && a.BYTES_PER_ELEMENT > bytes) bytes = a.BYTES_PER_ELEMENT;
  return bytes === 1 ? 0xff : bytes === 2 ? 0xffff : 0x7fffffff;
}
