/**
 * What a merge reads for a segment whose arrays should not be paged into the process: a segment
 * read in place from the store's map keeps every page a reader touches mapped (counted in RSS)
 * until the store closes, and a merge touches every byte once and keeps none. Its owner registers
 * a reader of an equal segment over a private copy (read from the file, dropped after the merge).
 */
import type { Segment } from './segment.js';

const sources = new WeakMap<Segment, () => Segment | null>();

/** `read` gives a segment equal to `segment` over a private copy, or null (then merge `segment`). */
export function setMergeSource(segment: Segment, read: () => Segment | null): void {
  sources.set(segment, read);
}

/** The segment a merge should read for `segment`. */
export function mergeSourceOf(segment: Segment): Segment {
  const read = sources.get(segment);
  return (read && read()) ?? segment;
}
