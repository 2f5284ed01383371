/**
 * MurmurHash3 x86 32-bit, as Lucene's StringHelper.murmurhash3_x86_32, and Elasticsearch's
 * routing hash (Murmur3HashFunction.hash(String)), which hashes each UTF-16 code unit as two
 * little-endian bytes. Shard routing must match Elasticsearch's so documents land on the same
 * shard numbers.
 */

export function murmur3x86_32(
  bytes: Uint8Array,
  offset: number,
  len: number,
  seed: number,
): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h1 = seed | 0;
  const roundedEnd = offset + (len & ~3);
  for (let i = offset; i < roundedEnd; i += 4) {
    let k1 = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  let k1 = 0;
  switch (len & 3) {
    case 3:
      k1 = (bytes[roundedEnd + 2]! & 0xff) << 16;
    // falls through
    case 2:
      k1 |= (bytes[roundedEnd + 1]! & 0xff) << 8;
    // falls through
    case 1:
      k1 |= bytes[roundedEnd]! & 0xff;
      k1 = Math.imul(k1, c1);
      k1 = (k1 << 15) | (k1 >>> 17);
      k1 = Math.imul(k1, c2);
      h1 ^= k1;
  }
  h1 ^= len;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 | 0;
}

const scratch = { buf: new Uint8Array(256) };

/** ES Murmur3HashFunction.hash(String routing). */
export function routingHash(routing: string): number {
  const n = routing.length * 2;
  if (scratch.buf.length < n) scratch.buf = new Uint8Array(n * 2);
  const b = scratch.buf;
  for (let i = 0; i < routing.length; i++) {
    const c = routing.charCodeAt(i);
    b[i * 2] = c & 0xff;
    b[i * 2 + 1] = c >>> 8;
  }
  return murmur3x86_32(b, 0, n, 0);
}

/** ES OperationRouting: floorMod(hash, routingNumShards) / routingFactor (6.x default factor 1). */
export function shardForRouting(
  routing: string,
  numShards: number,
  routingNumShards = numShards,
): number {
  const h = routingHash(routing);
  const m = ((h % routingNumShards) + routingNumShards) % routingNumShards;
  return Math.floor(m / (routingNumShards / numShards));
}
