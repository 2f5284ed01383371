/**
 * `filter_path` response filtering (ES: FilterPath / FilterPathBasedFilter): dot paths with `*`
 * wildcards within a key and `**` across levels; a leading `-` excludes.
 */

type Pattern = string[];

export function filterPath(body: unknown, specs: string[]): unknown {
  const includes: Pattern[] = [];
  const excludes: Pattern[] = [];
  for (const raw of specs) {
    const s = raw.trim();
    if (!s) continue;
    if (s.startsWith('-')) excludes.push(s.slice(1).split('.'));
    else includes.push(s.split('.'));
  }
  let out = body;
  if (includes.length) out = include(out, includes) ?? {};
  if (excludes.length) out = exclude(out, excludes);
  return out;
}

const keyMatches = (pat: string, key: string): boolean => {
  if (pat === '*' || pat === key) return true;
  if (!pat.includes('*')) return false;
  const re = new RegExp('^' + pat.split('*').map(escapeRe).join('.*') + '$');
  return re.test(key);
};
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Returns the filtered value, or undefined when nothing matched. */
function include(v: unknown, pats: Pattern[]): unknown {
  if (pats.some((p) => p.length === 0)) return v;
  if (Array.isArray(v)) {
    const arr = v.map((x) => include(x, pats)).filter((x) => x !== undefined);
    return arr.length ? arr : undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const next: Pattern[] = [];
    for (const p of pats) {
      const head = p[0]!;
      if (head === '**') {
        next.push(p); // ** may consume this level
        if (p.length > 1 && keyMatches(p[1]!, k)) next.push(p.slice(2));
      } else if (keyMatches(head, k)) next.push(p.slice(1));
    }
    if (!next.length) continue;
    const r = include(val, next);
    if (r !== undefined) {
      out[k] = r;
      any = true;
    }
  }
  return any ? out : undefined;
}

function exclude(v: unknown, pats: Pattern[]): unknown {
  if (Array.isArray(v)) return v.map((x) => exclude(x, pats));
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const next: Pattern[] = [];
    let drop = false;
    for (const p of pats) {
      const head = p[0]!;
      if (head === '**') {
        if (p.length === 1) drop = true;
        next.push(p);
        if (p.length > 1 && keyMatches(p[1]!, k)) {
          if (p.length === 2) drop = true;
          else next.push(p.slice(2));
        }
      } else if (keyMatches(head, k)) {
        if (p.length === 1) drop = true;
        else next.push(p.slice(1));
      }
    }
    if (drop) continue;
    out[k] = next.length ? exclude(val, next) : val;
  }
  return out;
}
