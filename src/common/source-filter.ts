/**
 * `_source` filtering (ES XContentMapValues.filter): include/exclude patterns with `*` wildcards
 * over dotted paths. An object matched by an include is kept whole; excludes win over includes.
 */

export interface SourceFilter {
  includes: string[];
  excludes: string[];
}

export function isFilterEmpty(f: SourceFilter): boolean {
  return f.includes.length === 0 && f.excludes.length === 0;
}

const regexCache = new Map<string, RegExp>();
function globRe(p: string): RegExp {
  let re = regexCache.get(p);
  if (!re) {
    re = new RegExp(
      '^' +
        p
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*') +
        '$',
    );
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(p, re);
  }
  return re;
}

const matches = (p: string, path: string) => (p.includes('*') ? globRe(p).test(path) : p === path);

/** Could `path` (an object on the way) lead to something `p` matches? */
function mayMatchBelow(p: string, path: string): boolean {
  if (p.includes('*')) {
    const star = p.indexOf('*');
    const prefix = p.slice(0, star);
    return path.startsWith(prefix) || prefix.startsWith(path + '.') || prefix === path;
  }
  return p.startsWith(path + '.');
}

export function filterSource(source: unknown, f: SourceFilter): unknown {
  if (isFilterEmpty(f) || source === null || typeof source !== 'object') return source;
  return filterObject(source as Record<string, unknown>, '', f) ?? {};
}

function filterValue(v: unknown, path: string, f: SourceFilter, included: boolean): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      if (x !== null && typeof x === 'object' && !Array.isArray(x)) {
        const r = filterObject(x as Record<string, unknown>, path, f, included);
        if (r !== undefined) out.push(r);
      } else if (Array.isArray(x)) {
        const r = filterValue(x, path, f, included);
        if (r !== undefined) out.push(r);
      } else if (included) out.push(x);
    }
    return out.length || included ? out : undefined;
  }
  if (v !== null && typeof v === 'object') {
    return filterObject(v as Record<string, unknown>, path, f, included);
  }
  return included ? v : undefined;
}

function filterObject(
  obj: Record<string, unknown>,
  prefix: string,
  f: SourceFilter,
  parentIncluded = false,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (f.excludes.some((p) => matches(p, path))) continue;
    const inc =
      parentIncluded || f.includes.length === 0 || f.includes.some((p) => matches(p, path));
    const isContainer = v !== null && typeof v === 'object';
    if (!inc && !(isContainer && f.includes.some((p) => mayMatchBelow(p, path)))) continue;
    const r = isContainer ? filterValue(v, path, f, inc) : inc ? v : undefined;
    if (r === undefined) continue;
    if (!inc && isContainer && !Array.isArray(r) && Object.keys(r as object).length === 0) continue;
    out[k] = r;
    any = true;
  }
  return any || parentIncluded || prefix === '' ? out : undefined;
}

/** Parses `_source`, `_source_includes`/`_source_include`, `_source_excludes`/`_source_exclude`
 *  request parameters. Returns null when `_source=false`. */
export function sourceFilterFromParams(
  get: (n: string) => string | undefined,
): SourceFilter | null {
  const src = get('_source');
  const split = (s: string | undefined) =>
    s === undefined
      ? []
      : s
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x.length > 0);
  const includes = split(get('_source_includes') ?? get('_source_include'));
  const excludes = split(get('_source_excludes') ?? get('_source_exclude'));
  if (src !== undefined) {
    if (src === 'false') return null;
    if (src !== 'true' && src !== '') includes.push(...split(src));
  }
  return { includes, excludes };
}
