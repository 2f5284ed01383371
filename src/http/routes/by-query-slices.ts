/**
 * Sliced scrolls on `_id` as Elasticsearch 6.8 computes them (SliceBuilder.toFilter,
 * TermsSliceQuery, Uid.encodeId): which shards a slice reads, and which documents of a shard
 * belong to it, so each sliced sub-request of a by-query task sees exactly ES's partition.
 */
import { murmur3x86_32 } from '../../common/murmur3.js';

/** ES TermsSliceQuery.SEED. */
const SLICE_SEED = 7919;
/** ES Uid: marker bytes of the three `_id` encodings. */
const UTF8 = 0xff;
const NUMERIC = 0xfe;
const BASE64_ESCAPE = 0xfd;

const utf8 = new TextEncoder();

function isPositiveNumeric(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** ES Uid.isURLBase64WithoutPadding: the last symbol may only carry the bits a length allows. */
function isUrlBase64WithoutPadding(id: string): boolean {
  const last = id.charAt(id.length - 1);
  switch (id.length & 3) {
    case 1:
      return false;
    case 2:
      if (!'AQgw'.includes(last)) return false;
      break;
    case 3:
      if (!'AEIMQUYcgkosw048'.includes(last)) return false;
      break;
  }
  return /^[0-9A-Za-z_-]*$/.test(id);
}

/** ES Uid.encodeId: the bytes `_id` is indexed as (numeric, base64 and utf-8 forms). */
export function encodeId(id: string): Uint8Array {
  if (isPositiveNumeric(id)) {
    // two digits per byte, 0x0f marks an odd length
    const b = new Uint8Array(1 + ((id.length + 1) >> 1));
    b[0] = NUMERIC;
    for (let i = 0; i < id.length; i += 2) {
      const hi = id.charCodeAt(i) - 48;
      const lo = i + 1 === id.length ? 0x0f : id.charCodeAt(i + 1) - 48;
      b[1 + (i >> 1)] = (hi << 4) | lo;
    }
    return b;
  }
  if (isUrlBase64WithoutPadding(id)) {
    const raw = Buffer.from(id, 'base64url');
    if (raw[0]! < BASE64_ESCAPE) return raw;
    const b = new Uint8Array(raw.length + 1);
    b[0] = BASE64_ESCAPE;
    b.set(raw, 1);
    return b;
  }
  const text = utf8.encode(id);
  const b = new Uint8Array(text.length + 1);
  b[0] = UTF8;
  b.set(text, 1);
  return b;
}

/** ES TermsSliceQuery on `_id`: floorMod(murmur3(encoded id, 7919), max) == id. */
export function idInSlice(id: string, slice: number, max: number): boolean {
  const bytes = encodeId(id);
  const h = murmur3x86_32(bytes, 0, bytes.length, SLICE_SEED);
  return ((h % max) + max) % max === slice;
}

/** What a slice reads of one shard: nothing, everything, or the docs of a sub-slice. */
export type ShardSlice = 'none' | 'all' | { readonly id: number; readonly max: number };

/** ES SliceBuilder.toFilter for slicing on `_id` (shard-aligned when slices and shards allow). */
export function shardSlice(
  shardId: number,
  numShards: number,
  slice: number,
  max: number,
): ShardSlice {
  if (numShards === 1) return { id: slice, max };
  if (max >= numShards) {
    const targetShard = slice % numShards;
    if (targetShard !== shardId) return 'none';
    let slicesInShard = Math.floor(max / numShards);
    if (max % numShards > targetShard) slicesInShard++;
    if (slicesInShard === 1) return 'all';
    return { id: Math.floor(slice / numShards), max: slicesInShard };
  }
  return shardId % max === slice ? 'all' : 'none';
}

/** Whether document `id` of shard `shardId` (of `numShards`) belongs to slice `slice` of `max`. */
export function docInSlice(
  id: string,
  shardId: number,
  numShards: number,
  slice: number,
  max: number,
): boolean {
  const s = shardSlice(shardId, numShards, slice, max);
  if (s === 'none') return false;
  if (s === 'all') return true;
  return idInSlice(id, s.id, s.max);
}
