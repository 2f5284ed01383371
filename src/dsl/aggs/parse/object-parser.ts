/**
 * A declarative field parser with ES ObjectParser's behaviour and wording: per-field accepted
 * token types, numbers accepted as strings, "[x] unknown field [f], parser not found",
 * "[x] f doesn't support values of type: START_ARRAY", and "[x] failed to parse field [f]"
 * (x_content_parse_exception) wrapping the value's own error. Positions are not known here (the
 * request is already parsed JSON), so reasons carry no "[line:col]" prefix.
 */
import { EsError, parsingException, xContentParse } from '../../../common/errors.js';

import { tokenOf, type Token } from '../../../common/xcontent-token.js';

export { tokenOf, type Token };

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Java Long.parseLong / Integer.parseInt on XContent text (numbers pass through, truncated). */
export function toLong(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  const s = String(v);
  if (!/^[+-]?\d+$/.test(s.trim())) {
    // XContent longValue on text: tries Double.parseDouble and truncates when it is integral text
    const d = Number(s);
    if (s.trim() !== '' && !Number.isNaN(d)) return Math.trunc(d);
    throw new EsError('number_format_exception', `For input string: "${s}"`, 400);
  }
  return Number(s);
}

export function toDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  const s = String(v).trim();
  const d = Number(s);
  if (s === '' || (Number.isNaN(d) && s !== 'NaN')) {
    throw new EsError('number_format_exception', `For input string: "${String(v)}"`, 400);
  }
  return d;
}

export function toBoolean(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new EsError(
    'illegal_argument_exception',
    `Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`,
    400,
  );
}

export type Kind =
  | 'string'
  | 'string_or_null'
  | 'int'
  | 'long'
  | 'double'
  | 'double_or_null'
  | 'boolean'
  | 'object'
  | 'object_or_null'
  | 'object_or_string'
  | 'object_array'
  | 'object_array_or_string'
  | 'string_array'
  | 'double_array'
  | 'value'
  | 'value_array'
  /** ValueType.LONG tokens (number or string) handed over unconverted. */
  | 'number_or_string'
  | 'any';

const ACCEPTS: Record<Kind, Token[]> = {
  string: ['VALUE_STRING'],
  string_or_null: ['VALUE_STRING', 'VALUE_NULL'],
  int: ['VALUE_NUMBER', 'VALUE_STRING'],
  long: ['VALUE_NUMBER', 'VALUE_STRING'],
  double: ['VALUE_NUMBER', 'VALUE_STRING'],
  double_or_null: ['VALUE_NUMBER', 'VALUE_STRING', 'VALUE_NULL'],
  boolean: ['VALUE_BOOLEAN', 'VALUE_STRING'],
  object: ['START_OBJECT'],
  object_or_null: ['START_OBJECT', 'VALUE_NULL'],
  object_or_string: ['START_OBJECT', 'VALUE_STRING'],
  object_array: ['START_OBJECT', 'START_ARRAY'],
  object_array_or_string: ['START_OBJECT', 'START_ARRAY', 'VALUE_STRING'],
  string_array: ['START_ARRAY', 'VALUE_STRING'],
  double_array: ['START_ARRAY', 'VALUE_NUMBER', 'VALUE_STRING'],
  value: ['VALUE_BOOLEAN', 'VALUE_NULL', 'VALUE_NUMBER', 'VALUE_STRING'],
  value_array: ['VALUE_BOOLEAN', 'VALUE_NULL', 'VALUE_NUMBER', 'VALUE_STRING', 'START_ARRAY'],
  number_or_string: ['VALUE_NUMBER', 'VALUE_STRING'],
  any: [
    'VALUE_BOOLEAN',
    'VALUE_NULL',
    'VALUE_NUMBER',
    'VALUE_STRING',
    'START_ARRAY',
    'START_OBJECT',
  ],
};

export interface FieldDecl {
  /** Preferred name first, then deprecated/alternative names (ES ParseField). */
  names: readonly string[];
  kind: Kind;
  /** Receives the converted value (numbers for numeric kinds, booleans, strings, raw otherwise). */
  set(value: unknown, field: string): void;
}

function convert(kind: Kind, v: unknown): unknown {
  switch (kind) {
    case 'int':
    case 'long':
      return toLong(v);
    case 'double':
      return toDouble(v);
    case 'double_or_null':
      return v === null ? null : toDouble(v);
    case 'boolean':
      return toBoolean(v);
    case 'string_array':
      return Array.isArray(v) ? v.map((x) => String(x)) : [String(v)];
    case 'double_array':
      return Array.isArray(v) ? v.map((x) => toDouble(x)) : [toDouble(v)];
    default:
      return v;
  }
}

/** Parses `json` as the object of aggregation/section `parserName` with the declared fields. */
export function parseObject(parserName: string, json: unknown, decls: readonly FieldDecl[]): void {
  if (!isObj(json)) {
    throw xContentParse(`[${parserName}] Expected START_OBJECT but was: ${tokenOf(json)}`);
  }
  for (const [field, value] of Object.entries(json)) {
    const decl = decls.find((d) => d.names.includes(field));
    if (!decl) throw xContentParse(`[${parserName}] unknown field [${field}], parser not found`);
    const tok = tokenOf(value);
    if (!ACCEPTS[decl.kind].includes(tok)) {
      throw xContentParse(`[${parserName}] ${field} doesn't support values of type: ${tok}`);
    }
    try {
      decl.set(convert(decl.kind, value), field);
    } catch (e) {
      // ObjectParser.parseValue wraps whatever the field's parser throws
      const cause = e instanceof EsError ? e : new EsError('exception', String(e), 500);
      throw new EsError(
        'x_content_parse_exception',
        `[${parserName}] failed to parse field [${field}]`,
        400,
        {
          causedBy: cause,
        },
      );
    }
  }
}

/** A ParsingException for a token an aggregation's hand-written parser does not expect. */
export function unexpectedToken(tok: Token, field: string, agg: string): EsError {
  return parsingException(`Unexpected token ${tok} [${field}] in [${agg}].`);
}

/** "Unknown key for a VALUE_STRING in [x]: [y]." as hand-written ES parsers word it. */
export function unknownKey(tok: Token, agg: string, key: string): EsError {
  return parsingException(`Unknown key for a ${tok} in [${agg}]: [${key}].`);
}
