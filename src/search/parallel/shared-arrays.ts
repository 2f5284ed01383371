/**
 * Segment arrays as worker threads see them: the array's whole backing buffer copied once into a
 * SharedArrayBuffer and kept as long as that buffer lives, so a parallel search sends views of
 * shared memory (no per-request copies; a segment whose arrays are views over one decoded buffer
 * is copied once, as a whole). Arrays already over shared memory are used as they are.
 */

type Shareable = Int32Array | Float64Array | Uint32Array;

const copies = new WeakMap<ArrayBufferLike, SharedArrayBuffer>();
let bytes = 0;

/** A view of the same values over shared memory. */
export function shared<T extends Shareable>(a: T): T {
  const buf = a.buffer;
  if (buf instanceof SharedArrayBuffer) return a;
  let sab = copies.get(buf);
  if (!sab) {
    sab = new SharedArrayBuffer(buf.byteLength);
    new Uint8Array(sab).set(new Uint8Array(buf));
    copies.set(buf, sab);
    bytes += buf.byteLength;
  }
  const Ctor = a.constructor as new (b: SharedArrayBuffer, off: number, len: number) => T;
  return new Ctor(sab, a.byteOffset, a.length);
}

/** Bytes copied into shared memory so far (held twice while the original buffers live). */
export function sharedBytes(): number {
  return bytes;
}
