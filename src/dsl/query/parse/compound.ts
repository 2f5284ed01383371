/**
 * Compound and special query parsers, ports of ES 6.8 `fromXContent`: match_all, match_none,
 * bool, constant_score, dis_max, boosting, nested, wrapper (base64 JSON), script.
 */
import { EsError } from '../../../common/errors.js';
import { illegalArgument, parsingError, parsingErrorFrom } from '../errors.js';
import type {
  BoolNode,
  BoostingNode,
  ConstantScoreNode,
  DisMaxNode,
  MatchAllNode,
  MatchNoneNode,
  NestedNode,
  QueryNode,
  ScriptQueryNode,
  ScriptSpec,
  WrapperNode,
} from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';
import { parseInnerQuery } from './inner.js';
import { isIllegalArgumentFamily, objectParser } from './term-level.js';

export function parseMatchAll(p: XParser): MatchAllNode {
  let boost = 1;
  let queryName: string | null = null;
  try {
    objectParser(p, 'match_all', {
      boost: ['FLOAT', () => (boost = p.floatValue())],
      _name: ['STRING', () => (queryName = p.text())],
    });
  } catch (e) {
    if (e instanceof EsError && isIllegalArgumentFamily(e)) throw parsingErrorFrom(e, p.location());
    throw e;
  }
  return { type: 'match_all', boost, queryName };
}

export function parseMatchNone(p: XParser): MatchNoneNode {
  let current: string | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT' && token !== 'END_ARRAY') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (isValueToken(token)) {
      if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else throw parsingError(`[match_none] query does not support [${current}]`, p.location());
    } else {
      throw parsingError(`[match_none] unknown token [${token}] after [${current}]`, p.location());
    }
  }
  return { type: 'match_none', boost, queryName };
}

type Occur = 'must' | 'should' | 'filter' | 'must_not';

function boolOccur(name: string | null): Occur | null {
  switch (name) {
    case 'must':
    case 'should':
    case 'filter':
    case 'must_not':
      return name;
    case 'mustNot':
      return 'must_not';
    default:
      return null;
  }
}

export function parseBool(p: XParser): BoolNode {
  let adjustPureNegative = true;
  let boost = 1;
  let minimumShouldMatch: string | null = null;
  const clauses: Record<Occur, QueryNode[]> = { must: [], should: [], filter: [], must_not: [] };
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      const occur = boolOccur(current);
      if (!occur) throw parsingError(`[bool] query does not support [${current}]`, p.location());
      clauses[occur].push(parseInnerQuery(p));
    } else if (token === 'START_ARRAY') {
      while (p.nextToken() !== 'END_ARRAY') {
        const occur = boolOccur(current);
        if (!occur) throw parsingError(`bool query does not support [${current}]`, p.location());
        clauses[occur].push(parseInnerQuery(p));
      }
    } else if (isValueToken(token)) {
      if (is(current, 'disable_coord')) {
        // ignored
      } else if (is(current, 'minimum_should_match')) {
        minimumShouldMatch = p.textOrNull();
      } else if (is(current, 'boost')) {
        boost = p.floatValue();
      } else if (is(current, 'adjust_pure_negative')) {
        adjustPureNegative = p.booleanValue();
      } else if (is(current, '_name')) {
        queryName = p.text();
      } else {
        throw parsingError(`[bool] query does not support [${current}]`, p.location());
      }
    }
  }
  return {
    type: 'bool',
    must: clauses.must,
    mustNot: clauses.must_not,
    should: clauses.should,
    filter: clauses.filter,
    minimumShouldMatch,
    adjustPureNegative,
    boost,
    queryName,
  };
}

export function parseConstantScore(p: XParser): ConstantScoreNode {
  let query: QueryNode | null = null;
  let queryFound = false;
  let queryName: string | null = null;
  let boost = 1;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'filter')) {
        if (queryFound) {
          throw parsingError("[constant_score] accepts only one 'filter' element.", p.location());
        }
        query = parseInnerQuery(p);
        queryFound = true;
      } else {
        throw parsingError(`[constant_score] query does not support [${current}]`, p.location());
      }
    } else if (isValueToken(token)) {
      if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else throw parsingError(`[constant_score] query does not support [${current}]`, p.location());
    } else {
      throw parsingError(`unexpected token [${token}]`, p.location());
    }
  }
  if (!queryFound) throw parsingError("[constant_score] requires a 'filter' element", p.location());
  return { type: 'constant_score', filter: query!, boost, queryName };
}

export function parseDisMax(p: XParser): DisMaxNode {
  let boost = 1;
  let tieBreaker = 0;
  const queries: QueryNode[] = [];
  let queriesFound = false;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (!is(current, 'queries')) {
        throw parsingError(`[dis_max] query does not support [${current}]`, p.location());
      }
      queriesFound = true;
      queries.push(parseInnerQuery(p));
    } else if (token === 'START_ARRAY') {
      if (!is(current, 'queries')) {
        throw parsingError(`[dis_max] query does not support [${current}]`, p.location());
      }
      queriesFound = true;
      while (token !== 'END_ARRAY') {
        queries.push(parseInnerQuery(p));
        token = p.nextToken();
      }
    } else {
      if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, 'tie_breaker')) tieBreaker = p.floatValue();
      else if (is(current, '_name')) queryName = p.text();
      else throw parsingError(`[dis_max] query does not support [${current}]`, p.location());
    }
  }
  if (!queriesFound) {
    throw parsingError("[dis_max] requires 'queries' field with at least one clause", p.location());
  }
  return { type: 'dis_max', queries, tieBreaker, boost, queryName };
}

export function parseBoosting(p: XParser): BoostingNode {
  let positive: QueryNode | null = null;
  let negative: QueryNode | null = null;
  let boost = 1;
  let negativeBoost = -1;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'positive')) positive = parseInnerQuery(p);
      else if (is(current, 'negative')) negative = parseInnerQuery(p);
      else throw parsingError(`[boosting] query does not support [${current}]`, p.location());
    } else if (isValueToken(token)) {
      if (is(current, 'negative_boost')) negativeBoost = p.floatValue();
      else if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else throw parsingError(`[boosting] query does not support [${current}]`, p.location());
    }
  }
  if (positive === null) {
    throw parsingError("[boosting] query requires 'positive' query to be set'", p.location());
  }
  if (negative === null) {
    throw parsingError("[boosting] query requires 'negative' query to be set'", p.location());
  }
  if (negativeBoost < 0) {
    throw parsingError(
      "[boosting] query requires 'negative_boost' to be set to be a positive value'",
      p.location(),
    );
  }
  return { type: 'boosting', positive, negative, negativeBoost, boost, queryName };
}

/** NestedQueryBuilder.parseScoreMode. */
export function nestedScoreMode(text: string): NestedNode['scoreMode'] {
  switch (text) {
    case 'none':
    case 'min':
    case 'max':
    case 'avg':
    case 'sum':
      return text;
  }
  throw illegalArgument(`No score mode for child query [${text}] found`);
}

export function parseNested(p: XParser): NestedNode {
  let boost = 1;
  let scoreMode: NestedNode['scoreMode'] = 'avg';
  let queryName: string | null = null;
  let query: QueryNode | null = null;
  let path: string | null = null;
  let innerHits: Record<string, unknown> | null = null;
  let ignoreUnmapped = false;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'query')) query = parseInnerQuery(p);
      else if (is(current, 'inner_hits')) innerHits = p.map();
      else throw parsingError(`[nested] query does not support [${current}]`, p.location());
    } else if (isValueToken(token)) {
      if (is(current, 'path')) path = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, 'ignore_unmapped')) ignoreUnmapped = p.booleanValue();
      else if (is(current, 'score_mode')) scoreMode = nestedScoreMode(p.text());
      else if (is(current, '_name')) queryName = p.text();
      else throw parsingError(`[nested] query does not support [${current}]`, p.location());
    }
  }
  if (path === null) throw illegalArgument("[nested] requires 'path' field");
  if (query === null) throw illegalArgument("[nested] requires 'query' field");
  return { type: 'nested', path, query, scoreMode, ignoreUnmapped, innerHits, boost, queryName };
}

/** XContentParser.binaryValue of a string: Jackson's lenient base64 (MIME variant). */
function base64Bytes(text: string): Buffer {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    throw new EsError(
      'json_parse_exception',
      'Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): Illegal character',
      400,
    );
  }
  return Buffer.from(clean, 'base64');
}

export function parseWrapper(p: XParser): WrapperNode {
  let token = p.nextToken();
  if (token !== 'FIELD_NAME') throw parsingError('[wrapper] query malformed', p.location());
  const fieldName = p.currentName();
  if (!is(fieldName, 'query')) {
    throw parsingError(
      `[wrapper] query malformed, expected \`query\` but was ${fieldName}`,
      p.location(),
    );
  }
  token = p.nextToken();
  // binaryValue(): base64 text of a string token, nothing for other tokens
  const source = token === 'VALUE_STRING' ? base64Bytes(p.text()) : null;
  p.nextToken();
  if (source === null) {
    throw parsingError('wrapper query has no [query] specified', p.location());
  }
  if (source.length === 0) throw illegalArgument('query source text cannot be null or empty');
  return { type: 'wrapper', source: source.toString('utf8'), boost: 1, queryName: null };
}

/** Script.parse(parser) with the default language `painless`. */
export function parseScriptSpec(p: XParser): ScriptSpec {
  if (p.currentToken() === 'VALUE_STRING') {
    return { source: p.text(), id: null, lang: 'painless', params: {}, options: {} };
  }
  let kind: 'inline' | 'stored' | null = null;
  let idOrCode: string | null = null;
  let lang: string | null = null;
  const options: Record<string, string> = {};
  let params: Record<string, unknown> = {};
  const onlyOne = () =>
    illegalArgument('must only use one of [source, id] when specifying a script');
  const inline = () => {
    if (kind !== null) throw onlyOne();
    kind = 'inline';
    if (p.currentToken() === 'START_OBJECT') {
      idOrCode = JSON.stringify(p.map());
      options['content_type'] = 'application/json; charset=UTF-8';
    } else {
      idOrCode = p.text();
    }
  };
  const stored = () => {
    if (kind !== null) throw onlyOne();
    kind = 'stored';
    idOrCode = p.text();
  };
  objectParser(p, 'script', {
    source: ['OBJECT_OR_STRING', inline],
    inline: ['OBJECT_OR_STRING', inline],
    id: ['STRING', stored],
    stored: ['STRING', stored],
    lang: ['STRING', () => (lang = p.text())],
    options: [
      'OBJECT',
      () => {
        for (const [k, v] of Object.entries(p.map())) options[k] = String(v);
      },
    ],
    params: ['OBJECT', () => (params = p.map())],
  });
  if (kind === null) {
    throw illegalArgument(
      'must specify either [source] for an inline script or [id] for a stored script',
    );
  }
  if (kind === 'inline') {
    const keys = Object.keys(options);
    if (keys.length > 1 || (keys.length === 1 && options['content_type'] === undefined)) {
      delete options['content_type'];
      const shown = Object.entries(options)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
      throw illegalArgument(`illegal compiler options [{${shown}}] specified`);
    }
    return { source: idOrCode, id: null, lang: lang ?? 'painless', params, options };
  }
  if (lang !== null) throw illegalArgument('illegally specified <lang> for a stored script');
  if (Object.keys(options).length > 0) {
    throw illegalArgument('field [options] cannot be specified using a stored script');
  }
  return { source: null, id: idOrCode, lang: null, params, options: {} };
}

export function parseScriptQuery(p: XParser): ScriptQueryNode {
  let script: ScriptSpec | null = null;
  let boost = 1;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'script')) script = parseScriptSpec(p);
      else throw parsingError(`[script] query does not support [${current}]`, p.location());
    } else if (isValueToken(token)) {
      if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, 'script')) script = parseScriptSpec(p);
      else throw parsingError(`[script] query does not support [${current}]`, p.location());
    } else if (token === 'START_ARRAY') {
      throw parsingError(
        '[script] query does not support an array of scripts. Use a bool query with a clause per script instead.',
        p.location(),
      );
    }
  }
  if (script === null) {
    throw parsingError('script must be provided with a [script] filter', p.location());
  }
  return { type: 'script', script, boost, queryName };
}
