/**
 * Java collection iteration orders that show up in Elasticsearch messages (a HashSet of type names
 * printed in "more than 1 type: [a, b]").
 */

/** Java String#hashCode. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Iteration order of a java.util.HashSet holding `items` (added in order, default capacity). */
export function javaHashSetOrder(items: readonly string[]): string[] {
  const unique = [...new Set(items)];
  let cap = 16;
  while (unique.length > cap * 0.75) cap *= 2;
  const bucket = (s: string) => {
    const h = javaStringHash(s);
    return (h ^ (h >>> 16)) & (cap - 1);
  };
  return unique
    .map((s, i) => ({ s, i, b: bucket(s) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((x) => x.s);
}
