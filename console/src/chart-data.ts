/**
 * The series a chart draws, read from an aggregation answer (the first bucket aggregation) or a
 * SQL result (a label column and a numeric one), and the chart kind that suits it: a line over
 * time or numeric keys (date_histogram, histogram, GROUP BY a date), bars (or a pie) for terms.
 * Pure: unit-tested in node.
 */
export type ChartKind = 'bar' | 'line' | 'pie';

export interface ChartData {
  readonly title: string;
  /** One label per point, as the answer prints its key. */
  readonly labels: readonly string[];
  /** x of each point: epoch seconds for time, the key for numbers, the index otherwise. */
  readonly xs: readonly number[];
  readonly values: readonly number[];
  readonly valueName: string;
  readonly time: boolean;
  readonly kinds: readonly ChartKind[];
  readonly preferred: ChartKind;
}

const NUMERIC = new Set([
  'byte',
  'short',
  'integer',
  'long',
  'float',
  'double',
  'half_float',
  'scaled_float',
  'unsigned_long',
]);

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first single-value metric of a bucket (`{ "value": n }`), by name, if any. */
function bucketMetric(b: Json): [string, number] | null {
  for (const [k, v] of Object.entries(b)) {
    if (isObj(v) && typeof v['value'] === 'number') return [k, v['value'] as number];
  }
  return null;
}

/** The chart of the first bucket aggregation in `aggregations` (searching nested ones too). */
export function chartFromAggs(aggs: unknown): ChartData | null {
  if (!isObj(aggs)) return null;
  for (const [name, agg] of Object.entries(aggs)) {
    if (!isObj(agg)) continue;
    let buckets = agg['buckets'];
    if (isObj(buckets))
      buckets = Object.entries(buckets).map(([key, b]) => ({ key, ...(b as Json) }));
    if (Array.isArray(buckets) && buckets.length > 0 && buckets.every(isObj)) {
      return fromBuckets(name, buckets as Json[]);
    }
    // a single-bucket aggregation (filter, nested, global) holds the buckets one level down
    const inner = chartFromAggs(
      Object.fromEntries(Object.entries(agg).filter(([, v]) => isObj(v))),
    );
    if (inner) return inner;
  }
  return null;
}

function fromBuckets(name: string, buckets: Json[]): ChartData {
  const numericKeys = buckets.every((b) => typeof b['key'] === 'number');
  // date_histogram keys are epoch millis printed as dates; histogram keys have no key_as_string
  const time =
    numericKeys &&
    buckets.every(
      (b) => typeof b['key_as_string'] === 'string' && isNaN(Number(b['key_as_string'])),
    );
  const metric = bucketMetric(buckets[0]!);
  const values = buckets.map((b) => {
    if (metric) {
      const m = b[metric[0]];
      return isObj(m) && typeof m['value'] === 'number' ? (m['value'] as number) : 0;
    }
    return typeof b['doc_count'] === 'number' ? (b['doc_count'] as number) : 0;
  });
  const labels = buckets.map((b) => String(b['key_as_string'] ?? b['key'] ?? ''));
  const xs = buckets.map((b, i) =>
    numericKeys ? (time ? (b['key'] as number) / 1000 : (b['key'] as number)) : i,
  );
  const line = numericKeys;
  return {
    title: name,
    labels,
    xs,
    values,
    valueName: metric ? metric[0] : 'doc_count',
    time,
    kinds: line ? ['line', 'bar'] : ['bar', 'pie'],
    preferred: line ? 'line' : 'bar',
  };
}

export interface SqlColumn {
  readonly name: string;
  readonly type: string;
}

/** The chart of a SQL result: the first non-numeric column as labels, the first numeric as values. */
export function chartFromSql(
  columns: readonly SqlColumn[],
  rows: readonly unknown[][],
): ChartData | null {
  if (rows.length === 0) return null;
  const labelAt = columns.findIndex((c) => !NUMERIC.has(c.type));
  const valueAt = columns.findIndex((c, i) => i !== labelAt && NUMERIC.has(c.type));
  if (valueAt < 0) return null;
  const time =
    labelAt >= 0 && (columns[labelAt]!.type === 'datetime' || columns[labelAt]!.type === 'date');
  const labels = rows.map((r, i) => (labelAt >= 0 ? String(r[labelAt]) : String(i + 1)));
  const xs = rows.map((r, i) => (time ? Date.parse(String(r[labelAt])) / 1000 : i));
  const values = rows.map((r) => Number(r[valueAt]) || 0);
  const numericLabel = labelAt < 0;
  return {
    title: columns[valueAt]!.name + (labelAt >= 0 ? ' by ' + columns[labelAt]!.name : ''),
    labels,
    xs,
    values,
    valueName: columns[valueAt]!.name,
    time,
    kinds: time || numericLabel ? ['line', 'bar'] : ['bar', 'pie', 'line'],
    preferred: time ? 'line' : 'bar',
  };
}
