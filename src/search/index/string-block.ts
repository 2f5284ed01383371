/**
 * A list of strings kept as its encoded form, one UTF-8 block with offsets, and decoded per
 * access: a decoded segment's `_id` list, so a loaded segment does not hold a heap string per
 * document (about 48 bytes each) for the few that hits, gets and updates read. It is a read-only
 * `string[]` to its users (a Proxy); `lookupId` searches the block without decoding.
 */

export interface StringBlock {
  /** The UTF-8 bytes of every string (a view, in the segment's blob). */
  readonly bytes: Buffer;
  /** String i is bytes[offsets[i]..offsets[i + 1]]. */
  readonly offsets: Uint32Array;
}

const blocks = new WeakMap<readonly string[], StringBlock>();

function readOnly(): never {
  throw new TypeError('a segment string list is read-only');
}

/** The strings of `block` as a read-only array decoding each element when read. */
export function blockStrings(block: StringBlock): string[] {
  const { bytes, offsets } = block;
  const n = offsets.length - 1;
  const list = new Proxy<string[]>([], {
    get(target, key, receiver) {
      if (typeof key === 'string') {
        const c = key.charCodeAt(0);
        if (c >= 48 && c <= 57) {
          const i = Number(key);
          return i < n ? bytes.toString('utf8', offsets[i]!, offsets[i + 1]!) : undefined;
        }
        if (key === 'length') return n;
      }
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) return Number(key) < n;
      return Reflect.has(target, key);
    },
    // Listing its keys (equality checks, inspection) sees an ordinary array.
    ownKeys(target) {
      const keys: Array<string | symbol> = Array.from({ length: n }, (_, i) => String(i));
      return keys.concat(Reflect.ownKeys(target));
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) < n) {
        const i = Number(key);
        const value = bytes.toString('utf8', offsets[i]!, offsets[i + 1]!);
        return { value, writable: false, enumerable: true, configurable: true };
      }
      const d = Reflect.getOwnPropertyDescriptor(target, key);
      return key === 'length' && d ? { ...d, value: n } : d;
    },
    set: readOnly,
    defineProperty: readOnly,
    deleteProperty: readOnly,
  });
  blocks.set(list, block);
  return list;
}

/** The block behind a list made by `blockStrings`, else undefined. */
export function stringBlockOf(list: readonly string[]): StringBlock | undefined {
  return blocks.get(list);
}

/**
 * String `i` of `list`: read straight from its block when it has one (a Proxy's element read
 * costs more than decoding the string), else the element.
 */
export function stringAt(list: readonly string[], i: number): string {
  const block = blocks.get(list);
  if (block === undefined) return list[i]!;
  return block.bytes.toString('utf8', block.offsets[i]!, block.offsets[i + 1]!);
}

/**
 * Binary search of `order` (indexes of `block`'s strings in ascending string order) for `s`:
 * the index, or -1. An ASCII `s` is compared as bytes (UTF-8 orders like UTF-16 against ASCII),
 * anything else decoded.
 */
export function searchBlock(block: StringBlock, order: Int32Array, s: string): number {
  const { bytes, offsets } = block;
  let ascii = true;
  for (let i = 0; i < s.length; i++)
    if (s.charCodeAt(i) > 127) {
      ascii = false;
      break;
    }
  const key = ascii ? Buffer.from(s, 'latin1') : null;
  let lo = 0;
  let hi = order.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = order[mid]!;
    const start = offsets[d]!;
    const end = offsets[d + 1]!;
    const c = key
      ? -key.compare(bytes, start, end)
      : compareStrings(bytes.toString('utf8', start, end), s);
    if (c < 0) lo = mid + 1;
    else if (c > 0) hi = mid - 1;
    else return d;
  }
  return -1;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
