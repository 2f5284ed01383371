/**
 * The unit/part names DATE_ADD, DATE_DIFF, DATE_PART and DATE_TRUNC accept (ES DateTimeField):
 * case-insensitive names and aliases, the `[YEAR, QUARTER, ...]` list for errors, and the "did you
 * mean" suggestions of ql StringUtils.findSimilar (Lucene LevenshteinDistance >= 0.5, best first).
 * Suggestion order among equal scores follows Java HashMap iteration, which is reproduced here.
 */

export interface PartSpec<P extends string> {
  readonly name: P;
  readonly aliases: readonly string[];
}

/** java.lang.String.hashCode. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** Iteration order of a java.util.HashMap/HashSet filled in `keys` order. */
function hashOrder(keys: readonly string[], initialCapacity = 16): string[] {
  const unique = [...new Set(keys)];
  let cap = initialCapacity;
  while (unique.length > cap * 0.75) cap *= 2;
  const bucket = (k: string) => {
    const h = javaHash(k);
    return (h ^ (h >>> 16)) & (cap - 1);
  };
  return unique
    .map((k, i) => ({ k, i, b: bucket(k) }))
    .sort((a, b) => a.b - b.b || a.i - b.i)
    .map((e) => e.k);
}

/** HashSet(Collection) capacity: max(size / .75 + 1, 16). */
const setCapacity = (n: number) => {
  const want = Math.max(Math.floor(n / 0.75) + 1, 16);
  let cap = 1;
  while (cap < want) cap *= 2;
  return cap;
};

/** Lucene LevenshteinDistance.getDistance: 1 - distance / max length, in float32. */
export function levenshteinSimilarity(target: string, other: string): number {
  const n = target.length;
  const m = other.length;
  if (n === 0 || m === 0) return n === m ? 1 : 0;
  let p = new Int32Array(n + 1);
  let d = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) p[i] = i;
  for (let j = 1; j <= m; j++) {
    const t = other.charCodeAt(j - 1);
    d[0] = j;
    for (let i = 1; i <= n; i++) {
      const cost = target.charCodeAt(i - 1) === t ? 0 : 1;
      d[i] = Math.min(Math.min(d[i - 1]! + 1, p[i]! + 1), p[i - 1]! + cost);
    }
    const tmp = p;
    p = d;
    d = tmp;
  }
  return Math.fround(1 - Math.fround(p[n]! / Math.max(m, n)));
}

/** ql StringUtils.findSimilar. */
export function findSimilar(match: string, candidates: Iterable<string>): string[] {
  const scored: Array<[number, string]> = [];
  for (const c of candidates) {
    const dist = levenshteinSimilarity(match, c);
    if (dist >= 0.5) scored.push([dist, c]);
  }
  scored.sort((a, b) => b[0] - a[0]); // stable, like CollectionUtil.timSort
  return scored.map((s) => s[1]);
}

export class DateTimeFieldSet<P extends string> {
  private readonly byName = new Map<string, P>();
  /** Keys in Java HashMap iteration order (drives suggestion order). */
  readonly keys: readonly string[];
  /** Enum names in declaration order: ES's VALID_VALUES. */
  readonly validValues: readonly P[];

  constructor(parts: ReadonlyArray<PartSpec<P>>) {
    const insertion: string[] = [];
    for (const part of parts) {
      const lower = part.name.toLowerCase();
      this.byName.set(lower, part.name);
      insertion.push(lower);
      for (const a of hashOrder(part.aliases, setCapacity(part.aliases.length))) {
        this.byName.set(a, part.name);
        insertion.push(a);
      }
    }
    this.keys = hashOrder(insertion);
    this.validValues = parts.map((p) => p.name);
  }

  /** DateTimeField.resolveMatch: case-insensitive. */
  resolve(text: string): P | null {
    return this.byName.get(text.toLowerCase()) ?? null;
  }

  findSimilar(text: string): string[] {
    return findSimilar(text, this.keys);
  }

  /** `[YEAR, QUARTER, ...]` as Java prints the list. */
  get validValuesText(): string {
    return '[' + this.validValues.join(', ') + ']';
  }
}
