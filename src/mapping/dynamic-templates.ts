/**
 * Dynamic templates (ES DynamicTemplate): parsing with 6.8's validation, matching a new field by
 * name/path/JSON type with `simple` wildcards or Java-style full-match regexes, and expanding the
 * template's mapping for a field (`{name}`, `{dynamic_type}` placeholders).
 */
import type { EsError } from '../common/errors.js';
import type { DynamicTemplate } from './types.js';
import { illegalArgument, mapperParsing } from './errors.js';
import { javaToString } from './java-numbers.js';
import { isMap } from './parse-field.js';

/** The JSON kind of a value being mapped dynamically (ES XContentFieldType). */
export type MatchType = 'object' | 'string' | 'long' | 'double' | 'boolean' | 'date' | 'binary';

const MATCH_TYPES: readonly MatchType[] = [
  'object',
  'string',
  'long',
  'double',
  'boolean',
  'date',
  'binary',
];

/** ES XContentFieldType.defaultMappingType. */
export const DEFAULT_MAPPING_TYPE: Readonly<Record<MatchType, string>> = {
  object: 'object',
  string: 'text',
  long: 'long',
  double: 'float',
  boolean: 'boolean',
  date: 'date',
  binary: 'binary',
};

/** ES Regex.simpleMatch: `*` wildcards only. */
export function simpleMatch(pattern: string, str: string): boolean {
  const first = pattern.indexOf('*');
  if (first === -1) return pattern === str;
  if (first === 0) {
    if (pattern.length === 1) return true;
    const next = pattern.indexOf('*', 1);
    if (next === -1) return str.endsWith(pattern.slice(1));
    if (next === 1) return simpleMatch(pattern.slice(1), str);
    const part = pattern.slice(1, next);
    for (let i = str.indexOf(part); i !== -1; i = str.indexOf(part, i + 1)) {
      if (simpleMatch(pattern.slice(next), str.slice(i + part.length))) return true;
    }
    return false;
  }
  return (
    str.length >= first &&
    pattern.slice(0, first) === str.slice(0, first) &&
    simpleMatch(pattern.slice(first), str.slice(first))
  );
}

const regexCache = new Map<string, RegExp>();

/** Java String#matches: the whole string must match. */
function fullRegex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    re = new RegExp(`^(?:${pattern})$`);
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

function matches(t: DynamicTemplate, pattern: string, value: string): boolean {
  return t.matchPattern === 'regex' ? fullRegex(pattern).test(value) : simpleMatch(pattern, value);
}

/** ES DynamicTemplate.parse. */
export function parseDynamicTemplate(name: string, conf: Record<string, unknown>): DynamicTemplate {
  let match: string | undefined;
  let pathMatch: string | undefined;
  let unmatch: string | undefined;
  let pathUnmatch: string | undefined;
  let mmt: string | undefined;
  let pattern = 'simple';
  let mapping: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(conf)) {
    if (k === 'match') match = javaToString(v);
    else if (k === 'path_match') pathMatch = javaToString(v);
    else if (k === 'unmatch') unmatch = javaToString(v);
    else if (k === 'path_unmatch') pathUnmatch = javaToString(v);
    else if (k === 'match_mapping_type') mmt = javaToString(v);
    else if (k === 'match_pattern') pattern = javaToString(v);
    else if (k === 'mapping') {
      if (!isMap(v)) throw classCast(v);
      mapping = v;
    } else throw illegalArgument(`Illegal dynamic template parameter: [${k}]`);
  }
  if (match === undefined && pathMatch === undefined && mmt === undefined) {
    throw mapperParsing(
      `template must have match, path_match or match_mapping_type set ${javaToString(conf)}`,
    );
  }
  if (mapping === undefined) throw mapperParsing('template must have mapping set');
  let matchMappingType: MatchType | undefined;
  if (mmt !== undefined && mmt !== '*') {
    if (!(MATCH_TYPES as readonly string[]).includes(mmt)) {
      throw illegalArgument(
        `No field type matched on [${mmt}], possible values are [${MATCH_TYPES.join(', ')}]`,
      );
    }
    matchMappingType = mmt as MatchType;
  }
  if (pattern !== 'simple' && pattern !== 'regex') {
    throw illegalArgument(`No matching pattern matched on [${pattern}]`);
  }
  if (pattern === 'regex') {
    for (const re of [pathMatch, match, pathUnmatch, unmatch]) {
      if (re === undefined) continue;
      try {
        fullRegex(re);
      } catch (e) {
        throw illegalArgument(
          `Pattern [${re}] of type [regex] is invalid. Cannot create dynamic template [${name}].`,
          illegalArgument((e as Error).message),
        );
      }
    }
  }
  const t: { -readonly [K in keyof DynamicTemplate]: DynamicTemplate[K] } = { name, mapping };
  if (match !== undefined) t.match = match;
  if (unmatch !== undefined) t.unmatch = unmatch;
  if (pathMatch !== undefined) t.pathMatch = pathMatch;
  if (pathUnmatch !== undefined) t.pathUnmatch = pathUnmatch;
  if (matchMappingType !== undefined) t.matchMappingType = matchMappingType;
  if (pattern === 'regex') t.matchPattern = 'regex';
  return t;
}

function classCast(v: unknown): EsError {
  return mapperParsing(
    `Failed to parse template mapping: expected an object but got [${javaToString(v)}]`,
  );
}

/** ES DynamicTemplate.match. */
export function templateMatches(
  t: DynamicTemplate,
  path: string,
  name: string,
  type: MatchType,
): boolean {
  if (t.pathMatch !== undefined && !matches(t, t.pathMatch, path)) return false;
  if (t.match !== undefined && !matches(t, t.match, name)) return false;
  if (t.pathUnmatch !== undefined && matches(t, t.pathUnmatch, path)) return false;
  if (t.unmatch !== undefined && matches(t, t.unmatch, name)) return false;
  if (t.matchMappingType !== undefined && t.matchMappingType !== type) return false;
  return true;
}

export function findTemplate(
  templates: readonly DynamicTemplate[],
  path: string,
  name: string,
  type: MatchType,
): DynamicTemplate | undefined {
  for (const t of templates) if (templateMatches(t, path, name, type)) return t;
  return undefined;
}

const replace = (s: string, name: string, dyn: string) =>
  s.replaceAll('{name}', name).replaceAll('{dynamic_type}', dyn).replaceAll('{dynamicType}', dyn);

/** ES DynamicTemplate.mappingType. */
export function templateMappingType(t: DynamicTemplate, dynamicType: string): string {
  const raw = t.mapping.type;
  const type =
    raw !== undefined && raw !== null
      ? javaToString(raw)
          .replaceAll('{dynamic_type}', dynamicType)
          .replaceAll('{dynamicType}', dynamicType)
      : dynamicType;
  // string → text/keyword split: a template asking for index:not_analyzed means keyword
  if (type !== raw && type === 'text') {
    const index = t.mapping.index;
    if (index === 'not_analyzed' || index === 'no') return 'keyword';
  }
  return type;
}

/** ES DynamicTemplate.mappingForName: placeholders replaced in keys and string values. */
export function templateMappingFor(
  t: DynamicTemplate,
  name: string,
  dynamicType: string,
): Record<string, unknown> {
  return processMap(t.mapping, name, dynamicType);
}

function processValue(v: unknown, name: string, dyn: string): unknown {
  if (typeof v === 'string') return replace(v, name, dyn);
  if (Array.isArray(v)) return v.map((x) => processValue(x, name, dyn));
  if (isMap(v)) return processMap(v, name, dyn);
  return v;
}

function processMap(
  m: Record<string, unknown>,
  name: string,
  dyn: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) out[replace(k, name, dyn)] = processValue(v, name, dyn);
  return out;
}

/** ES DynamicTemplate.toXContent. */
export function templateToJson(t: DynamicTemplate): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (t.match !== undefined) out.match = t.match;
  if (t.pathMatch !== undefined) out.path_match = t.pathMatch;
  if (t.unmatch !== undefined) out.unmatch = t.unmatch;
  if (t.pathUnmatch !== undefined) out.path_unmatch = t.pathUnmatch;
  if (t.matchMappingType !== undefined) out.match_mapping_type = t.matchMappingType;
  else if (t.match === undefined && t.pathMatch === undefined) out.match_mapping_type = '*';
  if (t.matchPattern === 'regex') out.match_pattern = 'regex';
  // ES serializes the mapping through a TreeMap: top-level keys sorted
  const mapping: Record<string, unknown> = {};
  for (const k of Object.keys(t.mapping).sort(javaCompare)) mapping[k] = t.mapping[k];
  out.mapping = mapping;
  return out;
}

/** Java String#compareTo (UTF-16 code unit order), which JS's default sort also uses. */
export const javaCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
