/**
 * Term-level query parsers, ports of ES 6.8 `fromXContent`: term, terms (values or lookup), range,
 * exists, prefix, wildcard, regexp, fuzzy, ids, type. Same token handling, same errors.
 */
import { EsError } from '../../../common/errors.js';
import { dateFormatter, timeZone as jodaTimeZone } from '../../../common/dates/index.js';
import { DEFAULT_MAX_DETERMINIZED_STATES } from '../../../search/automata/regexp.js';
import { REGEXP_FLAGS, resolveRegexpFlags } from '../../../search/automata/regexp-syntax.js';
import {
  illegalArgument,
  illegalState,
  parsingError,
  parsingErrorFrom,
  xContentError,
} from '../errors.js';
import type {
  ExistsNode,
  Fuzziness,
  FuzzyNode,
  IdsNode,
  PrefixNode,
  RangeNode,
  RegexpNode,
  TermNode,
  TermsLookupSpec,
  TermsNode,
  TermValue,
  TypeNode,
  WildcardNode,
} from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';
import { AUTO, checkSingleField, parseFuzziness } from './common.js';

/** RegExp.ALL / Operations.DEFAULT_MAX_DETERMINIZED_STATES. */
export const REGEXP_ALL: number = REGEXP_FLAGS.ALL;
export { DEFAULT_MAX_DETERMINIZED_STATES };

/** maybeConvertToBytesRef(parser.objectBytes()). */
function objectValue(p: XParser): TermValue | null {
  return p.objectValue();
}

function requireField(field: string | null, msg = 'field name is null or empty'): string {
  if (field === null || field.length === 0) throw illegalArgument(msg);
  return field;
}

export function parseTerm(p: XParser): TermNode {
  let queryName: string | null = null;
  let fieldName: string | null = null;
  let value: TermValue | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('term', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (is(current, 'term') || is(current, 'value')) {
          value = objectValue(p);
        } else if (is(current, '_name')) {
          queryName = p.text();
        } else if (is(current, 'boost')) {
          boost = p.floatValue();
        } else {
          throw parsingError(`[term] query does not support [${current}]`, p.location());
        }
      }
    } else if (isValueToken(token)) {
      checkSingleField('term', p.location(), fieldName, p.currentName());
      fieldName = current;
      value = objectValue(p);
    } else if (token === 'START_ARRAY') {
      throw parsingError('[term] query does not support array of values', p.location());
    }
  }
  const field = requireField(fieldName);
  if (value === null) throw illegalArgument('value cannot be null');
  return { type: 'term', field, value, boost, queryName };
}

function parseTermsValues(p: XParser): TermValue[] {
  const values: TermValue[] = [];
  while (p.nextToken() !== 'END_ARRAY') {
    const v = objectValue(p);
    if (v === null) throw parsingError('No value specified for terms query', p.location());
    values.push(v);
    // objectBytes() on a nested structure leaves the cursor inside it, as Jackson does
  }
  return values;
}

/** TermsLookup.parseTermsLookup + its constructor checks. */
function parseTermsLookup(p: XParser): TermsLookupSpec {
  let index: string | null = null;
  let type: string | null = null;
  let id: string | null = null;
  let path: string | null = null;
  let routing: string | null = null;
  let current = '';
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName()!;
    } else if (isValueToken(token) || token === 'VALUE_NULL') {
      switch (current) {
        case 'index':
          index = p.text();
          break;
        case 'type':
          type = p.text();
          break;
        case 'id':
          id = p.text();
          break;
        case 'routing':
          routing = p.textOrNull();
          break;
        case 'path':
          path = p.text();
          break;
        default:
          throw parsingError(
            `[terms] query does not support [${current}] within lookup element`,
            p.location(),
          );
      }
    } else {
      throw parsingError(`[terms] unknown token [${token}] after [${current}]`, p.location());
    }
  }
  if (id === null)
    throw illegalArgument('[terms] query lookup element requires specifying the id.');
  if (type === null)
    throw illegalArgument('[terms] query lookup element requires specifying the type.');
  if (path === null)
    throw illegalArgument('[terms] query lookup element requires specifying the path.');
  if (index === null)
    throw illegalArgument('[terms] query lookup element requires specifying the index.');
  return { index, type, id, path, routing };
}

export function parseTerms(p: XParser): TermsNode {
  let fieldName: string | null = null;
  let values: TermValue[] | null = null;
  let lookup: TermsLookupSpec | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_ARRAY') {
      if (fieldName !== null) {
        throw parsingError('[terms] query does not support multiple fields', p.location());
      }
      fieldName = current;
      values = parseTermsValues(p);
    } else if (token === 'START_OBJECT') {
      if (fieldName !== null) {
        throw parsingError(
          `[terms] query does not support more than one field. Already got: [${fieldName}] but also found [${current}]`,
          p.location(),
        );
      }
      fieldName = current;
      lookup = parseTermsLookup(p);
    } else if (isValueToken(token)) {
      if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, '_name')) queryName = p.text();
      else throw parsingError(`[terms] query does not support [${current}]`, p.location());
    } else {
      throw parsingError(`[terms] unknown token [${token}] after [${current}]`, p.location());
    }
  }
  if (fieldName === null) {
    throw parsingError(
      '[terms] query requires a field name, followed by array of terms or a document lookup specification',
      p.location(),
    );
  }
  if (fieldName.length === 0) throw illegalArgument('field name cannot be null.');
  if (values === null && lookup === null) {
    throw illegalArgument('No value or termsLookup specified for terms query');
  }
  return { type: 'terms', field: fieldName, values, lookup, boost, queryName };
}

export function parseRange(p: XParser): RangeNode {
  let fieldName: string | null = null;
  let from: TermValue | null = null;
  let to: TermValue | null = null;
  let includeLower = true;
  let includeUpper = true;
  let timeZone: string | null = null;
  let boost = 1;
  let queryName: string | null = null;
  let format: string | null = null;
  let relation: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('range', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (is(current, 'from')) {
          from = objectValue(p);
        } else if (is(current, 'to')) {
          to = objectValue(p);
        } else if (is(current, 'include_lower')) {
          includeLower = p.booleanValue();
        } else if (is(current, 'include_upper')) {
          includeUpper = p.booleanValue();
        } else if (is(current, 'boost')) {
          boost = p.floatValue();
        } else if (is(current, 'gt')) {
          from = objectValue(p);
          includeLower = false;
        } else if (is(current, 'gte')) {
          from = objectValue(p);
          includeLower = true;
        } else if (is(current, 'lt')) {
          to = objectValue(p);
          includeUpper = false;
        } else if (is(current, 'lte')) {
          to = objectValue(p);
          includeUpper = true;
        } else if (is(current, 'time_zone')) {
          timeZone = p.text();
        } else if (is(current, 'format')) {
          format = p.text();
        } else if (is(current, 'relation')) {
          relation = p.text();
        } else if (is(current, '_name')) {
          queryName = p.text();
        } else {
          throw parsingError(`[range] query does not support [${current}]`, p.location());
        }
      }
    } else if (isValueToken(token)) {
      throw parsingError(`[range] query does not support [${current}]`, p.location());
    }
  }
  const field = requireField(fieldName);
  // RangeQueryBuilder.timeZone / format: DateTimeZone.forID and DateFormatter.forPattern
  if (timeZone !== null) jodaTimeZone(timeZone);
  if (format !== null) dateFormatter(format);
  let rel: string | null = null;
  if (relation !== null) {
    rel = relation.toLowerCase();
    if (rel !== 'intersects' && rel !== 'contains' && rel !== 'within' && rel !== 'disjoint') {
      throw illegalArgument(`${relation} is not a valid relation`);
    }
    if (rel === 'disjoint') {
      throw illegalArgument(`[range] query does not support relation [${relation}]`);
    }
  }
  return {
    type: 'range',
    field,
    from,
    to,
    includeLower,
    includeUpper,
    timeZone,
    format,
    relation: rel,
    boost,
    queryName,
  };
}

export function parseExists(p: XParser): ExistsNode {
  let fieldPattern: string | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (isValueToken(token)) {
      if (is(current, 'field')) fieldPattern = p.text();
      else if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else throw parsingError(`[exists] query does not support [${current}]`, p.location());
    } else {
      throw parsingError(`[exists] unknown token [${token}] after [${current}]`, p.location());
    }
  }
  if (fieldPattern === null) {
    throw parsingError('[exists] must be provided with a [field]', p.location());
  }
  return { type: 'exists', field: requireField(fieldPattern), boost, queryName };
}

/** Shared shape of prefix / wildcard / regexp / fuzzy: `{f: v}` or `{f: {value: v, ...}}`. */
function parseSimpleField(
  p: XParser,
  name: string,
  inner: (key: string | null) => boolean,
  shortValue: () => void,
  fieldFromName: boolean,
): { field: string | null; queryName: string | null; boost: number } {
  let fieldName: string | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField(name, p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (is(current, '_name')) {
          queryName = p.text();
        } else if (is(current, 'boost')) {
          boost = p.floatValue();
        } else if (!inner(current)) {
          throw parsingError(`[${name}] query does not support [${current}]`, p.location());
        }
      }
    } else {
      checkSingleField(name, p.location(), fieldName, p.currentName());
      fieldName = fieldFromName ? p.currentName() : current;
      shortValue();
    }
  }
  return { field: fieldName, queryName, boost };
}

export function parsePrefix(p: XParser): PrefixNode {
  let value: string | null = null;
  let rewrite: string | null = null;
  const r = parseSimpleField(
    p,
    'prefix',
    (k) => {
      if (is(k, 'value') || is(k, 'prefix')) value = p.textOrNull();
      else if (is(k, 'rewrite')) rewrite = p.textOrNull();
      else return false;
      return true;
    },
    () => (value = p.textOrNull()),
    false,
  );
  const field = requireField(r.field);
  if (value === null) throw illegalArgument('value cannot be null');
  return { type: 'prefix', field, value, rewrite, boost: r.boost, queryName: r.queryName };
}

export function parseWildcard(p: XParser): WildcardNode {
  let value: string | null = null;
  let rewrite: string | null = null;
  const r = parseSimpleField(
    p,
    'wildcard',
    (k) => {
      if (is(k, 'wildcard') || is(k, 'value')) value = p.text();
      else if (is(k, 'rewrite')) rewrite = p.textOrNull();
      else return false;
      return true;
    },
    () => (value = p.text()),
    true,
  );
  const field = requireField(r.field);
  if (value === null) throw illegalArgument('value cannot be null');
  return { type: 'wildcard', field, value, rewrite, boost: r.boost, queryName: r.queryName };
}

export function parseRegexp(p: XParser): RegexpNode {
  let value: string | null = null;
  let rewrite: string | null = null;
  let flags: number = REGEXP_ALL;
  let maxStates = DEFAULT_MAX_DETERMINIZED_STATES;
  const r = parseSimpleField(
    p,
    'regexp',
    (k) => {
      if (is(k, 'value')) value = p.textOrNull();
      else if (is(k, 'rewrite')) rewrite = p.textOrNull();
      else if (is(k, 'flags')) flags = resolveRegexpFlags(p.textOrNull() ?? '');
      else if (is(k, 'max_determinized_states')) maxStates = p.intValue();
      else if (is(k, 'flags_value')) flags = p.intValue();
      else return false;
      return true;
    },
    () => (value = p.textOrNull()),
    false,
  );
  const field = requireField(r.field);
  if (value === null) throw illegalArgument('value cannot be null');
  return {
    type: 'regexp',
    field,
    value,
    flags,
    maxDeterminizedStates: maxStates,
    rewrite,
    boost: r.boost,
    queryName: r.queryName,
  };
}

export function parseFuzzy(p: XParser): FuzzyNode {
  let fieldName: string | null = null;
  let value: TermValue | null = null;
  let fuzziness: Fuzziness = AUTO;
  let prefixLength = 0;
  let maxExpansions = 50;
  let transpositions = false;
  let rewrite: string | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('fuzzy', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (isValueToken(token)) {
          if (is(current, 'term') || is(current, 'value')) value = objectValue(p);
          else if (is(current, 'boost')) boost = p.floatValue();
          else if (is(current, 'fuzziness')) fuzziness = parseFuzziness(p);
          else if (is(current, 'prefix_length')) prefixLength = p.intValue();
          else if (is(current, 'max_expansions')) maxExpansions = p.intValue();
          else if (is(current, 'transpositions')) transpositions = p.booleanValue();
          else if (is(current, 'rewrite')) rewrite = p.textOrNull();
          else if (is(current, '_name')) queryName = p.text();
          else throw parsingError(`[fuzzy] query does not support [${current}]`, p.location());
        } else {
          throw parsingError(
            `[fuzzy] unexpected token [${token}] after [${current}]`,
            p.location(),
          );
        }
      }
    } else {
      checkSingleField('fuzzy', p.location(), fieldName, p.currentName());
      fieldName = p.currentName();
      value = objectValue(p);
    }
  }
  if (fieldName === null || fieldName.length === 0) {
    throw illegalArgument('field name cannot be null or empty');
  }
  if (value === null) throw illegalArgument('query value cannot be null');
  // FuzzyQueryBuilder setters
  if (prefixLength < 0) throw illegalArgument('[fuzzy] requires prefix length to be non-negative.');
  if (maxExpansions <= 0) throw illegalArgument('[fuzzy] requires maxExpansions to be positive.');
  return {
    type: 'fuzzy',
    field: fieldName,
    value,
    fuzziness,
    prefixLength,
    maxExpansions,
    transpositions,
    rewrite,
    boost,
    queryName,
  };
}

/** IdsQueryBuilder: an ObjectParser; its XContentParseExceptions become parsing_exceptions. */
export function parseIds(p: XParser): IdsNode {
  const types: string[] = [];
  const ids: string[] = [];
  let boost = 1;
  let queryName: string | null = null;
  try {
    objectParser(p, 'ids', {
      type: ['STRING_ARRAY', () => types.push(...stringArray(p))],
      values: ['STRING_ARRAY', () => ids.push(...stringArray(p))],
      boost: ['FLOAT', () => (boost = p.floatValue())],
      _name: ['STRING', () => (queryName = p.text())],
    });
  } catch (e) {
    if (e instanceof EsError && isIllegalArgumentFamily(e)) {
      throw parsingErrorFrom(e, p.location());
    }
    throw e;
  }
  return { type: 'ids', types, ids, boost, queryName };
}

/** XContentParseException extends IllegalArgumentException in ES. */
export const isIllegalArgumentFamily = (e: EsError): boolean =>
  e.type === 'illegal_argument_exception' ||
  e.type === 'x_content_parse_exception' ||
  e.type === 'named_object_not_found_exception';

export type ValueType =
  'STRING' | 'FLOAT' | 'STRING_ARRAY' | 'INT' | 'BOOLEAN' | 'OBJECT' | 'OBJECT_OR_STRING' | 'VALUE';

const SUPPORTED: Record<ValueType, readonly string[]> = {
  STRING: ['VALUE_STRING'],
  FLOAT: ['VALUE_NUMBER', 'VALUE_STRING'],
  INT: ['VALUE_NUMBER', 'VALUE_STRING'],
  BOOLEAN: ['VALUE_BOOLEAN', 'VALUE_STRING'],
  STRING_ARRAY: ['START_ARRAY', 'VALUE_STRING'],
  OBJECT: ['START_OBJECT'],
  OBJECT_OR_STRING: ['START_OBJECT', 'VALUE_STRING'],
  VALUE: ['VALUE_BOOLEAN', 'VALUE_NULL', 'VALUE_NUMBER', 'VALUE_STRING'],
};

/**
 * ES ObjectParser.parse for a flat set of declared fields: unknown fields and unsupported token
 * types are x_content_parse_exceptions, a failing field parser is wrapped in
 * "[name] failed to parse field [f]".
 */
export function objectParser(
  p: XParser,
  name: string,
  fields: Record<string, [ValueType, () => void]>,
): void {
  let token = p.currentToken();
  if (token !== 'START_OBJECT') {
    token = p.nextToken();
    if (token !== 'START_OBJECT') {
      throw xContentError(`[${name}] Expected START_OBJECT but was: ${token}`, p.location());
    }
  }
  let current: string | null = null;
  let field: [ValueType, () => void] | undefined;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
      field = Object.hasOwn(fields, current!) ? fields[current!] : undefined;
      if (!field) {
        throw xContentError(`[${name}] unknown field [${current}], parser not found`, p.location());
      }
    } else {
      if (current === null) throw xContentError(`[${name}] no field found`, p.location());
      const [vt, apply] = field!;
      if (!SUPPORTED[vt].includes(token!)) {
        throw xContentError(
          `[${name}] ${current} doesn't support values of type: ${token}`,
          p.location(),
        );
      }
      try {
        apply();
      } catch (e) {
        if (e instanceof EsError) {
          throw xContentError(`[${name}] failed to parse field [${current}]`, p.location(), e);
        }
        throw e;
      }
    }
  }
}

/** AbstractObjectParser.parseArray of strings (a single string is a one-element list). */
export function stringArray(p: XParser): string[] {
  const single = (t: string | null) =>
    isValueToken(t as never) || t === 'VALUE_NULL' || t === 'START_OBJECT';
  if (single(p.currentToken())) return [p.text()];
  const out: string[] = [];
  while (p.nextToken() !== 'END_ARRAY') {
    if (!single(p.currentToken())) {
      throw illegalState(`expected value but got [${p.currentToken()}]`);
    }
    out.push(p.text());
  }
  return out;
}

export function parseType(p: XParser): TypeNode {
  let type: string | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (isValueToken(token)) {
      if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, 'value')) type = p.text();
      else throw parsingError(`[type] filter doesn't support [${current}]`, p.location());
    } else {
      throw parsingError(`[type] filter doesn't support [${current}]`, p.location());
    }
  }
  if (type === null) {
    throw parsingError(
      '[type] filter needs to be provided with a value for the type',
      p.location(),
    );
  }
  return { type: 'type', value: type, boost, queryName };
}
