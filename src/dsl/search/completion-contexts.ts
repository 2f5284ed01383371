/**
 * Query contexts of the completion suggester (ES CompletionSuggestionBuilder.parseContextBytes,
 * CategoryQueryContext, GeoQueryContext, ContextMappings.toContextQuery): the request's
 * `contexts` object read against the field's context mappings into typed contexts to match —
 * exactly or as a prefix — each with a boost, and how an indexed suggestion matches them.
 */
import { EsError, illegalArgument, parseException } from '../../common/errors.js';
import { contextDefNamed, geoContext } from '../../mapping/completion-contexts.js';
import { parseGeoPointValue, decodeGeohash } from '../../mapping/geo.js';
import { geohashLevelsForPrecision, geohashNeighbors } from '../../mapping/geohash-cells.js';
import { parseDistanceMeters } from '../../mapping/parse-geo-shape.js';
import type { CompletionContextDef } from '../../mapping/types.js';
import type { TypedContext } from '../../search/index/completion-terms.js';

/** One context to match (ES ContextMapping.InternalQueryContext with its type id). */
export interface QueryContext {
  readonly typeId: number;
  readonly value: string;
  readonly boost: number;
  readonly prefix: boolean;
}

/** The deprecation ES logs when a context-enabled field is queried without a context. */
export const NO_CONTEXT_QUERY_WARNING =
  'The ability to query with no context on a context enabled completion field is deprecated ' +
  'and will be removed in the next major release.';

const isScalar = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

const scalarText = (v: unknown) => (typeof v === 'string' ? v : String(v));

/**
 * Reads the request's `contexts` against a field's context mappings; an empty list means the
 * query matches every suggestion (ES warns about it).
 */
export function queryContexts(
  defs: readonly CompletionContextDef[],
  raw: Readonly<Record<string, unknown>>,
): QueryContext[] {
  const out: QueryContext[] = [];
  const byName = new Map<string, unknown>();
  for (const [name, v] of Object.entries(raw)) {
    contextDefNamed(defs, name); // unknown names fail
    byName.set(name, v);
  }
  // ContextMappings.toContextQuery walks the mappings in type-id order
  defs.forEach((def, typeId) => {
    if (!byName.has(def.name)) return;
    const v = byName.get(def.name);
    const list = Array.isArray(v) ? v : [v];
    for (const item of list) {
      if (def.kind === 'category') out.push({ typeId, ...categoryContext(item) });
      else for (const c of geoQueryContexts(def.precision, item)) out.push({ typeId, ...c });
    }
  });
  return out;
}

type Ctx = Omit<QueryContext, 'typeId'>;

function positiveBoost(v: unknown): number {
  const b = intValue(v, 'boost');
  if (b <= 0) throw illegalArgument('boost must be greater than 0');
  return b;
}

function intValue(v: unknown, field: string): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || Number.isNaN(n))
    throw new EsError(
      'x_content_parse_exception',
      `[${field}] failed to parse field [${field}]`,
      400,
    );
  return Math.trunc(n);
}

/** CategoryQueryContext.fromXContent. */
function categoryContext(v: unknown): Ctx {
  if (isScalar(v)) return { value: scalarText(v), boost: 1, prefix: false };
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new EsError(
      'x_content_parse_exception',
      'category context must be an object, string, number or boolean',
      400,
    );
  let value: string | undefined;
  let boost = 1;
  let prefix = false;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === 'context' && isScalar(x)) value = scalarText(x);
    else if (k === 'boost') boost = positiveBoost(x);
    else if (k === 'prefix' && (typeof x === 'boolean' || x === 'true' || x === 'false'))
      prefix = x === true || x === 'true';
    else
      throw new EsError(
        'x_content_parse_exception',
        'category context must be a string, number or boolean',
        400,
      );
  }
  if (value === undefined) throw illegalArgument('category must not be null');
  return { value, boost, prefix };
}

/** GeoUtils.parsePrecision: a geohash length, or a distance giving one. */
function parsePrecision(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  const s = String(v);
  if (/^[+-]?\d+$/.test(s.trim())) return Number(s.trim());
  const level = geohashLevelsForPrecision(parseDistanceMeters(s));
  if (level < 1 || level > 12) throw illegalArgument(`precision too high [${s}]`);
  return level;
}

function checkLevel(n: number, what: string): number {
  if (n < 1 || n > 12) throw illegalArgument(`${what} must be between 1 and 12`);
  return n;
}

/** GeoQueryContext.fromXContent then GeoContextMapping.toInternalQueryContexts. */
function geoQueryContexts(mappingPrecision: number, v: unknown): Ctx[] {
  let point: { lat: number; lon: number } | undefined;
  let boost = 1;
  let precision = 12;
  let neighbours: number[] = [];
  if (typeof v === 'string') point = decodeGeohash(v);
  else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    let lat = NaN;
    let lon = NaN;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      switch (k) {
        case 'context':
          point = parseGeoPointValue(x, true);
          break;
        case 'boost':
          boost = positiveBoost(x);
          break;
        case 'precision':
          precision = checkLevel(parsePrecision(x), 'precision');
          break;
        case 'neighbours':
          neighbours = (Array.isArray(x) ? x : [x]).map((n) =>
            checkLevel(parsePrecision(n), 'neighbour value'),
          );
          break;
        case 'lat':
          lat = Number(x);
          break;
        case 'lon':
          lon = Number(x);
          break;
        default:
          throw new EsError(
            'x_content_parse_exception',
            `[geo] unknown field [${k}], parser not found`,
            400,
          );
      }
    }
    if (point === undefined && !Number.isNaN(lat) && !Number.isNaN(lon)) point = { lat, lon };
  } else throw parseException('geo context must be an object or string');
  if (point === undefined) throw illegalArgument('geoPoint must not be null');

  const minPrecision = Math.min(mappingPrecision, precision);
  const geohash = geoContext(point, minPrecision);
  const locations = new Set<string>([geohash]);
  if (neighbours.length === 0 && geohash.length === mappingPrecision) {
    for (const n of geohashNeighbors(geohash)) locations.add(n);
  } else {
    for (const level of neighbours) {
      if (level >= geohash.length) continue;
      const cut = geohash.slice(0, level);
      locations.add(cut);
      for (const n of geohashNeighbors(cut)) locations.add(n);
    }
  }
  // a cell coarser than the indexed one matches every indexed cell inside it
  return [...locations].map((value) => ({
    value,
    boost,
    prefix: value.length < mappingPrecision,
  }));
}

/**
 * How a suggestion filed under `indexed` contexts matches the query contexts: the best boost of
 * the contexts that match, and which indexed contexts matched; null when none does. A query
 * without contexts matches every suggestion with boost 0 (no boost).
 */
export function matchContexts(
  query: readonly QueryContext[],
  indexed: readonly TypedContext[],
): { boost: number; matched: TypedContext[] } | null {
  if (query.length === 0) return { boost: 0, matched: [...indexed] };
  let boost = -1;
  const matched: TypedContext[] = [];
  for (const ic of indexed) {
    let hit = false;
    for (const q of query) {
      if (q.typeId !== ic[0]) continue;
      if (q.prefix ? ic[1].startsWith(q.value) : ic[1] === q.value) {
        hit = true;
        if (q.boost > boost) boost = q.boost;
      }
    }
    if (hit) matched.push(ic);
  }
  return matched.length === 0 ? null : { boost, matched };
}

/** Lucene CompletionWeight.score: the suggestion's weight times the context boost. */
export function contextScore(weight: number, boost: number): number {
  if (boost === 0) return weight;
  if (weight === 0) return boost;
  return weight * boost;
}
