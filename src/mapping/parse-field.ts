/**
 * Field mapping parameters → FieldDef, one type parser per field type, in the order and with the
 * messages of ES 6.8 (TypeParsers.parseField, parseTextField, each *FieldMapper.TypeParser and its
 * Builder.build checks). Parameters a parser understands are removed from `node`; the caller
 * reports what is left as unsupported.
 */
import type { FieldType, GeoShapeParams, TermVector } from './types.js';
import type { MappingContext } from './context.js';
import type { FieldCore, FieldDef, IndexOptions } from './model.js';
import { DEFAULT_DATE_FORMAT, NUMBER_TYPES, RANGE_TYPES, TYPE_DEFAULTS } from './model.js';
import { illegalArgument, mapperParsing, parseException } from './errors.js';
import {
  fieldBooleanValue,
  nodeBooleanValue,
  nodeDoubleValue,
  nodeFloatValue,
  nodeIntegerValue,
  parseStrictBoolean,
} from './node-values.js';
import { javaToString } from './java-numbers.js';
import { parseNumberObject, renderNumber } from './number-values.js';
import { canonicalIp } from './ip.js';
import { checkGeoPoint, parseGeoPointValue } from './geo.js';
import { builtinValidateDateFormat } from './dates.js';
import { checkNoRemaining, javaClassName } from './parse-util.js';

export type Node = Map<string, unknown>;

export interface ParserCtx {
  readonly ctx: MappingContext;
  readonly withinMultiField: boolean;
  /** Dynamic-template mappings: ES does not check them for unsupported parameters. */
  readonly lenient: boolean;
  /** Parses a nested field mapping (multi-fields); supplied by parse-mapping.ts. */
  readonly parseMultiField: (name: string, node: Node, pc: ParserCtx) => FieldDef;
}

type IndexOpt = IndexOptions | 'none';
const OPT_RANK: Record<IndexOpt, number> = { none: 0, docs: 1, freqs: 2, positions: 3, offsets: 4 };

/** Mutable builder state (ES FieldMapper.Builder + the type's builder). */
interface Draft {
  type: FieldType;
  name: string;
  opts: IndexOpt;
  defaultOpts: IndexOpt;
  store: boolean;
  docValues?: boolean;
  boost: number;
  omitNorms?: boolean;
  tv: { vectors: boolean; positions: boolean; offsets: boolean; payloads: boolean };
  similarity?: string;
  eagerGlobalOrdinals: boolean;
  copyTo: string[];
  multi: Map<string, FieldDef>;
  core: Partial<Record<keyof FieldCore, unknown>>;
  explicit: Set<'coerce' | 'ignore_malformed' | 'ignore_z_value'>;
}

function newDraft(type: FieldType, name: string): Draft {
  const d = TYPE_DEFAULTS[type];
  const opts: IndexOpt = d.index ? d.indexOptions : 'none';
  return {
    type,
    name,
    opts,
    defaultOpts: opts,
    store: false,
    boost: 1,
    tv: { vectors: false, positions: false, offsets: false, payloads: false },
    eagerGlobalOrdinals: false,
    copyTo: [],
    multi: new Map(),
    core: {},
    explicit: new Set(),
  };
}

const BUILTIN_SIMILARITIES = new Set(['BM25', 'classic', 'boolean']);

/** ES TypeParsers.nodeIndexOptionValue. */
function indexOptionValue(v: unknown): IndexOptions {
  const s = javaToString(v).toLowerCase();
  if (s === 'offsets' || s === 'positions' || s === 'freqs' || s === 'docs') return s;
  throw parseException(`failed to parse index option [${javaToString(v)}]`);
}

function setIndex(d: Draft, index: boolean): void {
  if (!index) {
    d.opts = 'none';
  } else if (d.opts === 'none') {
    if (d.defaultOpts === 'none') {
      throw illegalArgument(
        `mapper [${d.name}] has different [index] values from other types of the same index`,
      );
    }
    d.opts = d.defaultOpts;
  }
}

function setIndexOptions(d: Draft, o: IndexOptions): void {
  if (d.type === 'keyword' && OPT_RANK[o] > OPT_RANK.freqs) {
    throw illegalArgument(
      `The [keyword] field does not support positions, got [index_options]=${o}`,
    );
  }
  d.opts = o;
}

/** ES TypeParsers.parseField: the parameters every field type shares. */
function parseCommon(d: Draft, node: Node, pc: ParserCtx): void {
  const name = d.name;
  for (const [prop, v] of [...node]) {
    if (prop !== 'null_value' && v === null) {
      throw mapperParsing(`[${prop}] must not have a [null] value`);
    }
    switch (prop) {
      case 'store':
        d.store = fieldBooleanValue(name, 'store', v);
        break;
      case 'index':
        setIndex(d, fieldBooleanValue(name, 'index', v));
        break;
      case 'doc_values': {
        const dv = fieldBooleanValue(name, 'doc_values', v);
        if (dv && d.type === 'text')
          throw illegalArgument('[text] fields do not support doc values');
        d.docValues = dv;
        break;
      }
      case 'boost':
        d.boost = nodeFloatValue(v);
        break;
      case 'index_options':
        // numbers: deprecated and ignored (NumberFieldMapper.Builder.allowsIndexOptions)
        if (!NUMBER_TYPES.has(d.type) && d.type !== 'scaled_float')
          setIndexOptions(d, indexOptionValue(v));
        break;
      case 'include_in_all':
        if (pc.withinMultiField) {
          throw mapperParsing(
            `include_in_all in multi fields is not allowed. Found the include_in_all in field [${name}] which is within a multi field.`,
          );
        }
        throw mapperParsing(
          '[include_in_all] is not allowed for indices created on or after version 6.0.0 as [_all] is deprecated. As a replacement, you can use an [copy_to] on mapping fields to create your own catch all field.',
        );
      case 'similarity': {
        const s = javaToString(v);
        const exists = BUILTIN_SIMILARITIES.has(s) || (pc.ctx.similarityExists?.(s) ?? false);
        if (!exists) throw mapperParsing(`Unknown Similarity type [${s}] for field [${name}]`);
        d.similarity = s;
        break;
      }
      case 'fields':
        parseMultiFields(d, v, pc);
        break;
      case 'copy_to':
        if (pc.withinMultiField) {
          throw mapperParsing(
            `copy_to in multi fields is not allowed. Found the copy_to in field [${name}] which is within a multi field.`,
          );
        }
        d.copyTo = Array.isArray(v) ? v.map((x) => javaToString(x)) : [javaToString(v)];
        break;
      default:
        continue;
    }
    node.delete(prop);
  }
}

/** ES TypeParsers.parseMultiField. */
function parseMultiFields(d: Draft, v: unknown, pc: ParserCtx): void {
  let entries: [string, unknown][];
  if (Array.isArray(v) && v.length === 0) entries = [];
  else if (isMap(v)) entries = Object.entries(v);
  else {
    throw mapperParsing(
      `expected map for property [fields] on field [${javaToString(v)}] or [fields] but got a ${javaClassName(v)}`,
    );
  }
  const mpc: ParserCtx = { ...pc, withinMultiField: true };
  for (const [mfName, mfNode] of entries) {
    if (mfName.includes('.')) {
      throw mapperParsing(
        `Field name [${mfName}] which is a multi field of [${d.name}] cannot contain '.'`,
      );
    }
    if (!isMap(mfNode)) {
      throw mapperParsing(`illegal field [${mfName}], only fields can be specified inside fields`);
    }
    const node: Node = new Map(Object.entries(mfNode));
    const typeNode = node.get('type');
    if (typeNode === undefined || typeNode === null) {
      throw mapperParsing(`no type specified for property [${mfName}]`);
    }
    const type = javaToString(typeNode);
    if (type === 'object' || type === 'nested' || type === 'alias') {
      throw mapperParsing(`Type [${type}] cannot be used in multi field`);
    }
    if (!isFieldType(type)) {
      throw mapperParsing(`no handler for type [${type}] declared on field [${mfName}]`);
    }
    const def = pc.parseMultiField(mfName, node, mpc);
    node.delete('type');
    if (!pc.lenient) checkNoRemaining('fields', node);
    d.multi.set(mfName, def);
  }
}

export const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function isFieldType(t: string): t is FieldType {
  return t in TYPE_DEFAULTS;
}

/** ES TypeParsers.parseTermVector. */
function parseTermVector(d: Draft, v: string): void {
  const tv = d.tv;
  const on = (k: 'positions' | 'offsets' | 'payloads') => {
    tv[k] = true;
    tv.vectors = true;
  };
  switch (v) {
    case 'no':
      tv.vectors = false;
      break;
    case 'yes':
      tv.vectors = true;
      break;
    case 'with_offsets':
      on('offsets');
      break;
    case 'with_positions':
      on('positions');
      break;
    case 'with_positions_offsets':
      on('positions');
      on('offsets');
      break;
    case 'with_positions_payloads':
      on('positions');
      on('payloads');
      break;
    case 'with_positions_offsets_payloads':
      on('positions');
      on('offsets');
      on('payloads');
      break;
    default:
      throw mapperParsing(`wrong value for termVector [${v}] for field [${d.name}]`);
  }
}

/** ES FieldMapper.termVectorOptionsToString. */
function termVectorString(tv: Draft['tv']): TermVector {
  if (!tv.vectors) return 'no';
  if (!tv.offsets && !tv.positions) return 'yes';
  if (tv.offsets && !tv.positions) return 'with_offsets';
  let s = 'with';
  if (tv.positions) s += '_positions';
  if (tv.offsets) s += '_offsets';
  if (tv.payloads) s += '_payloads';
  return s as TermVector;
}

/** ES TypeParsers.parseNorms; returns true when `prop` was a norms parameter. */
function parseNorms(d: Draft, prop: string, v: unknown): boolean {
  if (prop === 'norms') {
    if (isMap(v)) {
      const m: Node = new Map(Object.entries(v));
      for (const [k, x] of [...m]) {
        if (k === 'enabled') {
          d.omitNorms = !fieldBooleanValue(d.name, 'enabled', x);
          m.delete(k);
        } else if (k === 'loading') m.delete(k);
      }
      checkNoRemaining('norms', m);
    } else {
      d.omitNorms = !fieldBooleanValue(d.name, 'norms', v);
    }
    return true;
  }
  if (prop === 'omit_norms') {
    d.omitNorms = fieldBooleanValue(d.name, 'norms', v);
    return true;
  }
  return false;
}

function analyzerName(pc: ParserCtx, v: unknown, field: string, capital = false): string {
  const n = javaToString(v);
  if (n !== 'default' && !pc.ctx.analyzerExists(n)) {
    throw mapperParsing(
      `${capital ? 'Analyzer' : 'analyzer'} [${n}] not found for field [${field}]`,
    );
  }
  return n;
}

/** ES TypeParsers.parseAnalyzersAndTermVectors (text only). */
function parseAnalyzers(d: Draft, node: Node, pc: ParserCtx): void {
  let index: string | undefined;
  let search: string | undefined;
  let quote: string | undefined;
  for (const [prop, v] of [...node]) {
    switch (prop) {
      case 'term_vector':
        parseTermVector(d, javaToString(v));
        break;
      case 'store_term_vectors':
        d.tv.vectors = fieldBooleanValue(d.name, 'store_term_vectors', v);
        break;
      case 'store_term_vector_offsets':
      case 'store_term_vector_positions':
      case 'store_term_vector_payloads': {
        const on = fieldBooleanValue(d.name, prop, v);
        const k = prop.slice('store_term_vector_'.length) as 'offsets' | 'positions' | 'payloads';
        if (on) d.tv.vectors = true;
        d.tv[k] = on;
        break;
      }
      case 'analyzer':
        index = analyzerName(pc, v, d.name);
        break;
      case 'search_analyzer':
        search = analyzerName(pc, v, d.name);
        break;
      case 'search_quote_analyzer':
        quote = analyzerName(pc, v, d.name);
        break;
      default:
        continue;
    }
    node.delete(prop);
  }
  if (index === undefined && search !== undefined) {
    throw mapperParsing(`analyzer on field [${d.name}] must be set when search_analyzer is set`);
  }
  if (search === undefined && quote !== undefined) {
    throw mapperParsing(
      `analyzer and search_analyzer on field [${d.name}] must be set when search_quote_analyzer is set`,
    );
  }
  search ??= index;
  quote ??= search;
  d.core.analyzer = index ?? 'default';
  d.core.searchAnalyzer = search ?? 'default';
  d.core.searchQuoteAnalyzer = quote ?? 'default';
}

type TypeParser = (d: Draft, node: Node, pc: ParserCtx) => void;

function parseText(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  parseAnalyzers(d, node, pc);
  for (const [prop, v] of [...node]) if (parseNorms(d, prop, v)) node.delete(prop);
  for (const [prop, v] of [...node]) {
    switch (prop) {
      case 'position_increment_gap': {
        const gap = nodeIntegerValue(v);
        if (gap < 0) throw mapperParsing(`[positions_increment_gap] must be positive, got ${gap}`);
        d.core.positionIncrementGap = gap;
        break;
      }
      case 'fielddata':
        d.core.fielddata = nodeBooleanValue(v, 'fielddata');
        break;
      case 'eager_global_ordinals':
        d.eagerGlobalOrdinals = nodeBooleanValue(v, 'eager_global_ordinals');
        break;
      case 'fielddata_frequency_filter': {
        const m: Node = new Map(Object.entries(isMap(v) ? v : {}));
        const take = (k: string) => {
          const x = m.get(k);
          m.delete(k);
          return x;
        };
        const min = take('min');
        const max = take('max');
        const seg = take('min_segment_size');
        d.core.fielddataFrequencyFilter = {
          min: min === undefined || min === null ? 0 : nodeDoubleValue(min),
          max: max === undefined || max === null ? 2147483647 : nodeDoubleValue(max),
          minSegmentSize: seg === undefined || seg === null ? 0 : nodeIntegerValue(seg),
        };
        checkNoRemaining(prop, m);
        break;
      }
      case 'index_prefixes': {
        const m: Node = new Map(Object.entries(isMap(v) ? v : {}));
        const minRaw = m.get('min_chars');
        const maxRaw = m.get('max_chars');
        m.delete('min_chars');
        m.delete('max_chars');
        const minChars = minRaw === undefined || minRaw === null ? 2 : nodeIntegerValue(minRaw);
        const maxChars = maxRaw === undefined || maxRaw === null ? 5 : nodeIntegerValue(maxRaw);
        if (minChars > maxChars) {
          throw illegalArgument(
            `min_chars [${minChars}] must be less than max_chars [${maxChars}]`,
          );
        }
        if (minChars < 1)
          throw illegalArgument(`min_chars [${minChars}] must be greater than zero`);
        if (maxChars >= 20) throw illegalArgument(`max_chars [${maxChars}] must be less than 20`);
        d.core.indexPrefixes = { minChars, maxChars };
        checkNoRemaining(prop, m);
        break;
      }
      case 'index_phrases':
        d.core.indexPhrases = nodeBooleanValue(v, 'index_phrases');
        break;
      default:
        continue;
    }
    node.delete(prop);
  }
}

/** Build-time checks of TextFieldMapper.Builder.build. */
function buildText(d: Draft): void {
  if (d.core.positionIncrementGap !== undefined && OPT_RANK[d.opts] < OPT_RANK.positions) {
    throw illegalArgument(
      `Cannot set position_increment_gap on field [${d.name}] without positions enabled`,
    );
  }
  if (d.core.indexPrefixes !== undefined && d.opts === 'none') {
    throw illegalArgument(`Cannot set index_prefixes on unindexed field [${d.name}]`);
  }
  if (d.core.indexPhrases === true) {
    if (d.opts === 'none')
      throw illegalArgument(`Cannot set index_phrases on unindexed field [${d.name}]`);
    if (OPT_RANK[d.opts] < OPT_RANK.positions) {
      throw illegalArgument(
        `Cannot set index_phrases on field [${d.name}] if positions are not enabled`,
      );
    }
  }
}

function nullValueNotNull(v: unknown): void {
  if (v === null) throw mapperParsing('Property [null_value] cannot be null.');
}

function parseKeyword(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  let normalizer: string | undefined;
  for (const [prop, v] of [...node]) {
    switch (prop) {
      case 'null_value':
        nullValueNotNull(v);
        d.core.nullValue = javaToString(v);
        break;
      case 'ignore_above': {
        const n = nodeIntegerValue(v);
        if (n < 0) throw illegalArgument(`[ignore_above] must be positive, got ${n}`);
        d.core.ignoreAbove = n;
        break;
      }
      case 'norms':
        parseNorms(d, prop, v);
        break;
      case 'eager_global_ordinals':
        d.eagerGlobalOrdinals = nodeBooleanValue(v, 'eager_global_ordinals');
        break;
      case 'normalizer':
        if (v !== null) normalizer = javaToString(v);
        break;
      case 'split_queries_on_whitespace':
        d.core.splitQueriesOnWhitespace = nodeBooleanValue(v, 'split_queries_on_whitespace');
        break;
      default:
        continue;
    }
    node.delete(prop);
  }
  if (normalizer !== undefined) {
    if (!pc.ctx.normalizerExists(normalizer)) {
      throw mapperParsing(`normalizer [${normalizer}] not found for field [${d.name}]`);
    }
    d.core.normalizer = normalizer;
  }
}

function explicitBool(
  d: Draft,
  key: 'coerce' | 'ignore_malformed' | 'ignore_z_value',
  v: unknown,
): boolean {
  d.explicit.add(key);
  return fieldBooleanValue(d.name, key, v);
}

function parseNumber(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  for (const [prop, v] of [...node]) {
    switch (prop) {
      case 'null_value':
        nullValueNotNull(v);
        // scaled_float's null_value is a plain double (ScaledFloatFieldMapper.parse(Object))
        d.core.nullValue =
          d.type === 'scaled_float'
            ? scaledFloatObject(v)
            : renderNumber(d.type, parseNumberObject(d.type, v, false));
        break;
      case 'ignore_malformed':
        d.core.ignoreMalformed = explicitBool(d, 'ignore_malformed', v);
        break;
      case 'coerce':
        d.core.coerce = explicitBool(d, 'coerce', v);
        break;
      case 'scaling_factor':
        if (d.type !== 'scaled_float') continue;
        d.core.scalingFactor = scaledFloatObject(v);
        break;
      default:
        continue;
    }
    node.delete(prop);
  }
  if (d.type === 'scaled_float' && d.core.scalingFactor === undefined) {
    throw illegalArgument(`Field [${d.name}] misses required parameter [scaling_factor]`);
  }
}

/** ScaledFloatFieldMapper.parse(Object): objectToDouble. */
function scaledFloatObject(v: unknown): number {
  return typeof v === 'number' ? v : nodeDoubleValue(v);
}

function parseDateParams(d: Draft, node: Node, pc: ParserCtx, range: boolean): void {
  for (const [prop, v] of [...node]) {
    switch (prop) {
      case 'null_value':
        if (range) {
          throw mapperParsing(
            `Property [null_value] is not supported for [${d.type}] field types.`,
          );
        }
        nullValueNotNull(v);
        d.core.nullValue = javaToString(v);
        break;
      case 'ignore_malformed':
        if (range) continue;
        d.core.ignoreMalformed = explicitBool(d, 'ignore_malformed', v);
        break;
      case 'coerce':
        if (!range) continue;
        d.core.coerce = explicitBool(d, 'coerce', v);
        break;
      case 'locale':
        d.core.locale = parseLocale(javaToString(v));
        break;
      case 'format': {
        if (typeof v !== 'string') {
          throw illegalArgument(`Invalid format: [${javaToString(v)}]: expected string value`);
        }
        validateDateFormat(pc, v);
        d.core.format = v;
        break;
      }
      default:
        continue;
    }
    node.delete(prop);
  }
}

export function validateDateFormat(pc: { ctx: MappingContext }, format: string): void {
  (pc.ctx.validateDateFormat ?? builtinValidateDateFormat)(format);
}

/** ES LocaleUtils.parse, rendered as Java's Locale#toString. */
export function parseLocale(s: string): string {
  const sep =
    s.indexOf('_') >= 0 && (s.indexOf('-') < 0 || s.indexOf('_') < s.indexOf('-')) ? '_' : '-';
  const parts = s.split(sep);
  if (parts.length > 3) {
    throw illegalArgument(
      `Locales can have at most 3 parts but got ${parts.length}: [${parts.join(', ')}]`,
    );
  }
  if (parts.length === 1 && parts[0]!.toUpperCase() === 'ROOT') return '';
  const lang = parts[0]!.toLowerCase();
  const country = (parts[1] ?? '').toUpperCase();
  if (lang !== '' && !/^[a-z]{2,3}$/.test(lang))
    throw illegalArgument(`Unknown language: ${parts[0]}`);
  if (country !== '' && !/^([A-Z]{2}|\d{3})$/.test(country)) {
    throw illegalArgument(`Unknown country: ${parts[1]}`);
  }
  let out = lang;
  if (country !== '' || parts.length === 3) out += '_' + country;
  if (parts.length === 3 && parts[2] !== '') out += '_' + parts[2];
  return out;
}

function parseDate(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  parseDateParams(d, node, pc, false);
}

function parseBoolean(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  const v = node.get('null_value');
  if (node.has('null_value')) {
    nullValueNotNull(v);
    d.core.nullValue = fieldBooleanValue(d.name, 'null_value', v);
    node.delete('null_value');
  }
}

function parseIp(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  for (const [prop, v] of [...node]) {
    if (prop === 'null_value') {
      nullValueNotNull(v);
      d.core.nullValue = canonicalIp(javaToString(v));
    } else if (prop === 'ignore_malformed') {
      d.core.ignoreMalformed = explicitBool(d, 'ignore_malformed', v);
    } else continue;
    node.delete(prop);
  }
}

function parseGeoPoint(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  let nullValue: unknown;
  for (const [prop, v] of [...node]) {
    if (prop === 'ignore_malformed') {
      d.core.ignoreMalformed = explicitBool(d, 'ignore_malformed', v);
    } else if (prop === 'ignore_z_value') {
      d.core.ignoreZValue = explicitBool(d, 'ignore_z_value', v);
    } else if (prop === 'null_value') {
      nullValueNotNull(v);
      nullValue = v;
    } else continue;
    node.delete(prop);
  }
  if (nullValue !== undefined) {
    const izv = (d.core.ignoreZValue as boolean | undefined) ?? true;
    const im = (d.core.ignoreMalformed as boolean | undefined) ?? false;
    const p = parseGeoPointValue(nullValue, izv);
    if (!im) {
      if (p.lat > 90 || p.lat < -90) throw illegalArgument(`illegal latitude value [${p.lat}]`);
      if (p.lon > 180 || p.lon < -180) throw illegalArgument(`illegal longitude value [${p.lon}]`);
      d.core.nullValue = p;
    } else {
      d.core.nullValue = checkGeoPoint(p, true, d.name);
    }
  }
}

function parseBinary(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
}

function parseTokenCount(d: Draft, node: Node, pc: ParserCtx): void {
  for (const [prop, v] of [...node]) {
    if (prop === 'null_value') {
      d.core.nullValue = nodeIntegerValue(v);
    } else if (prop === 'analyzer') {
      d.core.analyzer = analyzerName(pc, v, d.name, true);
    } else if (prop === 'enable_position_increments') {
      d.core.enablePositionIncrements = parseStrictBoolean(javaToString(v));
    } else continue;
    node.delete(prop);
  }
  parseCommon(d, node, pc);
  if (d.core.analyzer === undefined) {
    throw mapperParsing(`Analyzer must be set for field [${d.name}] but wasn't.`);
  }
}

function parseRange(d: Draft, node: Node, pc: ParserCtx): void {
  parseCommon(d, node, pc);
  parseDateParams(d, node, pc, true);
  if (d.type !== 'date_range' && d.core.format !== undefined) {
    const t = d.type.replace('_range', '').toUpperCase();
    throw illegalArgument(
      `field [${d.name}] of type [${t}] should not define a dateTimeFormatter unless it is a DATE type`,
    );
  }
}

const GEO_SHAPE_LEGACY = new Set([
  'strategy',
  'tree',
  'tree_levels',
  'precision',
  'distance_error_pct',
  'points_only',
]);

function parseGeoShape(d: Draft, node: Node): void {
  let orientation: 'right' | 'left' = 'right';
  const legacy: Record<string, unknown> = {};
  let hasLegacy = false;
  for (const [prop, v] of [...node]) {
    if (GEO_SHAPE_LEGACY.has(prop)) {
      hasLegacy = true;
      legacy[prop] = v;
    } else if (prop === 'orientation') {
      orientation = parseOrientation(javaToString(v));
    } else if (prop === 'ignore_malformed') {
      d.explicit.add('ignore_malformed');
      d.core.ignoreMalformed = nodeBooleanValue(v, `${d.name}.ignore_malformed`);
    } else if (prop === 'coerce') {
      d.explicit.add('coerce');
      d.core.coerce = nodeBooleanValue(v, `${d.name}.coerce`);
    } else if (prop === 'ignore_z_value') {
      d.explicit.add('ignore_z_value');
      d.core.ignoreZValue = nodeBooleanValue(v, `${d.name}.ignore_z_value`);
    } else continue;
    node.delete(prop);
  }
  const params: GeoShapeParams = { orientation };
  if (hasLegacy)
    (params as { legacy?: GeoShapeParams['legacy'] }).legacy = parseLegacyShape(d, legacy);
  d.core.geoShape = params;
}

/** ES ShapeBuilder.Orientation.fromString. */
function parseOrientation(s: string): 'right' | 'left' {
  switch (s.toLowerCase()) {
    case 'right':
    case 'counterclockwise':
    case 'ccw':
      return 'right';
    case 'left':
    case 'clockwise':
    case 'cw':
      return 'left';
    default:
      throw illegalArgument(`Unknown orientation [${s}]`);
  }
}

function parseLegacyShape(
  d: Draft,
  p: Record<string, unknown>,
): NonNullable<GeoShapeParams['legacy']> {
  const strategy = p.strategy === undefined ? 'recursive' : javaToString(p.strategy);
  if (strategy !== 'recursive' && strategy !== 'term') {
    throw illegalArgument(`Unknown strategy [${strategy}]`);
  }
  const tree = p.tree === undefined ? 'quadtree' : javaToString(p.tree);
  if (tree !== 'geohash' && tree !== 'quadtree' && tree !== 'legacyquadtree') {
    throw illegalArgument(`Unknown prefix tree type [${tree}]`);
  }
  const out: {
    -readonly [K in keyof NonNullable<GeoShapeParams['legacy']>]: NonNullable<
      GeoShapeParams['legacy']
    >[K];
  } = { tree, strategy };
  if (p.tree_levels !== undefined) out.treeLevels = nodeIntegerValue(javaToString(p.tree_levels));
  if (p.precision !== undefined)
    out.precisionMeters = parseDistanceMeters(javaToString(p.precision));
  if (p.distance_error_pct !== undefined)
    out.distanceErrorPct = nodeDoubleValue(javaToString(p.distance_error_pct));
  if (p.points_only !== undefined) {
    const po = nodeBooleanValue(p.points_only, `${d.name}.points_only`);
    if (strategy === 'term' && !po)
      throw parseException('points_only cannot be set to false for term strategy');
    out.pointsOnly = po;
  } else if (strategy === 'term') out.pointsOnly = true;
  return out;
}

const DISTANCE_UNITS: [string[], number][] = [
  [['in', 'inch'], 0.0254],
  [['yd', 'yards'], 0.9144],
  [['ft', 'feet'], 0.3048],
  [['km', 'kilometers'], 1000],
  [['NM', 'nmi', 'nauticalmiles'], 1852],
  [['mm', 'millimeters'], 0.001],
  [['cm', 'centimeters'], 0.01],
  [['mi', 'miles'], 1609.344],
  [['m', 'meters'], 1],
];

/** ES DistanceUnit.Distance.parseDistance → meters (default unit meters). */
function parseDistanceMeters(s: string): number {
  for (const [names, factor] of DISTANCE_UNITS) {
    for (const n of names) {
      if (s.endsWith(n)) return nodeDoubleValue(s.slice(0, -n.length)) * factor;
    }
  }
  return nodeDoubleValue(s);
}

function parseAlias(d: Draft, node: Node): void {
  const path = node.get('path');
  node.delete('path');
  if (path === undefined || path === null) {
    throw mapperParsing(`The [path] property must be specified for field [${d.name}].`);
  }
  d.core.aliasPath = javaToString(path);
}

const PARSERS: Record<FieldType, TypeParser> = {
  text: parseText,
  keyword: parseKeyword,
  long: parseNumber,
  integer: parseNumber,
  short: parseNumber,
  byte: parseNumber,
  double: parseNumber,
  float: parseNumber,
  half_float: parseNumber,
  scaled_float: parseNumber,
  date: parseDate,
  boolean: parseBoolean,
  ip: parseIp,
  binary: parseBinary,
  geo_point: parseGeoPoint,
  geo_shape: (d, node) => parseGeoShape(d, node),
  token_count: parseTokenCount,
  alias: (d, node) => parseAlias(d, node),
  integer_range: parseRange,
  long_range: parseRange,
  float_range: parseRange,
  double_range: parseRange,
  date_range: parseRange,
  ip_range: parseRange,
};

/**
 * Parses one field mapping (`type` already resolved). `node` keeps the parameters the type does
 * not understand (the caller reports them).
 */
export function parseFieldDef(name: string, type: FieldType, node: Node, pc: ParserCtx): FieldDef {
  const d = newDraft(type, name);
  PARSERS[type](d, node, pc);
  if (type === 'text') buildText(d);
  return finishDraft(d, pc.ctx);
}

/** Resolves defaults into the immutable definition (ES Builder.build/setupFieldType). */
function finishDraft(d: Draft, ctx: MappingContext): FieldDef {
  const t = TYPE_DEFAULTS[d.type];
  const c = d.core;
  const core: Record<string, unknown> = {
    type: d.type,
    index: d.opts !== 'none',
    docValues: d.docValues ?? t.docValues,
    store: d.store,
    indexOptions: d.opts === 'none' ? t.indexOptions : d.opts,
    norms: d.omitNorms === undefined ? t.norms : !d.omitNorms,
    boost: d.boost,
    copyTo: d.copyTo,
  };
  const tv = termVectorString(d.tv);
  if (tv !== 'no') core.termVector = tv;
  if (d.similarity !== undefined) core.similarity = d.similarity;
  if (d.eagerGlobalOrdinals) core.eagerGlobalOrdinals = true;
  for (const [k, v] of Object.entries(c)) if (v !== undefined) core[k] = v;
  // defaults ES resolves from index settings or type defaults
  if (NUMBER_TYPES.has(d.type) || d.type === 'scaled_float' || RANGE_TYPES.has(d.type)) {
    core.coerce ??= ctx.coerceDefault ?? true;
  }
  if (
    NUMBER_TYPES.has(d.type) ||
    d.type === 'scaled_float' ||
    d.type === 'date' ||
    d.type === 'ip' ||
    d.type === 'geo_point'
  ) {
    core.ignoreMalformed ??= ctx.ignoreMalformedDefault ?? false;
  }
  if (d.type === 'geo_point') core.ignoreZValue ??= true;
  if (d.type === 'geo_shape') {
    core.coerce ??= false;
    core.ignoreMalformed ??= false;
    core.ignoreZValue ??= true;
  }
  if (d.type === 'date' || d.type === 'date_range') core.format ??= DEFAULT_DATE_FORMAT;
  if (d.type === 'token_count') core.enablePositionIncrements ??= true;
  if (d.explicit.size > 0) core.explicit = new Set(d.explicit);
  return { kind: 'field', name: d.name, core: core as unknown as FieldCore, fields: d.multi };
}
