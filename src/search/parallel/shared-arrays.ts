/**
 * Segment arrays as worker threads see them: the array's bytes copied once into a
 * SharedArrayBuffer and kept as long as its backing buffer lives, so a parallel search sends
 * views of shared memory (no per-request copies). Copies are per (buffer, byte range): a term's
 * postings, a subarray of the field's postings, is copied on its own and found again by its
 * range. Arrays already over shared memory are used as they are.
 */

type Shareable = Int32Array | Float64Array | Uint32Array;

const copies = new WeakMap<ArrayBufferLike, Map<number, Map<number, SharedArrayBuffer>>>();
let bytes = 0;

/** A view of the same values over shared memory. */
export function shared<T extends Shareable>(a: T): T {
  const buf = a.buffer;
  if (buf instanceof SharedArrayBuffer) return a;
  let byOff = copies.get(buf);
  if (!byOff) copies.set(buf, (byOff = new Map()));
  let byLen = byOff.get(a.byteOffset);
  if (!byLen) byOff.set(a.byteOffset, (byLen = new Map()));
  let sab = byLen.get(a.byteLength);
  if (!sab) {
    sab = new SharedArrayBuffer(a.byteLength);
    new Uint8Array(sab).set(new Uint8Array(buf, a.byteOffset, a.byteLength));
    byLen.set(a.byteLength, sab);
    bytes += a.byteLength;
  }
  const Ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  return new Ctor(sab);
}

/** Bytes copied into shared memory so far (held twice while the original buffers live). */
export function sharedBytes(): number {
  return bytes;
}
