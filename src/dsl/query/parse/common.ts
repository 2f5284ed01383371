/**
 * Shared pieces of the query parsers: the multiple-fields check, ES `Fuzziness.parse`, enum
 * parsing with Java's `valueOf` failure message, and multi-match types.
 */
import type { EsError } from '../../../common/errors.js';
import { AUTO, parseFuzziness as buildFuzziness } from '../../../search/automata/fuzziness.js';
import { esParseException, illegalArgument, parsingError, type JsonLocation } from '../errors.js';
import { javaParseFloat } from '../java.js';
import type { Fuzziness, MultiMatchType, Operator, ZeroTermsQuery } from '../nodes.js';
import type { XParser } from '../xcontent.js';

/** AbstractQueryBuilder.throwParsingExceptionOnMultipleFields. */
export function checkSingleField(
  queryName: string,
  at: JsonLocation,
  processed: string | null,
  current: string | null,
): void {
  if (processed !== null) {
    throw parsingError(
      `[${queryName}] query doesn't support multiple fields, found [${processed}] and [${current}]`,
      at,
    );
  }
}

/** Java `Enum.valueOf` failure. */
export const noEnumConstant = (className: string, name: string): EsError =>
  illegalArgument(`No enum constant ${className}.${name}`);

/** Java `String.toUpperCase(Locale.ROOT)` is plain upper-casing for our purposes. */
export function enumValue<T extends string>(
  className: string,
  allowed: readonly T[],
  text: string,
): T {
  const upper = text.toUpperCase();
  const hit = allowed.find((a) => a.toUpperCase() === upper);
  if (!hit) throw noEnumConstant(className, upper);
  return hit;
}

/** Operator.fromString. */
export const parseOperator = (text: string): Operator =>
  enumValue('org.elasticsearch.index.query.Operator', ['OR', 'AND'] as const, text);

export function parseZeroTerms(p: XParser): ZeroTermsQuery {
  const v = p.text();
  if (v.toLowerCase() === 'none') return 'none';
  if (v.toLowerCase() === 'all') return 'all';
  throw parsingError(`Unsupported zero_terms_docs value [${v}]`, p.location());
}

export { AUTO };

/** Fuzziness.parse(XContentParser): strings and numbers only. */
export function parseFuzziness(p: XParser): Fuzziness {
  const t = p.currentToken();
  if (t !== 'VALUE_STRING' && t !== 'VALUE_NUMBER') {
    throw illegalArgument(`Can't parse fuzziness on token: [${t}]`);
  }
  return buildFuzziness(p.text());
}

/** Fuzziness.fromEdits. */
export function fuzzinessFromEdits(edits: number): Fuzziness {
  if (edits !== 0 && edits !== 1 && edits !== 2) {
    throw illegalArgument(`Valid edit distances are [0, 1, 2] but was [${edits}]`);
  }
  return { auto: false, value: String(edits) };
}

/** MultiMatchQueryBuilder.Type.parse (`boolean` is a deprecated name of best_fields). */
export function parseMultiMatchType(text: string): MultiMatchType {
  switch (text) {
    case 'best_fields':
    case 'boolean':
      return 'best_fields';
    case 'most_fields':
    case 'cross_fields':
    case 'phrase':
    case 'phrase_prefix':
      return text;
  }
  throw esParseException(`failed to parse [multi_match] query type [${text}]. unknown type.`);
}

/** MultiMatchQueryBuilder.Type.tieBreaker(). */
export const typeTieBreaker = (t: MultiMatchType): number => (t === 'most_fields' ? 1 : 0);

/** QueryParserHelper.parseFieldsAndWeights / MultiMatchQueryBuilder.parseFieldAndBoost. */
export function splitFieldBoost(spec: string): [string, number] {
  const i = spec.indexOf('^');
  if (i < 0) return [spec, 1];
  return [spec.slice(0, i), parseBoostText(spec.slice(i + 1))];
}

const parseBoostText = (s: string): number => javaParseFloat(s);

/** Adds to an insertion-ordered field map with HashMap.put semantics (existing key keeps place). */
export function putField(list: Array<[string, number]>, field: string, boost: number): void {
  const hit = list.find((e) => e[0] === field);
  if (hit) hit[1] = boost;
  else list.push([field, boost]);
}
