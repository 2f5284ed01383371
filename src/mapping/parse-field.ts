/**
 * Field mapping parameters → FieldDef, one type parser per field type, in the order and with the
 * messages of ES 6.8 (TypeParsers.parseField, parseTextField, each *FieldMapper.TypeParser and its
 * Builder.build checks). Parameters a parser understands are removed from `node`; the caller
 * reports what is left as unsupported.
 */
import type { FieldType } from './types.js';
import type { FieldDef } from './model.js';
import { illegalArgument, mapperParsing } from './errors.js';
import {
  fieldBooleanValue,
  nodeBooleanValue,
  nodeDoubleValue,
  nodeIntegerValue,
  parseStrictBoolean,
} from './node-values.js';
import { javaToString } from './java-numbers.js';
import { parseNumberObject, renderNumber } from './number-values.js';
import { canonicalIp } from './ip.js';
import { checkGeoPoint, parseGeoPointValue } from './geo.js';
import { builtinValidateDateFormat } from './dates.js';
import type { MappingContext } from './context.js';
import { checkNoRemaining } from './parse-util.js';
import {
  OPT_RANK,
  explicitBool,
  finishDraft,
  isMap,
  newDraft,
  nullValueNotNull,
} from './field-draft.js';
import type { Draft, Node, ParserCtx } from './field-draft.js';
import { analyzerName, parseAnalyzers, parseCommon, parseNorms } from './parse-field-common.js';
import { parseGeoShape } from './parse-geo-shape.js';
import { parseCompletion } from './parse-completion.js';
import { parseJoinParams } from './join.js';

export { isFieldType, isMap } from './field-draft.js';
export type { Node, ParserCtx } from './field-draft.js';

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
  geo_shape: (d, node) => parseGeoShape(d, node, true),
  shape: (d, node) => parseGeoShape(d, node, false),
  token_count: parseTokenCount,
  alias: (d, node) => parseAlias(d, node),
  integer_range: parseRange,
  long_range: parseRange,
  float_range: parseRange,
  double_range: parseRange,
  date_range: parseRange,
  ip_range: parseRange,
  completion: parseCompletion,
  join: (d, node) => parseJoinParams(d, node),
  percolator: () => {},
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
