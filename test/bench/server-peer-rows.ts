/**
 * A server peer's rows against reference rows (DuckDB's, or a brute-force scan) for the
 * workload's count, range, terms+avg and sort-page shapes. Columns are taken by position for
 * terms (key, count, mean), so differently named columns compare; ties in the reference's
 * `ORDER BY c DESC LIMIT 10` may pick other keys, so counts compare in order and means by key.
 */
import type { Row } from './peers/peer-types.js';

const num = (v: unknown) => (v === null || v === undefined ? NaN : Number(v));
const close = (a: number, b: number) =>
  a === b || Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
const col = (r: Row | undefined, i: number) => (r ? r[Object.keys(r)[i]!] : undefined);

export function compareRows(id: string, ours: Row[], ref: Row[]): string | null {
  if (id.endsWith('count_term'))
    return num(ours[0]?.n) === num(ref[0]?.n) ? null : `count ${String(ours[0]?.n)} != ${String(ref[0]?.n)}`; // prettier-ignore
  if (id.endsWith('range_agg')) {
    for (const k of Object.keys(ref[0] ?? {}))
      if ((num(ours[0]?.[k]) || 0) !== (num(ref[0]?.[k]) || 0))
        return `range ${k}: ${String(ours[0]?.[k])} != ${String(ref[0]?.[k])}`;
    return null;
  }
  if (id.includes('terms_avg')) {
    if (ours.length !== ref.length) return `terms: ${ours.length} rows != ${ref.length}`;
    const byKey = new Map(ref.map((r) => [String(col(r, 0)), r]));
    for (let i = 0; i < ours.length; i++) {
      if (num(col(ours[i], 1)) !== num(col(ref[i], 1)))
        return `terms: count #${i} ${String(col(ours[i], 1))} != ${String(col(ref[i], 1))}`;
      const r = byKey.get(String(col(ours[i], 0)));
      if (r && !close(num(col(ours[i], 2)), num(col(r, 2))))
        return `terms ${String(col(ours[i], 0))}: mean ${String(col(ours[i], 2))} != ${String(col(r, 2))}`; // prettier-ignore
    }
    return null;
  }
  if (id.endsWith('sort_page')) {
    const f = id.startsWith('logs') ? 'size' : 'balance';
    const a = ours.map((r) => num(r[f])).join(',');
    const b = ref.map((r) => num(r[f])).join(',');
    return a === b ? null : `sort values ${a} != ${b}`;
  }
  return null;
}
