/**
 * Context mappings of completion fields (ES ContextMappings, CategoryContextMapping,
 * GeoContextMapping): how a mapping's `contexts` list is read and how a document's context values
 * become the strings a suggestion is filed under — category values as given, geo points as
 * geohashes cut to the mapping's precision. Contexts may also come from another field (`path`).
 */
import { EsError } from '../common/errors.js';
import { geoContextLevelForMeters } from './geohash-cells.js';
import { encodeGeohash, parseGeoPointValue } from './geo.js';
import { illegalArgument, parseException } from './errors.js';
import { javaToString } from './java-numbers.js';
import { parseDistanceMeters } from './parse-geo-shape.js';
import type { CompletionContextDef, CompletionValue, GeoPointValue, ParsedValue } from './types.js';

/** GeoContextMapping.DEFAULT_PRECISION. */
const DEFAULT_GEO_PRECISION = 6;

/** ContextMappings.load over an already validated list of `{name, type, …}` maps. */
export function parseContextDefs(list: readonly unknown[]): CompletionContextDef[] {
  return list.map((raw) => {
    const c = raw as Record<string, unknown>;
    const name = javaToString(c.name);
    const path = c.path === undefined || c.path === null ? undefined : javaToString(c.path);
    if (javaToString(c.type) === 'category')
      return path === undefined ? { kind: 'category', name } : { kind: 'category', name, path };
    const precision = geoPrecision(c.precision);
    return path === undefined
      ? { kind: 'geo', name, precision }
      : { kind: 'geo', name, precision, path };
  });
}

/**
 * GeoContextMapping.load's precision: an int is a geohash length; a long or a double is a
 * distance in meters (Java picks the double overload for them), a string a distance with unit.
 */
function geoPrecision(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_GEO_PRECISION;
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= -2147483648 && v <= 2147483647) return v;
    return geoContextLevelForMeters(v);
  }
  return geoContextLevelForMeters(parseDistanceMeters(javaToString(v)));
}

/** ContextMappings.get: the mapping of a context name, or ES's error naming the known ones. */
export function contextDefNamed(
  defs: readonly CompletionContextDef[],
  name: string,
): CompletionContextDef {
  const d = defs.find((x) => x.name === name);
  if (!d) {
    const keys = defs.map((x) => x.name).sort();
    throw illegalArgument(`Unknown context name [${name}], must be one of [${keys.join(', ')}]`);
  }
  return d;
}

const isScalar = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** XContentParser.Token names as ES prints them in these messages. */
function tokenOf(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  if (typeof v === 'object') return 'START_OBJECT';
  return 'VALUE_STRING';
}

/** ContextMapping.parseContext(parseContext, parser): a document's own `contexts.<name>` value. */
export function parseDocContext(def: CompletionContextDef, v: unknown): string[] {
  if (def.kind === 'category') {
    if (isScalar(v)) return [javaToString(v)];
    if (Array.isArray(v)) {
      return v.map((x) => {
        if (!isScalar(x))
          throw parseException(
            `context array must have string, number or boolean values, but was [${tokenOf(x)}]`,
          );
        return javaToString(x);
      });
    }
    throw parseException(
      `contexts must be a string, number or boolean or a list of string, number or boolean, but was [${tokenOf(v)}]`,
    );
  }
  if (Array.isArray(v)) {
    if (typeof v[0] === 'number') {
      // a single point as [lon, lat]
      if (typeof v[1] !== 'number') throw parseException('latitude must be a numeric value');
      if (v.length !== 2) throw parseException('only two values [lon, lat] expected');
      return [geoContext({ lat: v[1], lon: v[0] }, def.precision)];
    }
    return v.map((p) => geoContext(parseGeoPointValue(p, true), def.precision));
  }
  if (typeof v === 'string') return [v.slice(0, def.precision)];
  return [geoContext(parseGeoPointValue(v, true), def.precision)];
}

/** A point's geohash cut to `precision` characters (GeoHashUtils.stringEncode). */
export function geoContext(p: GeoPointValue, precision: number): string {
  return encodeGeohash(p.lat, p.lon).slice(0, precision);
}

/**
 * ContextMapping.parseContext(document): the contexts a `path` field's indexed values give.
 * Category contexts read keyword and text values; geo contexts read geo_point values.
 */
export function pathContexts(
  def: CompletionContextDef,
  values: readonly { readonly type: string; readonly value: unknown }[],
): string[] {
  const out: string[] = [];
  for (const { type, value } of values) {
    if (def.kind === 'category') {
      if (type !== 'keyword' && type !== 'text')
        throw new EsError(
          'illegal_argument_exception',
          `Failed to parse context field [${def.path}], only keyword and text fields are accepted`,
          400,
        );
      out.push(String(value));
    } else if (type === 'geo_point') {
      out.push(geoContext(value as GeoPointValue, def.precision));
    }
  }
  return out;
}

/**
 * Adds to every completion value of a document the contexts its mappings' `path` fields give
 * (ES reads them from the Lucene document when indexing the suggestion). Returns the values
 * unchanged when no completion field reads a path.
 */
export function withPathContexts(values: readonly ParsedValue[]): ParsedValue[] | null {
  let changed: ParsedValue[] | null = null;
  for (let i = 0; i < values.length; i++) {
    const { field, value } = values[i]!;
    const defs = field.type === 'completion' ? field.completion?.contextDefs : undefined;
    if (!defs || !defs.some((d) => d.path !== undefined)) continue;
    const c = value as CompletionValue;
    const contexts: Record<string, string[]> = { ...c.contexts };
    for (const def of defs) {
      if (def.path === undefined) continue;
      const found = values
        .filter((v) => v.field.path === def.path)
        .map((v) => ({ type: v.field.type, value: v.value }));
      const extra = pathContexts(def, found);
      if (extra.length > 0) contexts[def.name] = [...(contexts[def.name] ?? []), ...extra];
    }
    changed ??= [...values];
    changed[i] = { field, value: { ...c, contexts } };
  }
  return changed;
}
