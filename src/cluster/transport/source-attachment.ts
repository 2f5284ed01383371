/**
 * Document sources carried in a frame's binary attachment, back to back, with their end offsets
 * in the JSON part. Pure.
 *
 * Received sources are views of one copy of the attachment: a single allocation per frame rather
 * than one per document (the frame itself may be a view of a socket chunk, which must not be
 * kept alive by what is stored). The local bulk path likewise keeps sources as views of the
 * request body.
 */

export interface PackedSources {
  readonly attachment: Buffer;
  /** End offset of each source in the attachment, in order. */
  readonly ends: number[];
}

export function packSources(sources: readonly Buffer[]): PackedSources {
  const ends = new Array<number>(sources.length);
  let total = 0;
  for (let i = 0; i < sources.length; i++) {
    total += sources[i]!.length;
    ends[i] = total;
  }
  return { attachment: Buffer.concat(sources as Buffer[], total), ends };
}

/** The sources of a received attachment, as views of one private copy of it. */
export function unpackSources(attachment: Buffer | undefined, ends: readonly number[]): Buffer[] {
  const total = ends.length ? ends[ends.length - 1]! : 0;
  if ((attachment?.length ?? 0) < total)
    throw new Error(`attachment of [${attachment?.length ?? 0}] bytes is shorter than its sources [${total}]`); // prettier-ignore
  const own = Buffer.allocUnsafeSlow(total);
  if (total > 0) attachment!.copy(own, 0, 0, total);
  const out = new Array<Buffer>(ends.length);
  let from = 0;
  for (let i = 0; i < ends.length; i++) {
    out[i] = own.subarray(from, ends[i]);
    from = ends[i]!;
  }
  return out;
}
