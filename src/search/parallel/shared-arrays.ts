/**
 * Segment arrays as worker threads see them: the array's bytes copied once into a
 * SharedArrayBuffer and kept as long as its owner (the array itself, or the segment for a
 * subarray made per request such as a term's postings) lives, so a parallel search sends views of
 * shared memory (no per-request copies). Copies are per (owner, byte range of the backing
 * buffer): nothing assumes a buffer's bytes never move to another owner. Arrays already over
 * shared memory are used as they are.
 */

type Shareable = Int32Array | Float64Array | Uint32Array;

const copies = new WeakMap<object, Map<number, Map<number, SharedArrayBuffer>>>();
let bytes = 0;

/** A view of the same values over shared memory; `owner` lives at least as long as `a`'s bytes. */
export function shared<T extends Shareable>(a: T, owner: object = a): T {
  const buf = a.buffer;
  if (buf instanceof SharedArrayBuffer) return a;
  let byOff = copies.get(owner);
  if (!byOff) copies.set(owner, (byOff = new Map()));
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
