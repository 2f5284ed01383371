/**
 * Dissect (ES DissectParser): a pattern of `%{key}` fields between literal delimiters splits a
 * string without regexes. Modifiers: `+` append (ordered by `/n`), `->` skip repeated
 * delimiters, `?` or empty name skip, `*key`/`&key` reference pairs.
 */
import { illegalArgument } from '../common/errors.js';

type Modifier = 'none' | 'append' | 'append_order' | 'skip' | 'ref_key' | 'ref_value';

interface Key {
  readonly name: string;
  readonly modifier: Modifier;
  readonly skipRightPadding: boolean;
  readonly order: number;
  readonly delimiter: string;
}

export interface Dissect {
  readonly pattern: string;
  readonly leading: string;
  readonly keys: readonly Key[];
  readonly appendSeparator: string;
}

function parseKey(raw: string, delimiter: string, pattern: string): Key {
  let s = raw;
  let skipRightPadding = false;
  if (s.endsWith('->')) {
    skipRightPadding = true;
    s = s.slice(0, -2);
  }
  let modifier: Modifier = 'none';
  let order = 0;
  if (s.startsWith('+')) {
    modifier = 'append';
    s = s.slice(1);
    const m = /\/(\d+)$/.exec(s);
    if (m) {
      modifier = 'append_order';
      order = Number(m[1]);
      s = s.slice(0, m.index);
    }
  } else if (s.startsWith('?')) {
    modifier = 'skip';
    s = s.slice(1);
  } else if (s.startsWith('*')) {
    modifier = 'ref_key';
    s = s.slice(1);
  } else if (s.startsWith('&')) {
    modifier = 'ref_value';
    s = s.slice(1);
  }
  if (s.length === 0 && modifier !== 'none' && modifier !== 'skip')
    throw illegalArgument(`Unable to parse pattern: ${pattern}`);
  if (s.length === 0) modifier = 'skip';
  return { name: s, modifier, skipRightPadding, order, delimiter };
}

export function compileDissect(pattern: string, appendSeparator: string): Dissect {
  const re = /%\{([^}]*)\}/g;
  const found: Array<{ raw: string; start: number; end: number }> = [];
  for (let m = re.exec(pattern); m; m = re.exec(pattern))
    found.push({ raw: m[1]!, start: m.index, end: m.index + m[0].length });
  if (found.length === 0) throw illegalArgument(`Unable to parse pattern: ${pattern}`); // prettier-ignore
  const leading = pattern.slice(0, found[0]!.start);
  const keys = found.map((f, i) =>
    parseKey(
      f.raw,
      pattern.slice(f.end, i + 1 < found.length ? found[i + 1]!.start : pattern.length),
      pattern,
    ),
  );
  const refKeys = keys.filter((k) => k.modifier === 'ref_key').map((k) => k.name);
  const refValues = keys.filter((k) => k.modifier === 'ref_value').map((k) => k.name);
  if (refKeys.length !== refValues.length || refKeys.some((k) => !refValues.includes(k)))
    throw illegalArgument(`Unable to parse pattern: ${pattern}`);
  if (keys.every((k) => k.modifier === 'skip'))
    throw illegalArgument(`Unable to find any keys in pattern: ${pattern}`);
  return { pattern, leading, keys, appendSeparator };
}

/** Splits `input`; ES's error when the delimiters are not all found in order. */
export function dissect(d: Dissect, input: string): Record<string, string> {
  const fail = () =>
    illegalArgument(
      `Unable to find match for dissect pattern: ${d.pattern} against source: ${input}`,
    );
  if (!input.startsWith(d.leading)) throw fail();
  let pos = d.leading.length;
  const values: string[] = [];
  for (let i = 0; i < d.keys.length; i++) {
    const k = d.keys[i]!;
    if (k.delimiter === '') {
      if (i === d.keys.length - 1) {
        values.push(input.slice(pos));
        pos = input.length;
        continue;
      }
      // adjacent keys without a delimiter: the first takes nothing
      values.push('');
      continue;
    }
    const at = input.indexOf(k.delimiter, pos);
    if (at < 0) throw fail();
    values.push(input.slice(pos, at));
    pos = at + k.delimiter.length;
    if (k.skipRightPadding) while (input.startsWith(k.delimiter, pos)) pos += k.delimiter.length;
  }
  if (pos < input.length && d.keys[d.keys.length - 1]!.delimiter !== '') throw fail();
  const out: Record<string, string> = {};
  const appends = new Map<string, Array<{ order: number; idx: number; v: string }>>();
  const refK = new Map<string, string>();
  const refV = new Map<string, string>();
  const appendNames = new Set(
    d.keys
      .filter((k) => k.modifier === 'append' || k.modifier === 'append_order')
      .map((k) => k.name),
  );
  d.keys.forEach((k, idx) => {
    const v = values[idx]!;
    switch (k.modifier) {
      case 'skip':
        return;
      case 'append':
      case 'append_order': {
        const list = appends.get(k.name) ?? [];
        list.push({ order: k.order, idx, v });
        appends.set(k.name, list);
        if (!(k.name in out)) out[k.name] = '';
        return;
      }
      case 'ref_key':
        refK.set(k.name, v);
        return;
      case 'ref_value':
        refV.set(k.name, v);
        return;
      default:
        if (appendNames.has(k.name)) {
          const list = appends.get(k.name) ?? [];
          list.push({ order: 0, idx, v });
          appends.set(k.name, list);
          if (!(k.name in out)) out[k.name] = '';
        } else out[k.name] = v;
    }
  });
  for (const [name, list] of appends) {
    list.sort((a, b) => a.order - b.order || a.idx - b.idx);
    out[name] = list.map((x) => x.v).join(d.appendSeparator);
  }
  for (const [name, key] of refK) out[key] = refV.get(name) ?? '';
  return out;
}
