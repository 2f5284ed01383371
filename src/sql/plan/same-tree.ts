/**
 * Whether a rule's output is the tree it was given: the optimizer's change test. Rules return
 * the very node they were handed when nothing applies, so the usual answer is a reference check;
 * a rebuilt but equal tree (fresh nodes, same fields) still counts as unchanged, so a fixpoint
 * batch ends as soon as its rules stop changing the plan. Source positions (`src`) are ignored,
 * as they are by the printed plan this test replaced. Shared subtrees compare by reference, so a
 * rewrite costs a walk down to its first difference, never a whole-plan print.
 */
export function sameTree(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameTree(a[i], b[i])) return false;
    return true;
  }
  // only plain nodes are walked: values of classes (dates, times) compare by reference
  const proto = Object.getPrototypeOf(a);
  if (Array.isArray(b) || proto !== Object.getPrototypeOf(b) || proto !== Object.prototype) {
    return false;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const k in ra) {
    count++;
    if (k === 'src') continue;
    if (!(k in rb) || !sameTree(ra[k], rb[k])) return false;
  }
  for (const _ in rb) count--;
  return count === 0;
}
