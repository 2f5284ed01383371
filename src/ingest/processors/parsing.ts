/** Processors that parse text into fields: grok, dissect, kv. */
import { illegalArgument } from '../../common/errors.js';
import {
  configErrorFor,
  readBoolean,
  readList,
  readOptionalList,
  readOptionalMap,
  readOptionalString,
  readString,
} from '../config.js';
import { hasField, setField } from '../document.js';
import { builtinPatterns, compileGrok, grokMatch } from '../grok.js';
import { compileDissect, dissect } from '../dissect.js';
import { fieldValue, leaf, castString, type ProcessorFactory } from './common.js';
import { javaSplit, javaString } from './fields.js';

const grok: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const patterns = readList(c, 'patterns').map(String);
  const traceMatch = readBoolean(c, 'trace_match', false);
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  const defs = readOptionalMap(c, 'pattern_definitions') ?? {};
  if (patterns.length === 0) throw configErrorFor(c, 'patterns', 'List of patterns must not be empty'); // prettier-ignore
  const bank: Record<string, string> = { ...builtinPatterns() };
  for (const [k, v] of Object.entries(defs)) bank[k] = String(v);
  let g;
  try {
    g = compileGrok(patterns, bank);
  } catch (e) {
    throw configErrorFor(c, 'patterns', `Invalid regex pattern found in: [${patterns.join(', ')}]. ${(e as Error).message}`); // prettier-ignore
  }
  return leaf(c, (doc) => {
    const v = fieldValue(doc, field, ignoreMissing);
    if ((v === undefined || v === null) && ignoreMissing) return;
    if (v === null || v === undefined) throw illegalArgument(`field [${field}] is null, cannot process it.`); // prettier-ignore
    const text = javaString(v);
    const m = grokMatch(g, text);
    if (!m) throw illegalArgument(`Provided Grok expressions do not match field value: [${text}]`);
    for (const [k, x] of Object.entries(m.fields)) setField(doc, k, x);
    if (traceMatch) setField(doc, '_ingest._grok_match_index', String(m.patternIndex));
  });
};

const dissectP: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const pattern = readString(c, 'pattern');
  const appendSeparator = readString(c, 'append_separator', '');
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  let d;
  try {
    d = compileDissect(pattern, appendSeparator);
  } catch (e) {
    throw configErrorFor(c, 'pattern', (e as Error).message);
  }
  return leaf(c, (doc) => {
    const v = fieldValue(doc, field, ignoreMissing);
    if ((v === undefined || v === null) && ignoreMissing) return;
    if (v === null || v === undefined) throw illegalArgument(`field [${field}] is null, cannot process it.`); // prettier-ignore
    const out = dissect(d, castString(v, field));
    for (const [k, x] of Object.entries(out)) setField(doc, k, x);
  });
};

const kv: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const fieldSplit = readString(c, 'field_split');
  const valueSplit = readString(c, 'value_split');
  const target = readOptionalString(c, 'target_field');
  const include = readOptionalList(c, 'include_keys');
  const exclude = readOptionalList(c, 'exclude_keys');
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  const prefix = readString(c, 'prefix', '');
  const trimKey = readOptionalString(c, 'trim_key');
  const trimValue = readOptionalString(c, 'trim_value');
  const stripBrackets = readBoolean(c, 'strip_brackets', false);
  const fieldRe = new RegExp(fieldSplit, 'u');
  const valueRe = new RegExp(valueSplit, 'u');
  const trimmer = (chars: string | null) => {
    if (chars === null) return (s: string) => s;
    const cls = `[${chars.replace(/[\]\\^-]/g, '\\$&')}]`;
    const re = new RegExp(`^${cls}+|${cls}+$`, 'gu');
    return (s: string) => s.replace(re, '');
  };
  const tk = trimmer(trimKey);
  const tv = trimmer(trimValue);
  const strip = (s: string) => (stripBrackets ? s.replace(/^[(<["']+|[)>\]"']+$/g, '') : s);
  const inc = include ? new Set(include.map(String)) : null;
  const exc = exclude ? new Set(exclude.map(String)) : null;
  return leaf(c, (doc) => {
    const v = fieldValue(doc, field, ignoreMissing);
    if ((v === undefined || v === null) && ignoreMissing) return;
    if (v === null || v === undefined) throw illegalArgument(`field [${field}] is null, cannot extract key-value pairs.`); // prettier-ignore
    for (const pair of javaSplit(castString(v, field), fieldRe)) {
      const m = valueRe.exec(pair);
      if (!m)
        throw illegalArgument(`field [${field}] does not contain value_split [${valueSplit}]`);
      const key = tk(pair.slice(0, m.index));
      const value = strip(tv(pair.slice(m.index + m[0].length)));
      if (inc && !inc.has(key)) continue;
      if (exc && exc.has(key)) continue;
      const path = target === null ? prefix + key : `${target}.${prefix}${key}`;
      setField(doc, path, value, hasField(doc, path));
    }
  });
};

export const PARSING_PROCESSORS: Record<string, ProcessorFactory> = {
  dissect: dissectP,
  grok,
  kv,
};
