/**
 * Conditional functions (ES sql Conditionals, NullIfProcessor, CaseProcessor): COALESCE/IFNULL/
 * NVL/ISNULL, GREATEST/LEAST (nulls skipped, comparison via ql Comparisons), NULLIF, IIF and a
 * CASE helper. Arguments are already evaluated values; CASE/IIF take thunks so that untaken
 * branches are not evaluated (ES uses `?:` in scripts for the same reason).
 */
import { eq, gt, lt } from './comparison.js';

/** COALESCE(v1, v2, ...): first non-null value. IFNULL/NVL/ISNULL are COALESCE of two. */
export function coalesce(values: readonly unknown[]): unknown {
  for (const v of values) if (v !== null && v !== undefined) return v;
  return null;
}

export const ifNull = (a: unknown, b: unknown): unknown => coalesce([a, b]);

function extremum(
  values: readonly unknown[],
  better: (a: unknown, b: unknown) => boolean | null,
): unknown {
  let result: unknown = null;
  let first = true;
  for (const v of values) {
    if (first || result === null || result === undefined || better(v, result) === true) result = v;
    first = false;
  }
  return result ?? null;
}

/** GREATEST(v1, v2, ...): the largest non-null value. */
export const greatest = (values: readonly unknown[]): unknown => extremum(values, gt);

/** LEAST(v1, v2, ...): the smallest non-null value. */
export const least = (values: readonly unknown[]): unknown => extremum(values, lt);

/** NULLIF(a, b): null when a equals b, else a. */
export function nullif(a: unknown, b: unknown): unknown {
  return eq(a, b) === true ? null : (a ?? null);
}

/** CASE WHEN c1 THEN r1 ... ELSE e END: the first branch whose condition is TRUE. */
export function caseWhen(
  branches: ReadonlyArray<readonly [() => unknown, () => unknown]>,
  elseResult: () => unknown,
): unknown {
  for (const [cond, result] of branches) {
    if (cond() === true) return result();
  }
  return elseResult();
}

/** IIF(cond, then[, else]). */
export function iif(
  cond: unknown,
  thenValue: () => unknown,
  elseValue: () => unknown = () => null,
): unknown {
  return cond === true ? thenValue() : elseValue();
}
