/**
 * Option strings of the full-text predicates MATCH(field(s), 'text'[, 'options']) and
 * QUERY('text'[, 'options']) (ql FullTextUtils): `k1=v1;k2=v2` settings and the
 * `field^boost,...` list of multi-field MATCH, with ES's parsing_exception messages (the caller
 * adds the location). MATCH and QUERY are predicates, not registry functions, as in ES.
 */

/** org.elasticsearch.common.Strings.split: around the first delimiter, or null. */
function splitInTwo(s: string, delimiter: string): [string, string] | null {
  const i = s.indexOf(delimiter);
  if (s.length === 0 || i < 0) return null;
  return [s.slice(0, i), s.slice(i + delimiter.length)];
}

/** FullTextUtils.parseSettings: throws Error with ES's message on a bad or duplicate entry. */
export function parseFullTextOptions(options: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!options || options.trim().length === 0) return out;
  for (const entry of options.split(';')) {
    const kv = splitInTwo(entry, '=');
    if (kv === null) throw new Error(`Cannot parse entry ${entry} in options ${options}`);
    if (out.has(kv[0])) throw new Error(`Duplicate option ${entry} detected in options ${options}`);
    out.set(kv[0], kv[1]);
  }
  return out;
}

/**
 * FullTextUtils.parseFields: `name^boost` entries, sorted by name (ES collects them in a
 * TreeSet), boost 1.0 by default; throws "Cannot parse boosting for x".
 */
export function parseFullTextFields(fields: string | null | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (!fields || fields.trim().length === 0) return out;
  const names = [...new Set(fields.split(',').filter((f) => f.length > 0))].sort();
  for (const name of names) {
    const kv = name.includes('^') ? splitInTwo(name, '^') : null;
    if (kv === null) {
      out.set(name, 1);
      continue;
    }
    const boost = kv[1].trim();
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(boost)) {
      throw new Error(`Cannot parse boosting for ${name}`);
    }
    out.set(kv[0], Math.fround(Number(boost.replace(/[fFdD]$/, ''))));
  }
  return out;
}
