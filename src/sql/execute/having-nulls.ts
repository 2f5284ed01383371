/**
 * HAVING with SQL NULL semantics (issue 16). ES's bucket_selector hands a script NaN for an
 * aggregate without values (MIN/MAX/AVG/SUM of a group whose field is all null, gap_policy skip),
 * and Java compares NaN as greater than every number: `MAX(x) > 1` keeps such a group, `MAX(x) < 1`
 * drops it, `MAX(x) IS NULL` drops it — where SQL (and H2, ES SQL's own oracle) compares NULL to
 * nothing. The executed search (not the body `_sql/translate` shows) passes such an aggregate to
 * the script as null instead, so the null-safe InternalQlScriptUtils calls answer SQL's NULL;
 * likewise a SUM over no values (ES's `sum` answers 0) through the value count counted beside it.
 *
 * Datetime aggregates keep ES's behaviour: the script reads them through `asDateTime(params.aN)`,
 * which turns NaN into the epoch (Java's NaN -> long is 0), and ES's own csv-spec pins that
 * (date:dateParseHaving, datetime:dateTimeParseHaving keep the group without birth dates).
 */
import { ROOT_GROUP_NAME } from '../translate/to-search-source.js';
import { sumValuesName } from './query-runner.js';

type Obj = Record<string, unknown>;

/** `params.a0` not read through asDateTime(...). */
const NUMERIC_PARAM = /(?<!asDateTime\()params\.(a\d+)\b/g;

/**
 * How the script reads each aggregate var: NaN as null, and a SUM (ES answers 0 over no values)
 * as null when the value count beside it (`values_of_<id>`, query-runner.ts) is 0.
 */
function nullSafeSource(
  source: string,
  vars: ReadonlySet<string>,
  sumCounts: ReadonlyMap<string, string>,
): string {
  return source.replace(NUMERIC_PARAM, (m: string, v: string) => {
    const count = sumCounts.get(v);
    if (count !== undefined) return `(params.${count} == 0 ? null : params.${v})`;
    return vars.has(v) ? `(Double.isNaN(params.${v}) ? null : params.${v})` : m;
  });
}

/**
 * The path of the value count of a SUM's path: `values_of_<id>` beside a `sum`, `<id>.count` of
 * the `stats`/`extended_stats` a SUM shares with other aggregates of the field; null otherwise.
 */
function sumCountPath(subs: Record<string, Obj>, path: string): string | null {
  const [id, prop] = path.split('.');
  const agg = subs[id!];
  if (agg === undefined) return null;
  if (prop === undefined)
    return agg.sum !== undefined && subs[sumValuesName(id!)] ? sumValuesName(id!) : null;
  if (prop === 'sum' && (agg.stats !== undefined || agg.extended_stats !== undefined))
    return `${id}.count`;
  return null;
}

/** The search body with every HAVING bucket_selector reading missing numeric aggregates as null. */
export function withSqlNullHaving(body: Obj): Obj {
  const aggs = body.aggregations as Record<string, Obj> | undefined;
  const root = aggs?.[ROOT_GROUP_NAME];
  const subs = root?.aggregations as Record<string, Obj> | undefined;
  if (aggs === undefined || root === undefined || subs === undefined) return body;
  let changed = false;
  const out: Obj = {};
  for (const [name, agg] of Object.entries(subs)) {
    const sel = agg.bucket_selector as Obj | undefined;
    if (sel === undefined) {
      out[name] = agg;
      continue;
    }
    // `_count` paths are never missing
    const vars = new Set(
      Object.entries(sel.buckets_path as Record<string, string>)
        .filter(([, path]) => path !== '_count')
        .map(([v]) => v),
    );
    // SUMs with a value count beside them: the count joins the buckets_path
    const paths = { ...(sel.buckets_path as Record<string, string>) };
    const sumCounts = new Map<string, string>();
    for (const [v, path] of Object.entries(paths)) {
      const counted = sumCountPath(subs, path);
      if (counted !== null) {
        sumCounts.set(v, `${v}_count`);
        paths[`${v}_count`] = counted;
      }
    }
    const script = sel.script as Obj;
    const source = nullSafeSource(script.source as string, vars, sumCounts);
    if (source === script.source) {
      out[name] = agg;
      continue;
    }
    changed = true;
    out[name] = {
      ...agg,
      bucket_selector: { ...sel, buckets_path: paths, script: { ...script, source } },
    };
  }
  if (!changed) return body;
  return { ...body, aggregations: { ...aggs, [ROOT_GROUP_NAME]: { ...root, aggregations: out } } };
}
