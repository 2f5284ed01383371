/**
 * Mapping definitions → JSON exactly as ES 6.8 serializes them (GET _mapping, get field mapping):
 * FieldMapper.doXContentBody and each mapper's additions, in ES key order, parameters equal to the
 * type's defaults omitted unless `include_defaults`; objects and root with their metadata fields.
 */
import { relationsJson } from './join.js';
import type { Def, FieldDef, ObjectDef, RootDef } from './model.js';
import { DEFAULT_DATE_FORMAT, NUMBER_TYPES, RANGE_TYPES, TYPE_DEFAULTS } from './model.js';
import { javaCompare, templateToJson } from './dynamic-templates.js';
import { javaDoubleToString, javaFloatToString } from './java-numbers.js';

type Json = Record<string, unknown>;

/** Java float rendering (boost is a float in ES). */
const asFloat = (v: number): number => Number(javaFloatToString(Math.fround(v)));

const sortedEntries = <T>(m: ReadonlyMap<string, T>): [string, T][] =>
  [...m].sort((a, b) => javaCompare(a[0], b[0]));

/** The body of one field (`{type: …, …}`), without the name. */
export function fieldDefToJson(f: FieldDef, incl = false): Json {
  const c = f.core;
  const t = c.type;
  if (t === 'alias') return { type: 'alias', path: c.aliasPath };
  if (c.keywordFamily !== undefined) return keywordFamilyToJson(f, incl);
  if (t === 'geo_shape' || t === 'shape') return geoShapeToJson(f, incl);
  if (t === 'completion') return completionToJson(f, incl);
  if (t === 'percolator') return { type: 'percolator' };
  if (t === 'join')
    return {
      type: 'join',
      eager_global_ordinals: c.eagerGlobalOrdinals ?? true,
      relations: relationsJson(c.relations ?? []),
    };
  const d = TYPE_DEFAULTS[t];
  const out: Json = { type: t };
  if (incl || c.boost !== 1) out.boost = asFloat(c.boost);
  if (incl || c.index !== d.index) out.index = c.index;
  if (incl || c.store) out.store = c.store;
  if (incl || c.docValues !== d.docValues) out.doc_values = c.docValues;
  const tv = c.termVector ?? 'no';
  if (incl || tv !== 'no') out.term_vector = tv;
  if (incl || c.norms !== d.norms) out.norms = c.norms;
  if (c.index && (incl || c.indexOptions !== d.indexOptions)) out.index_options = c.indexOptions;
  if (incl || c.eagerGlobalOrdinals === true)
    out.eager_global_ordinals = c.eagerGlobalOrdinals ?? false;
  if (c.similarity !== undefined) out.similarity = c.similarity;
  else if (incl) out.similarity = 'BM25';
  if (f.fields.size > 0) {
    const fields: Json = {};
    for (const [name, mf] of sortedEntries(f.fields)) fields[name] = fieldDefToJson(mf, incl);
    out.fields = fields;
  }
  if (c.copyTo.length > 0) out.copy_to = [...c.copyTo];
  typeSpecific(f, out, incl);
  return out;
}

/** ES 7.10 ParametrizedFieldMapper rendering: type, the type's parameters, fields, copy_to. */
function keywordFamilyToJson(f: FieldDef, incl: boolean): Json {
  const c = f.core;
  const out: Json = { type: c.keywordFamily };
  if (c.keywordFamily === 'constant_keyword') {
    if (c.constantValue !== undefined) out.value = c.constantValue;
  } else {
    if (incl || c.ignoreAbove !== undefined) out.ignore_above = c.ignoreAbove ?? 2147483647;
    if (incl || c.nullValue !== undefined) out.null_value = c.nullValue ?? null;
  }
  if (c.meta !== undefined) out.meta = { ...c.meta };
  else if (incl) out.meta = {};
  if (f.fields.size > 0) {
    const fields: Json = {};
    for (const [name, mf] of sortedEntries(f.fields)) fields[name] = fieldDefToJson(mf, incl);
    out.fields = fields;
  }
  if (c.copyTo.length > 0) out.copy_to = [...c.copyTo];
  return out;
}

const explicitOr = (
  f: FieldDef,
  p: 'coerce' | 'ignore_malformed' | 'ignore_z_value',
  incl: boolean,
) => incl || (f.core.explicit?.has(p) ?? false);

function typeSpecific(f: FieldDef, out: Json, incl: boolean): void {
  const c = f.core;
  const t = c.type;
  if (t === 'text') {
    analyzersToJson(f, out, incl);
    if (incl) out.include_in_all = true;
    if (incl || c.positionIncrementGap !== undefined)
      out.position_increment_gap = c.positionIncrementGap ?? -1;
    if (incl || c.fielddata === true) out.fielddata = c.fielddata ?? false;
    const ff = c.fielddataFrequencyFilter;
    if (
      c.fielddata === true &&
      ff &&
      (incl || ff.min !== 0 || ff.max !== 2147483647 || ff.minSegmentSize !== 0)
    ) {
      const j: Json = {};
      if (incl || ff.min !== 0) j.min = ff.min;
      if (incl || ff.max !== 2147483647) j.max = ff.max;
      if (incl || ff.minSegmentSize !== 0) j.min_segment_size = ff.minSegmentSize;
      out.fielddata_frequency_filter = j;
    } else if (c.fielddata === true && incl) {
      out.fielddata_frequency_filter = { min: 0, max: 2147483647, min_segment_size: 0 };
    }
    if (c.indexPrefixes)
      out.index_prefixes = {
        min_chars: c.indexPrefixes.minChars,
        max_chars: c.indexPrefixes.maxChars,
      };
    if (c.indexPhrases === true) out.index_phrases = true;
  } else if (t === 'keyword') {
    if (incl || c.nullValue !== undefined) out.null_value = c.nullValue ?? null;
    if (incl) out.include_in_all = true;
    if (incl || c.ignoreAbove !== undefined) out.ignore_above = c.ignoreAbove ?? 2147483647;
    if (c.normalizer !== undefined) out.normalizer = c.normalizer;
    else if (incl) out.normalizer = null;
    if (incl || c.splitQueriesOnWhitespace === true)
      out.split_queries_on_whitespace = c.splitQueriesOnWhitespace ?? false;
  } else if (NUMBER_TYPES.has(t) || t === 'scaled_float') {
    if (t === 'scaled_float') out.scaling_factor = c.scalingFactor;
    if (explicitOr(f, 'ignore_malformed', incl)) out.ignore_malformed = c.ignoreMalformed;
    if (explicitOr(f, 'coerce', incl)) out.coerce = c.coerce;
    if (incl || c.nullValue !== undefined) out.null_value = c.nullValue ?? null;
    if (incl) out.include_in_all = false;
  } else if (t === 'date') {
    if (explicitOr(f, 'ignore_malformed', incl)) out.ignore_malformed = c.ignoreMalformed;
    if (incl || c.nullValue !== undefined) out.null_value = c.nullValue ?? null;
    if (incl) out.include_in_all = false;
    if (incl || c.format !== DEFAULT_DATE_FORMAT) out.format = c.format;
    if (incl || c.locale !== undefined) out.locale = c.locale ?? '';
  } else if (t === 'boolean') {
    if (incl || c.nullValue !== undefined) out.null_value = c.nullValue ?? null;
  } else if (t === 'ip') {
    if (incl || c.nullValue !== undefined) out.null_value = c.nullValue ?? null;
    if (explicitOr(f, 'ignore_malformed', incl)) out.ignore_malformed = c.ignoreMalformed;
    if (incl) out.include_in_all = false;
  } else if (t === 'geo_point') {
    if (explicitOr(f, 'ignore_malformed', incl)) out.ignore_malformed = c.ignoreMalformed;
    if (explicitOr(f, 'ignore_z_value', incl)) out.ignore_z_value = c.ignoreZValue;
    if (incl || c.nullValue !== undefined) out.null_value = c.nullValue ?? null;
  } else if (t === 'token_count') {
    out.analyzer = c.analyzer;
    if (incl || c.enablePositionIncrements === false)
      out.enable_position_increments = c.enablePositionIncrements;
  } else if (RANGE_TYPES.has(t)) {
    if (t === 'date_range') {
      if (incl || c.format !== DEFAULT_DATE_FORMAT) out.format = c.format;
      if (incl || c.locale !== undefined) out.locale = c.locale ?? '';
    }
    if (explicitOr(f, 'coerce', incl)) out.coerce = c.coerce;
    if (incl) out.include_in_all = false;
  }
}

/** ES FieldMapper.doXContentAnalyzers. */
function analyzersToJson(f: FieldDef, out: Json, incl: boolean): void {
  const a = f.core.analyzer ?? 'default';
  const s = f.core.searchAnalyzer ?? a;
  const q = f.core.searchQuoteAnalyzer ?? s;
  const diffSearch = s !== a;
  const diffQuote = s !== q;
  if (incl || a !== 'default' || diffSearch || diffQuote) {
    out.analyzer = a;
    if (incl || diffSearch || diffQuote) {
      out.search_analyzer = s;
      if (incl || diffQuote) out.search_quote_analyzer = q;
    }
  }
}

/** ES CompletionFieldMapper.toXContent (no common field parameters). */
function completionToJson(f: FieldDef, incl: boolean): Json {
  const c = f.core;
  const p = c.completion!;
  const out: Json = { type: 'completion', analyzer: c.analyzer };
  if (c.searchAnalyzer !== c.analyzer) out.search_analyzer = c.searchAnalyzer;
  out.preserve_separators = p.preserveSeparators;
  out.preserve_position_increments = p.preservePositionIncrements;
  out.max_input_length = p.maxInputLength;
  if (p.contexts) out.contexts = p.contexts;
  if (f.fields.size > 0) {
    const fields: Json = {};
    for (const [name, mf] of sortedEntries(f.fields)) fields[name] = fieldDefToJson(mf, incl);
    out.fields = fields;
  }
  return out;
}

function geoShapeToJson(f: FieldDef, incl: boolean): Json {
  const c = f.core;
  const g = c.geoShape ?? { orientation: 'right' as const };
  const out: Json = { type: c.type };
  if (incl || g.orientation !== 'right') out.orientation = g.orientation;
  if (explicitOr(f, 'coerce', incl)) out.coerce = c.coerce;
  if (explicitOr(f, 'ignore_malformed', incl)) out.ignore_malformed = c.ignoreMalformed;
  if (explicitOr(f, 'ignore_z_value', incl)) out.ignore_z_value = c.ignoreZValue;
  const l = g.legacy;
  if (l) {
    if (incl || l.tree !== 'quadtree') out.tree = l.tree;
    if (l.treeLevels !== undefined && l.treeLevels !== 0) out.tree_levels = l.treeLevels;
    else if (incl && l.precisionMeters === undefined)
      out.tree_levels = l.tree === 'geohash' ? 9 : 21;
    if (l.precisionMeters !== undefined)
      out.precision = `${javaDoubleToString(l.precisionMeters)}m`;
    else if (incl && (l.treeLevels ?? 0) === 0) out.precision = '50.0m';
    out.strategy = l.strategy;
    if (incl || l.distanceErrorPct !== undefined)
      out.distance_error_pct = l.distanceErrorPct ?? 0.025;
    const defPoints = l.strategy === 'term';
    if (incl || (l.pointsOnly ?? defPoints) !== defPoints)
      out.points_only = l.pointsOnly ?? defPoints;
  }
  return out;
}

export function objectDefToJson(o: ObjectDef): Json {
  const out: Json = {};
  objectHeader(o, out, false);
  propertiesToJson(o, out);
  return out;
}

function objectHeader(o: ObjectDef, out: Json, isRoot: boolean): void {
  if (o.type === 'nested') {
    out.type = 'nested';
    if (o.includeInParent) out.include_in_parent = true;
    if (o.includeInRoot) out.include_in_root = true;
  } else if (!isRoot && o.properties.size === 0) {
    out.type = 'object';
  }
  if (o.dynamic !== undefined) out.dynamic = String(o.dynamic);
  if (!o.enabled) out.enabled = false;
  if (o.includeInAll !== undefined) out.include_in_all = o.includeInAll;
}

function propertiesToJson(o: ObjectDef, out: Json): void {
  if (o.properties.size === 0) return;
  const props: Json = {};
  for (const [name, d] of sortedEntries(o.properties)) props[name] = defToJson(d);
  out.properties = props;
}

export const defToJson = (d: Def): Json =>
  d.kind === 'field' ? fieldDefToJson(d) : objectDefToJson(d);

/** ES Mapping.toXContent: the value under the type name in GET _mapping. */
export function rootDefToJson(r: RootDef): Json {
  const out: Json = {};
  objectHeader(r, out, true);
  if (r.meta !== undefined) out._meta = r.meta;
  if (r.all && !r.all.enabled) out._all = { enabled: false };
  if (r.fieldNames && !r.fieldNames.enabled) out._field_names = { enabled: false };
  if (r.routing?.required) out._routing = { required: true };
  const s = r.source;
  if (s && (!s.enabled || s.includes !== undefined || s.excludes !== undefined)) {
    const j: Json = {};
    if (!s.enabled) j.enabled = false;
    if (s.includes !== undefined) j.includes = [...s.includes];
    if (s.excludes !== undefined) j.excludes = [...s.excludes];
    out._source = j;
  }
  if (r.dynamicDateFormats.explicit) out.dynamic_date_formats = [...r.dynamicDateFormats.value];
  if (r.dynamicTemplates.explicit) {
    out.dynamic_templates = r.dynamicTemplates.value.map((t) => ({ [t.name]: templateToJson(t) }));
  }
  if (r.dateDetection.explicit) out.date_detection = r.dateDetection.value;
  if (r.numericDetection.explicit) out.numeric_detection = r.numericDetection.value;
  propertiesToJson(r, out);
  return out;
}

/** Metadata fields for get-field-mapping (`_source`, `_routing`, …). */
export function metadataFieldToJson(r: RootDef, name: string, incl: boolean): Json | null {
  switch (name) {
    case '_source': {
      const s = r.source ?? { enabled: true };
      const j: Json = {};
      if (incl || !s.enabled) j.enabled = s.enabled;
      if (s.includes !== undefined || incl) j.includes = [...(s.includes ?? [])];
      if (s.excludes !== undefined || incl) j.excludes = [...(s.excludes ?? [])];
      return j;
    }
    case '_routing':
      return incl || r.routing?.required ? { required: r.routing?.required ?? false } : {};
    case '_field_names': {
      const enabled = r.fieldNames?.enabled ?? true;
      return incl || !enabled ? { enabled } : {};
    }
    case '_all':
      return incl || r.all ? { enabled: r.all?.enabled ?? false } : {};
    case '_id':
    case '_type':
    case '_index':
    case '_uid':
    case '_version':
    case '_seq_no':
    case '_ignored':
    case '_parent':
      return {};
    default:
      return null;
  }
}
