/**
 * Selecting the best N items under a comparator (ES BucketPriorityQueue.insertWithOverflow + pop
 * loop): a bounded binary heap whose root is the worst kept item; results best first.
 */

export function topN<T>(items: readonly T[], n: number, cmp: (a: T, b: T) => number): T[] {
  if (n <= 0) return [];
  if (items.length <= n) return [...items].sort(cmp);
  // max-heap on "worse": heap[0] is the worst of the kept items
  const heap: T[] = [];
  const worse = (a: T, b: T) => cmp(a, b) > 0;
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    const len = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < len && worse(heap[l]!, heap[m]!)) m = l;
      if (r < len && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const it of items) {
    if (heap.length < n) {
      heap.push(it);
      up(heap.length - 1);
    } else if (!worse(it, heap[0]!)) {
      // Lucene PriorityQueue: an element not "less than" the top replaces it (ties included)
      heap[0] = it;
      down(0);
    }
  }
  return heap.sort(cmp);
}
