/**
 * `function_score` parsing (ES 6.8 FunctionScoreQueryBuilder.fromXContent) and its score function
 * parsers: weight, field_value_factor, random_score, script_score, gauss / linear / exp.
 */
import { illegalArgument, namedObjectNotFound, parsingError } from '../errors.js';
import type {
  BoostMode,
  DecayType,
  FieldValueModifier,
  FunctionScoreNode,
  QueryNode,
  ScoreFunctionNode,
  ScoreMode,
} from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';
import { enumValue } from './common.js';
import { parseScriptSpec } from './compound.js';
import { parseInnerQuery } from './inner.js';

const NAME = 'function_score';
const MISPLACED = 'you can either define [functions] array or a single function, not both. ';

type FunctionParser = (p: XParser) => ScoreFunctionNode;

const SCORE_FUNCTIONS: Record<string, FunctionParser> = {
  field_value_factor: parseFieldValueFactor,
  random_score: parseRandomScore,
  script_score: parseScriptScore,
  gauss: (p) => parseDecay(p, 'gauss'),
  linear: (p) => parseDecay(p, 'linear'),
  exp: (p) => parseDecay(p, 'exp'),
};

/** parser.namedObject(ScoreFunctionBuilder.class, name, null). */
function scoreFunction(p: XParser, name: string): ScoreFunctionNode {
  const f = Object.hasOwn(SCORE_FUNCTIONS, name) ? SCORE_FUNCTIONS[name] : undefined;
  if (!f) {
    throw namedObjectNotFound(
      `unable to parse ScoreFunctionBuilder with name [${name}]: parser not found`,
      p.location(),
    );
  }
  return f(p);
}

const misplaced = (p: XParser, what: string) =>
  parsingError(`failed to parse [${NAME}] query. [${MISPLACED}${what}]`, p.location());

export function parseFunctionScore(p: XParser): FunctionScoreNode {
  let query: QueryNode | null = null;
  let boost = 1;
  let queryName: string | null = null;
  let scoreMode: ScoreMode = 'multiply';
  let maxBoost = 3.4028234663852886e38; // Float.MAX_VALUE
  let minScore: number | null = null;
  let boostMode: BoostMode | null = null;
  let functionArrayFound = false;
  let singleFunctionFound = false;
  let singleFunctionName: string | null = null;
  const functions: Array<{ filter: QueryNode | null; function: ScoreFunctionNode }> = [];
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'query')) {
        if (query !== null) {
          throw parsingError(
            `failed to parse [${NAME}] query. [query] is already defined.`,
            p.location(),
          );
        }
        query = parseInnerQuery(p);
      } else {
        if (singleFunctionFound) {
          throw parsingError(
            `failed to parse [${NAME}] query. already found function [${singleFunctionName}], now encountering [${current}]. use [functions] array if you want to define several functions.`,
            p.location(),
          );
        }
        if (functionArrayFound) {
          throw misplaced(p, `already found [functions] array, now encountering [${current}].`);
        }
        singleFunctionFound = true;
        singleFunctionName = current;
        functions.push({ filter: null, function: scoreFunction(p, current!) });
      }
    } else if (token === 'START_ARRAY') {
      if (is(current, 'functions')) {
        if (singleFunctionFound) {
          throw misplaced(
            p,
            `already found [${singleFunctionName}], now encountering [functions].`,
          );
        }
        functionArrayFound = true;
        current = parseFunctionsArray(p, functions);
      } else {
        throw parsingError(
          `failed to parse [${NAME}] query. array [${current}] is not supported`,
          p.location(),
        );
      }
    } else if (isValueToken(token)) {
      if (is(current, 'score_mode')) {
        scoreMode = enumValue(
          'org.elasticsearch.common.lucene.search.function.FunctionScoreQuery.ScoreMode',
          ['first', 'avg', 'max', 'sum', 'min', 'multiply'] as const,
          p.text(),
        );
      } else if (is(current, 'boost_mode')) {
        boostMode = enumValue(
          'org.elasticsearch.common.lucene.search.function.CombineFunction',
          ['multiply', 'replace', 'sum', 'avg', 'min', 'max'] as const,
          p.text(),
        );
      } else if (is(current, 'max_boost')) {
        maxBoost = p.floatValue();
      } else if (is(current, 'boost')) {
        boost = p.floatValue();
      } else if (is(current, '_name')) {
        queryName = p.text();
      } else if (is(current, 'min_score')) {
        minScore = p.floatValue();
      } else {
        if (singleFunctionFound) {
          throw parsingError(
            `failed to parse [${NAME}] query. already found function [${singleFunctionName}], now encountering [${current}]. use [functions] array if you want to define several functions.`,
            p.location(),
          );
        }
        if (functionArrayFound) {
          throw misplaced(p, `already found [functions] array, now encountering [${current}].`);
        }
        if (is(current, 'weight')) {
          functions.push({ filter: null, function: { fn: 'weight', weight: p.floatValue() } });
          singleFunctionFound = true;
          singleFunctionName = current;
        } else {
          throw parsingError(
            `failed to parse [${NAME}] query. field [${current}] is not supported`,
            p.location(),
          );
        }
      }
    }
  }
  return {
    type: 'function_score',
    query: query ?? { type: 'match_all', boost: 1, queryName: null },
    functions,
    scoreMode,
    boostMode,
    maxBoost,
    minScore,
    boost,
    queryName,
  };
}

function withWeight(f: ScoreFunctionNode, weight: number): ScoreFunctionNode {
  return { ...f, weight };
}

function parseFunctionsArray(
  p: XParser,
  out: Array<{ filter: QueryNode | null; function: ScoreFunctionNode }>,
): string | null {
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_ARRAY') {
    let filter: QueryNode | null = null;
    let fn: ScoreFunctionNode | null = null;
    let weight: number | null = null;
    if (token !== 'START_OBJECT') {
      // ES passes its format arguments in this order
      throw parsingError(
        `failed to parse [START_OBJECT]. malformed query, expected a [${token}] while parsing functions but got a [${NAME}] instead`,
        p.location(),
      );
    }
    while ((token = p.nextToken()) !== 'END_OBJECT') {
      if (token === 'FIELD_NAME') {
        current = p.currentName();
      } else if (token === 'START_OBJECT') {
        if (is(current, 'filter')) {
          filter = parseInnerQuery(p);
        } else {
          if (fn !== null) {
            throw parsingError(
              `failed to parse function_score functions. already found [${fn.fn}], now encountering [${current}].`,
              p.location(),
            );
          }
          fn = scoreFunction(p, current!);
        }
      } else if (isValueToken(token)) {
        if (is(current, 'weight')) weight = p.floatValue();
        else
          throw parsingError(
            `failed to parse [${NAME}] query. field [${current}] is not supported`,
            p.location(),
          );
      }
    }
    if (weight !== null) fn = fn === null ? { fn: 'weight', weight } : withWeight(fn, weight);
    if (fn === null) {
      throw parsingError(
        `failed to parse [${NAME}] query. an entry in functions list is missing a function.`,
        p.location(),
      );
    }
    out.push({ filter, function: fn });
  }
  return current;
}

const MODIFIERS = [
  'none',
  'log',
  'log1p',
  'log2p',
  'ln',
  'ln1p',
  'ln2p',
  'square',
  'sqrt',
  'reciprocal',
] as const;

function parseFieldValueFactor(p: XParser): ScoreFunctionNode {
  let current: string | null = null;
  let field: string | null = null;
  let factor = 1;
  let modifier: FieldValueModifier = 'none';
  let missing: number | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (isValueToken(token)) {
      if (current === 'field') field = p.text();
      else if (current === 'factor') factor = p.floatValue();
      else if (current === 'modifier')
        modifier = enumValue(
          'org.elasticsearch.common.lucene.search.function.FieldValueFactorFunction.Modifier',
          MODIFIERS,
          p.text(),
        );
      else if (current === 'missing') missing = p.doubleValue();
      else
        throw parsingError(`field_value_factor query does not support [${current}]`, p.location());
    } else if (current === 'factor' && (token === 'START_ARRAY' || token === 'START_OBJECT')) {
      throw parsingError(
        "[field_value_factor] field 'factor' does not support lists or objects",
        p.location(),
      );
    }
  }
  if (field === null) {
    throw parsingError("[field_value_factor] required field 'field' missing", p.location());
  }
  return { fn: 'field_value_factor', weight: null, field, factor, modifier, missing };
}

function parseRandomScore(p: XParser): ScoreFunctionNode {
  let current: string | null = null;
  let seed: number | string | null = null;
  let field: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (isValueToken(token)) {
      if (current === 'seed') {
        if (token === 'VALUE_NUMBER') {
          const type = p.numberType();
          if (type === 'DOUBLE') {
            throw parsingError(
              `random_score seed must be an int, long or string, not '${token}'`,
              p.location(),
            );
          }
          seed = p.longValue();
        } else if (token === 'VALUE_STRING') {
          seed = p.text();
        } else {
          throw parsingError(
            `random_score seed must be an int/long or string, not '${token}'`,
            p.location(),
          );
        }
      } else if (current === 'field') {
        field = p.text();
      } else {
        throw parsingError(`random_score query does not support [${current}]`, p.location());
      }
    }
  }
  return { fn: 'random_score', weight: null, seed, field };
}

function parseScriptScore(p: XParser): ScoreFunctionNode {
  let current: string | null = null;
  let script = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (current === 'script') {
      script = parseScriptSpec(p);
    } else {
      throw parsingError(`script_score query does not support [${current}]`, p.location());
    }
  }
  if (script === null) throw parsingError("script_score requires 'script' field", p.location());
  return { fn: 'script_score', weight: null, script };
}

const MULTI_VALUE_MODES = ['min', 'max', 'avg', 'sum', 'median'] as const;

/** DecayFunctionParser.fromXContent: `{ "<field>": {origin, scale, ...}, "multi_value_mode": m }`. */
function parseDecay(p: XParser, type: DecayType): ScoreFunctionNode {
  let mode: (typeof MULTI_VALUE_MODES)[number] = 'min';
  let field: string | null = null;
  let params: Record<string, unknown> | null = null;
  let token;
  while ((token = p.nextToken()) === 'FIELD_NAME') {
    const current = p.currentName()!;
    token = p.nextToken();
    if (token === 'START_OBJECT') {
      field = current;
      params = p.map();
    } else if (current === 'multi_value_mode') {
      const text = p.text();
      const hit = MULTI_VALUE_MODES.find((m) => m === text.toLowerCase());
      if (!hit) {
        throw illegalArgument(`Illegal sort mode: ${text}`);
      }
      mode = hit;
    } else {
      throw parsingError('malformed score function score parameters.', p.location());
    }
  }
  if (field === null || params === null) {
    throw parsingError('malformed score function score parameters.', p.location());
  }
  return { fn: type, weight: null, field, params, multiValueMode: mode };
}
