/**
 * The indexing buffer's term dictionary: term → dense id in insertion order. An open-addressing
 * table over FNV-1a hashes of the UTF-16 code units, so the standard analyzer's ASCII fast path
 * can look a token up straight from the source text (lowercasing as it hashes) and only allocates
 * a string the first time a term is seen.
 */

const EMPTY = 0;

export class TermTable {
  /** Terms by id. */
  readonly terms: string[] = [];
  /** Slot → id + 1 (0 = empty). */
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(256);
  private mask = 1023;

  get size(): number {
    return this.terms.length;
  }

  /** The id of `term`, adding it if new. */
  id(term: string): number {
    let h = 0x811c9dc5 | 0;
    const n = term.length;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
    const slots = this.slots;
    const terms = this.terms;
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const v = slots[s]!;
      if (v === EMPTY) return this.insert(s, h, term);
      if (this.hashes[v - 1] === h && terms[v - 1] === term) return v - 1;
    }
  }

  /** The id of `text[start, end)` lowercased; the slice must be ASCII. */
  idLowerAscii(text: string, start: number, end: number): number {
    let h = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x01000193);
    }
    const slots = this.slots;
    const terms = this.terms;
    const len = end - start;
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const v = slots[s]!;
      if (v === EMPTY) return this.insert(s, h, text.slice(start, end).toLowerCase());
      if (this.hashes[v - 1] !== h) continue;
      const t = terms[v - 1]!;
      if (t.length !== len) continue;
      let i = 0;
      while (i < len) {
        const c = text.charCodeAt(start + i);
        if (t.charCodeAt(i) !== (c >= 65 && c <= 90 ? c + 32 : c)) break;
        i++;
      }
      if (i === len) return v - 1;
    }
  }

  private insert(slot: number, h: number, term: string): number {
    const id = this.terms.length;
    this.terms.push(term);
    if (id === this.hashes.length) {
      const n = new Int32Array(id * 2);
      n.set(this.hashes);
      this.hashes = n;
    }
    this.hashes[id] = h;
    this.slots[slot] = id + 1;
    // Keep the load factor under 1/2 so probe runs stay short.
    if ((id + 1) * 2 > this.mask) this.grow();
    return id;
  }

  private grow(): void {
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(size);
    const mask = size - 1;
    const hashes = this.hashes;
    for (let id = 0; id < this.terms.length; id++) {
      let s = hashes[id]! & mask;
      while (slots[s] !== EMPTY) s = (s + 1) & mask;
      slots[s] = id + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

const ID_BITS = 2 ** 21;

/**
 * Ids of `terms` in sorted (UTF-16 code unit) order, optionally only those `keep` accepts. Sorts
 * numbers, not strings: a 4-byte key of each term's prefix and its id packed into one float,
 * sorted natively; only runs with equal keys are then ordered by string comparison.
 */
export function sortedTermIds(
  terms: readonly string[],
  keep: ((id: number) => boolean) | null = null,
): Int32Array {
  const n = terms.length;
  if (n >= ID_BITS) {
    const ids: number[] = [];
    for (let t = 0; t < n; t++) if (!keep || keep(t)) ids.push(t);
    return Int32Array.from(ids.sort((a, b) => cmp(terms[a]!, terms[b]!)));
  }
  const keys = new Float64Array(n);
  let m = 0;
  for (let t = 0; t < n; t++) {
    if (keep && !keep(t)) continue;
    const s = terms[t]!;
    keys[m++] = prefixKey(s) * ID_BITS + t;
  }
  const sorted = keys.subarray(0, m).sort();
  const out = new Int32Array(m);
  let i = 0;
  while (i < m) {
    const group = Math.floor(sorted[i]! / ID_BITS);
    let j = i + 1;
    while (j < m && Math.floor(sorted[j]! / ID_BITS) === group) j++;
    for (let k = i; k < j; k++) out[k] = sorted[k]! % ID_BITS;
    if (j - i > 1) refine(terms, out, i, j, 0);
    i = j;
  }
  return out;
}

/** Below this many ids a group is ordered by string comparison. */
const SMALL_GROUP = 16;

/**
 * Orders `ids[lo, hi)`, whose terms share their first `from` code units, by the same numeric key
 * taken past their longest common prefix (an MSD radix pass per level), so terms with long shared
 * prefixes (IPs as 32 hex digits, paths, ids) are not sorted by string comparisons.
 */
function refine(
  terms: readonly string[],
  ids: Int32Array,
  lo: number,
  hi: number,
  from: number,
): void {
  const m = hi - lo;
  if (m < SMALL_GROUP || from > 256) {
    insertionSort(terms, ids, lo, hi);
    return;
  }
  const first = terms[ids[lo]!]!;
  let lcp = first.length;
  for (let k = lo + 1; k < hi && lcp > from; k++) {
    const s = terms[ids[k]!]!;
    const lim = Math.min(lcp, s.length);
    let i = from;
    while (i < lim && s.charCodeAt(i) === first.charCodeAt(i)) i++;
    lcp = i;
  }
  const keys = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const key = presenceKey(terms[ids[lo + k]!]!, lcp);
    if (key < 0) {
      // A unit >= 255 in the window: bytes cannot order these, strings must.
      ids.subarray(lo, hi).sort((a, b) => cmp(terms[a]!, terms[b]!));
      return;
    }
    keys[k] = key * ID_BITS + ids[lo + k]!;
  }
  keys.sort();
  let i = 0;
  while (i < m) {
    const group = Math.floor(keys[i]! / ID_BITS);
    let j = i + 1;
    while (j < m && Math.floor(keys[j]! / ID_BITS) === group) j++;
    for (let k = i; k < j; k++) ids[lo + k] = keys[k]! % ID_BITS;
    // Equal keys mean equal units (and lengths) through lcp + 4: refine from there.
    if (j - i > 1) refine(terms, ids, lo + i, lo + j, lcp + 4);
    i = j;
  }
}

function insertionSort(terms: readonly string[], ids: Int32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const id = ids[i]!;
    const t = terms[id]!;
    let j = i - 1;
    while (j >= lo && terms[ids[j]!]! > t) {
      ids[j + 1] = ids[j]!;
      j--;
    }
    ids[j + 1] = id;
  }
}

/**
 * Four code units from `at` as bytes, each as unit + 1 and a missing one as 0, so equal keys mean
 * equal units and equal presence; -1 when a unit is >= 255 and does not fit.
 */
function presenceKey(s: string, at: number): number {
  let k = 0;
  for (let i = at; i < at + 4; i++) {
    if (i >= s.length) {
      k *= 256;
      continue;
    }
    const c = s.charCodeAt(i);
    if (c >= 255) return -1;
    k = k * 256 + c + 1;
  }
  return k;
}

/**
 * The first four code units as bytes, a missing one as 0: a monotone image of the string order
 * (s < t implies key(s) <= key(t)), so equal keys are the only ties to resolve. A unit >= 255 is
 * cut to 255 and ends the key, since what follows it can no longer be compared by bytes.
 */
function prefixKey(s: string): number {
  let k = 0;
  let i = 0;
  for (; i < 4 && i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 255) {
      k = k * 256 + 255;
      i++;
      break;
    }
    k = k * 256 + c;
  }
  for (; i < 4; i++) k *= 256;
  return k;
}

function cmp(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
