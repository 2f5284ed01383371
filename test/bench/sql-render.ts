/**
 * The workload's `es_sql` statements with their parameters filled in, and the comparison of a SQL
 * answer with the DSL answer to the same parameters: both run on the one executor, so counts, top
 * names and scores, and group counts must be the same.
 */

type Body = any;

/** Fills `{{name}}` placeholders; string values are quoted SQL-style ('' for '). */
export function renderSql(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => {
    const v = params[k];
    return typeof v === 'string' ? v.replace(/'/g, "''") : String(v);
  });
}

/** Null when the SQL rows say what the DSL response says, else the first difference. */
export function sqlRowsCheck(id: string, sql: Body, dsl: Body): string | null {
  const rows = sql.rows as unknown[][];
  if (id.endsWith('count_term'))
    return rows[0]?.[0] === dsl.count ? null : `COUNT(*) ${String(rows[0]?.[0])} != ${dsl.count}`;
  if (id.endsWith('sort_page')) return sortPageCheck(sql, dsl);
  if (dsl.hits && (dsl.hits.hits as Body[]).length > 0 && !dsl.aggregations) {
    const hits = dsl.hits.hits as Body[];
    if (rows.length !== hits.length) return `${rows.length} rows != ${hits.length} hits`;
    const scoredFilter = id.endsWith('bool_range');
    for (let i = 0; i < hits.length; i++) {
      if (rows[i]![0] !== hits[i]._source.name) return `row ${i}: ${String(rows[i]![0])}`;
      // ES SQL lowers AND to bool `must`, so a range beside MATCH adds its constant 1.0
      if (!scoredFilter && Math.fround(rows[i]![1] as number) !== Math.fround(hits[i]._score))
        return `row ${i} score ${String(rows[i]![1])} != ${hits[i]._score}`;
    }
    return null;
  }
  if (id.endsWith('range_agg')) {
    const buckets = (Object.values(dsl.aggregations as Record<string, Body>)[0].buckets as Body[])
      .map((b) => b.doc_count as number)
      .filter((n) => n > 0);
    const counts = rows.map((r) => r[1]);
    return JSON.stringify(counts) === JSON.stringify(buckets)
      ? null
      : `groups ${JSON.stringify(counts)} != buckets ${JSON.stringify(buckets)}`;
  }
  if (id.includes('terms_avg')) {
    const buckets = Object.values(dsl.aggregations as Record<string, Body>)[0].buckets as Body[];
    const counts = rows.map((r) => r[1]);
    const want = buckets.map((b) => b.doc_count as number);
    if (JSON.stringify(counts) !== JSON.stringify(want))
      return `group counts ${JSON.stringify(counts)} != ${JSON.stringify(want)}`;
    const avgOf = new Map(
      buckets.map((b) => [
        b.key as string,
        (Object.entries(b).find(([k]) => k !== 'key' && k !== 'doc_count')![1] as Body).value,
      ]),
    );
    for (const r of rows)
      if (avgOf.has(r[0] as string) && avgOf.get(r[0] as string) !== r[2])
        return `AVG for ${String(r[0])}: ${String(r[2])} != ${String(avgOf.get(r[0] as string))}`;
    return null;
  }
  return null;
}

/**
 * `SELECT * ... ORDER BY f DESC LIMIT 10 OFFSET m` against the DSL's `from: m, size: 10` page:
 * the same number of rows and, row by row, every column the hit's `_source` has (so the sort
 * value and its tie order too) equal.
 */
function sortPageCheck(sql: Body, dsl: Body): string | null {
  const rows = sql.rows as unknown[][];
  const names = (sql.columns as Array<{ name: string }>).map((c) => c.name);
  const hits = dsl.hits.hits as Body[];
  if (rows.length !== hits.length) return `${rows.length} rows != ${hits.length} hits`;
  for (let i = 0; i < hits.length; i++) {
    const src = hits[i]._source as Record<string, unknown>;
    let compared = 0;
    for (let j = 0; j < names.length; j++) {
      if (!(names[j]! in src)) continue;
      compared++;
      const a = rows[i]![j];
      const b = src[names[j]!];
      if (a !== b && String(a) !== String(b))
        return `row ${i} ${names[j]}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`;
    }
    if (compared === 0) return `row ${i}: no column of the hit's _source`;
  }
  return null;
}
