/**
 * What a merge reads for a segment whose arrays should not be paged into the process: a segment
 * read in place from the store's map keeps every page a reader touches mapped (counted in RSS)
 * until the store closes, and a merge touches every byte once and keeps none. Its owner registers
 * a reader of an equal segment over a private copy (read from the file, dropped after the merge).
 */
import type { FileRange } from '../../common/file-range.js';
import type { Segment } from './segment.js';

const sources = new WeakMap<Segment, () => Segment | null>();

/** `read` gives a segment equal to `segment` over a private copy, or null (then merge `segment`). */
export function setMergeSource(segment: Segment, read: () => Segment | null): void {
  sources.set(segment, read);
}

const byteSources = new WeakMap<Segment, () => Uint8Array | null>();

/**
 * `bytes` gives `segment`'s encoding as bytes of the caller's own (a private copy of a mapped
 * blob), for a merge on a build worker, or null.
 */
export function setMergeBytes(segment: Segment, bytes: () => Uint8Array | null): void {
  byteSources.set(segment, bytes);
}

/** The encoding a worker merge should read for `segment`, if its owner can give one. */
export function mergeBytesOf(segment: Segment): Uint8Array | null {
  return byteSources.get(segment)?.() ?? null;
}

/** The segment a merge should read for `segment`. */
export function mergeSourceOf(segment: Segment): Segment {
  const read = sources.get(segment);
  return (read && read()) ?? segment;
}

/**
 * Where a segment's encoding sits in files, for a build worker to read it from there itself: one
 * range (a blob read in place from the store's map), or a chunked blob's head (its bytes, small)
 * and the ranges of its data region's chunks.
 */
export type SegmentPlace =
  | { readonly file: FileRange }
  | { readonly head: Uint8Array; readonly chunks: readonly FileRange[] };

const fileSources = new WeakMap<Segment, () => SegmentPlace | null>();

/**
 * `place` gives where `segment`'s encoding sits in files (a blob read in place from the store's
 * map), for a build worker to read it from there itself: nothing is copied on the shard's thread.
 * The bytes must stay there, unchanged, while `segment` lives.
 */
export function setMergeFile(segment: Segment, place: () => SegmentPlace | null): void {
  fileSources.set(segment, place);
}

/** Where a worker merge can read `segment`'s encoding from, if its owner can say. */
export function mergeFileOf(segment: Segment): SegmentPlace | null {
  return fileSources.get(segment)?.() ?? null;
}
