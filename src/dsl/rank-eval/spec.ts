/**
 * The `_rank_eval` request body (ES 6.8 RankEvalSpec, RatedRequest, RatedDocument and the metric
 * parsers), read with ES's checks and error wording: object parser errors wrap their cause as
 * `[parser] failed to parse field [f]`, constructor checks as `Failed to build [parser] after last
 * required field arrived`. The search body of each rated request is parsed by the caller.
 */
import { EsError } from '../../common/errors.js';
import { tokenOf, type Token } from '../../common/xcontent-token.js';
import {
  errorLocation,
  parsingError,
  rebaseErrorLocations,
  xContentError,
  namedObjectNotFound,
  type JsonLocation,
  type JsonPath,
} from '../query/errors.js';
import type { SearchRequest } from '../search/request.js';
import { toBoolean, toLong } from '../aggs/parse/object-parser.js';
import { DEFAULT_K, type RankMetric, type RatedDocument } from './metrics.js';

/** A template of the request (`templates`): a mustache script, inline or stored. */
export type RankEvalTemplate =
  | { readonly kind: 'inline'; readonly source: string; readonly lang: string }
  | { readonly kind: 'stored'; readonly id: string };

export interface RatedRequest<R> {
  readonly id: string;
  /** The parsed search body, or null when the request names a template. */
  readonly request: R | null;
  readonly templateId: string | null;
  readonly params: Readonly<Record<string, unknown>>;
  readonly ratings: readonly RatedDocument[];
  readonly summaryFields: readonly string[];
}

export interface RankEvalSpec<R> {
  readonly requests: readonly RatedRequest<R>[];
  readonly metric: RankMetric;
  readonly templates: ReadonlyMap<string, RankEvalTemplate>;
  readonly maxConcurrentSearches: number;
}

/** Parses a rated request's search body (SearchSourceBuilder.fromXContent). */
export type SearchBodyParser<R> = (body: unknown) => R;

const MAX_CONCURRENT_SEARCHES = 10;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const at = (path: JsonPath, where: JsonLocation['at'] = 'value'): JsonLocation => ({
  path,
  at: where,
});

/** Exceptions of plain Java types: ES names the wrapping parse error itself as root cause. */
const JAVA_EXCEPTIONS = new Set([
  'illegal_argument_exception',
  'illegal_state_exception',
  'number_format_exception',
  'null_pointer_exception',
]);

/**
 * XContentParseException wrapping `cause`. ES reports the innermost parse error or
 * ElasticsearchException as root cause (ElasticsearchException.guessRootCauses), and the
 * location where the parser stopped, which is where the cause was raised when it says.
 */
function wrap(reason: string, fallback: JsonLocation | null, cause: unknown): EsError {
  const c =
    cause instanceof EsError ? cause : new EsError('exception', String(cause as string), 500);
  const roots = JAVA_EXCEPTIONS.has(c.type) ? undefined : c.rootCauseList();
  const info = errorLocation(c);
  const loc = info?.prefix ?? info?.meta ?? fallback;
  if (loc === null) {
    return new EsError('x_content_parse_exception', reason, 400, {
      causedBy: c,
      ...(roots ? { rootCauses: roots } : {}),
    });
  }
  return xContentError(reason, loc, c, roots);
}

const illegalArgument = (reason: string) => new EsError('illegal_argument_exception', reason, 400);

type Kind = 'string' | 'int' | 'boolean' | 'object' | 'object_array' | 'string_array';

const ACCEPTS: Record<Kind, readonly Token[]> = {
  string: ['VALUE_STRING'],
  int: ['VALUE_NUMBER', 'VALUE_STRING'],
  boolean: ['VALUE_BOOLEAN', 'VALUE_STRING'],
  object: ['START_OBJECT'],
  object_array: ['START_OBJECT', 'START_ARRAY'],
  string_array: ['START_ARRAY', 'VALUE_STRING'],
};

interface Field {
  readonly kind: Kind;
  /** Reads the value at `path`; what it throws is wrapped as `failed to parse field`. */
  readonly read: (value: unknown, path: JsonPath) => void;
}

/** The token after a non-object value, where ObjectParser looks for the object's start. */
function tokenAfter(value: unknown, nextKeyExists: boolean): string {
  if (Array.isArray(value)) return value.length > 0 ? tokenOf(value[0]) : 'END_ARRAY';
  return nextKeyExists ? 'FIELD_NAME' : 'END_OBJECT';
}

/** ObjectParser.parse: each field by its declaration, unknown fields and wrong tokens refused. */
function parseFields(
  name: string,
  json: unknown,
  path: JsonPath,
  fields: Readonly<Record<string, Field>>,
  nextKeyExists = false,
): void {
  if (!isObj(json)) {
    throw xContentError(
      `[${name}] Expected START_OBJECT but was: ${tokenAfter(json, nextKeyExists)}`,
      at(path, 'end'),
    );
  }
  for (const [key, value] of Object.entries(json)) {
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    const p = [...path, key];
    if (!field) throw xContentError(`[${name}] unknown field [${key}], parser not found`, at(p, 'key')); // prettier-ignore
    const tok = tokenOf(value);
    if (!ACCEPTS[field.kind].includes(tok)) {
      throw xContentError(`[${name}] ${key} doesn't support values of type: ${tok}`, at(p));
    }
    try {
      field.read(value, p);
    } catch (e) {
      throw wrap(`[${name}] failed to parse field [${key}]`, at(p, 'end'), e);
    }
  }
}

/** ConstructingObjectParser: the missing required arguments, in declaration order. */
function requireArgs(present: Readonly<Record<string, boolean>>): void {
  const missing = Object.entries(present)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length > 0) throw illegalArgument(`Required [${missing.join(', ')}]`);
}

/** ConstructingObjectParser: what the constructor throws, wrapped. */
function build<T>(name: string, make: () => T): T {
  try {
    return make();
  } catch (e) {
    throw wrap(`Failed to build [${name}] after last required field arrived`, null, e);
  }
}

/** Each object of an object array field (a lone object is a list of one). */
function eachObject(value: unknown, path: JsonPath, f: (v: unknown, p: JsonPath) => void): void {
  if (Array.isArray(value)) value.forEach((v, i) => f(v, [...path, i]));
  else f(value, path);
}

const intOf = (v: unknown): number => toLong(v);

/** Why a rated request's search body cannot be evaluated (RatedRequest.validateEvaluatedQuery). */
export function evaluatedQueryProblem(sreq: SearchRequest): string | null {
  if (sreq.suggest !== null) return 'Query in rated requests should not contain a suggest section.';
  if (sreq.aggs !== null) return 'Query in rated requests should not contain aggregations.';
  if (sreq.highlight !== null)
    return 'Query in rated requests should not contain a highlighter section.';
  if (sreq.explain) return 'Query in rated requests should not use explain.';
  if (sreq.profile) return 'Query in rated requests should not use profile.';
  return null;
}

function parseRatedDocument(json: unknown, path: JsonPath): RatedDocument {
  let index: string | undefined;
  let id: string | undefined;
  let rating: number | undefined;
  parseFields('rated_document', json, path, {
    _index: { kind: 'string', read: (v) => (index = v as string) },
    _id: { kind: 'string', read: (v) => (id = v as string) },
    rating: { kind: 'int', read: (v) => (rating = intOf(v)) },
  });
  requireArgs({ _index: index !== undefined, _id: id !== undefined, rating: rating !== undefined });
  return build('rated_document', () => {
    if (!index) throw illegalArgument('Index must be set for each rated document');
    if (!id) throw illegalArgument('DocId must be set for each rated document');
    return { index, id, rating: rating as number };
  });
}

function parseRatedRequest<R extends { sreq: SearchRequest }>(
  json: unknown,
  path: JsonPath,
  parseBody: SearchBodyParser<R>,
): RatedRequest<R> {
  let id: string | undefined;
  let ratings: RatedDocument[] | undefined;
  let request: R | undefined;
  let params: Obj | undefined;
  let templateId: string | undefined;
  const summaryFields: string[] = [];
  parseFields('request', json, path, {
    id: { kind: 'string', read: (v) => (id = v as string) },
    ratings: {
      kind: 'object_array',
      read: (v, p) => {
        const list: RatedDocument[] = [];
        eachObject(v, p, (d, dp) => list.push(parseRatedDocument(d, dp)));
        ratings = list;
      },
    },
    request: {
      kind: 'object',
      read: (v, p) => {
        try {
          request = parseBody(v);
        } catch (e) {
          if (e instanceof EsError) rebaseErrorLocations(e, p);
          throw e;
        }
      },
    },
    params: { kind: 'object', read: (v) => (params = v as Obj) },
    summary_fields: {
      kind: 'string_array',
      read: (v) => {
        for (const f of Array.isArray(v) ? v : [v]) {
          if (isObj(f) || Array.isArray(f)) throw illegalArgument(`Can't get text on a ${tokenOf(f)}`); // prettier-ignore
          summaryFields.push(String(f));
        }
      },
    },
    template_id: { kind: 'string', read: (v) => (templateId = v as string) },
  });
  requireArgs({ id: id !== undefined, ratings: ratings !== undefined });
  return build('request', () => {
    const hasParams = params !== undefined && Object.keys(params).length > 0;
    const ambiguous =
      'Ambiguous rated request: Set both, verbatim test request and test request template parameters.';
    if (hasParams && request !== undefined) throw illegalArgument(ambiguous);
    if (templateId !== undefined && request !== undefined) throw illegalArgument(ambiguous);
    if (!hasParams && request === undefined)
      throw illegalArgument('Need to set at least test request or test request template parameters.'); // prettier-ignore
    if (hasParams && templateId === undefined)
      throw illegalArgument('If template parameters are supplied need to set id of template to apply them to too.'); // prettier-ignore
    const problem = request !== undefined ? evaluatedQueryProblem(request.sreq) : null;
    if (problem !== null) throw illegalArgument(problem);
    const seen = new Set<string>();
    for (const d of ratings ?? []) {
      const key = JSON.stringify([d.index, d.id]);
      if (seen.has(key))
        throw illegalArgument(
          `Found duplicate rated document key [{"_index":"${d.index}","_id":"${d.id}"}] in evaluation request [${id}]`,
        );
      seen.add(key);
    }
    return {
      id: id as string,
      request: request ?? null,
      templateId: templateId ?? null,
      params: params ?? {},
      ratings: ratings ?? [],
      summaryFields,
    };
  });
}

/** A template's script (Script.parse with mustache as the default lang). */
function parseTemplateScript(json: Obj, path: JsonPath): RankEvalTemplate {
  let source: string | undefined;
  let id: string | undefined;
  let lang: string | undefined;
  let options = 0;
  const once = () => {
    if (source !== undefined || id !== undefined)
      throw illegalArgument('must only use one of [source, id] when specifying a script');
  };
  for (const [k, v] of Object.entries(json)) {
    const p = [...path, k];
    switch (k) {
      case 'source':
      case 'inline':
        once();
        // a template written as an object is its JSON text
        if (isObj(v)) source = JSON.stringify(v);
        else if (typeof v === 'string') source = v;
        else throw parsingError(`Value must be of type String: [${k}]`, at(p));
        break;
      case 'id':
        once();
        if (typeof v !== 'string') throw parsingError(`Value must be of type String: [${k}]`, at(p)); // prettier-ignore
        id = v;
        break;
      case 'lang':
        if (typeof v !== 'string') throw parsingError('Value must be of type String: [lang]', at(p)); // prettier-ignore
        lang = v;
        break;
      case 'params':
        if (!isObj(v)) throw parsingError('Value must be of type Object: [params]', at(p));
        break;
      case 'options':
        if (isObj(v)) options = Object.keys(v).length;
        break;
      default:
        throw parsingError(`[script] unknown field [${k}], parser not found`, at(p, 'key'));
    }
  }
  if (id !== undefined) {
    if (lang !== undefined) throw illegalArgument('illegally specified <lang> for a stored script');
    if (options > 0)
      throw illegalArgument('field [options] cannot be specified using a stored script');
    return { kind: 'stored', id };
  }
  if (source === undefined)
    throw illegalArgument(
      'must specify either [source] for an inline script or [id] for a stored script',
    );
  return { kind: 'inline', source, lang: lang ?? 'mustache' };
}

function parseTemplate(json: unknown, path: JsonPath): [string, RankEvalTemplate] {
  let id: string | undefined;
  let script: RankEvalTemplate | undefined;
  parseFields('script_with_id', json, path, {
    id: { kind: 'string', read: (v) => (id = v as string) },
    template: {
      kind: 'object',
      read: (v, p) => (script = parseTemplateScript(v as Obj, p)),
    },
  });
  requireArgs({ id: id !== undefined, template: script !== undefined });
  return [id as string, script as RankEvalTemplate];
}

/** Reads `metric`'s one named metric (RankEvalSpec.parseMetric). */
function parseMetric(json: Obj, path: JsonPath): RankMetric {
  const keys = Object.keys(json);
  if (keys.length === 0)
    throw parsingError(
      'Failed to parse object: expecting token of type [FIELD_NAME] but found [END_OBJECT]',
      at(path, 'end'),
    );
  const name = keys[0] as string;
  const p = [...path, name];
  const value = json[name];
  const more = keys.length > 1;
  let metric: RankMetric;
  switch (name) {
    case 'precision':
      metric = parsePrecision(value, p, more);
      break;
    case 'mean_reciprocal_rank':
      metric = parseReciprocalRank(value, p, more);
      break;
    case 'dcg':
      metric = parseDcg(value, p, more);
      break;
    case 'expected_reciprocal_rank':
      metric = parseExpectedReciprocalRank(value, p, more);
      break;
    default:
      throw namedObjectNotFound(
        `unable to parse EvaluationMetric with name [${name}]: parser not found`,
        at(p, 'key'),
      );
  }
  if (more)
    throw parsingError(
      'Failed to parse object: expecting token of type [END_OBJECT] but found [FIELD_NAME]',
      at([...path, keys[1] as string], 'key'),
    );
  return metric;
}

function checkThresholdAndK(threshold: number, k: number): void {
  if (threshold < 0)
    throw illegalArgument('Relevant rating threshold for precision must be positive integer.');
  if (k <= 0) throw illegalArgument('Window size k must be positive.');
}

function parsePrecision(json: unknown, path: JsonPath, more: boolean): RankMetric {
  let threshold = 1;
  let ignoreUnlabeled = false;
  let k = DEFAULT_K;
  parseFields(
    'precision',
    json,
    path,
    {
      relevant_rating_threshold: { kind: 'int', read: (v) => (threshold = intOf(v)) },
      ignore_unlabeled: { kind: 'boolean', read: (v) => (ignoreUnlabeled = toBoolean(v)) },
      k: { kind: 'int', read: (v) => (k = intOf(v)) },
    },
    more,
  );
  return build('precision', () => {
    checkThresholdAndK(threshold, k);
    return { kind: 'precision', relevantRatingThreshold: threshold, ignoreUnlabeled, k };
  });
}

function parseReciprocalRank(json: unknown, path: JsonPath, more: boolean): RankMetric {
  let threshold = 1;
  let k = DEFAULT_K;
  parseFields(
    'reciprocal_rank',
    json,
    path,
    {
      relevant_rating_threshold: { kind: 'int', read: (v) => (threshold = intOf(v)) },
      k: { kind: 'int', read: (v) => (k = intOf(v)) },
    },
    more,
  );
  return build('reciprocal_rank', () => {
    checkThresholdAndK(threshold, k);
    return { kind: 'mean_reciprocal_rank', relevantRatingThreshold: threshold, k };
  });
}

function parseDcg(json: unknown, path: JsonPath, more: boolean): RankMetric {
  let normalize = false;
  let unknownDocRating: number | null = null;
  let k = DEFAULT_K;
  parseFields(
    'dcg',
    json,
    path,
    {
      normalize: { kind: 'boolean', read: (v) => (normalize = toBoolean(v)) },
      unknown_doc_rating: { kind: 'int', read: (v) => (unknownDocRating = intOf(v)) },
      k: { kind: 'int', read: (v) => (k = intOf(v)) },
    },
    more,
  );
  return { kind: 'dcg', normalize, unknownDocRating, k };
}

function parseExpectedReciprocalRank(json: unknown, path: JsonPath, more: boolean): RankMetric {
  let maximumRelevance: number | undefined;
  let unknownDocRating: number | null = null;
  let k = DEFAULT_K;
  // ES 6.8 names this parser "dcg" too
  parseFields(
    'dcg',
    json,
    path,
    {
      maximum_relevance: { kind: 'int', read: (v) => (maximumRelevance = intOf(v)) },
      unknown_doc_rating: { kind: 'int', read: (v) => (unknownDocRating = intOf(v)) },
      k: { kind: 'int', read: (v) => (k = intOf(v)) },
    },
    more,
  );
  requireArgs({ maximum_relevance: maximumRelevance !== undefined });
  return {
    kind: 'expected_reciprocal_rank',
    maximumRelevance: maximumRelevance as number,
    unknownDocRating,
    k,
  };
}

/** Parses a `_rank_eval` body; `parseBody` reads each rated request's search body. */
export function parseRankEvalSpec<R extends { sreq: SearchRequest }>(
  body: unknown,
  parseBody: SearchBodyParser<R>,
): RankEvalSpec<R> {
  let requests: RatedRequest<R>[] | undefined;
  let metric: RankMetric | undefined;
  const templates = new Map<string, RankEvalTemplate>();
  let maxConcurrentSearches = MAX_CONCURRENT_SEARCHES;
  parseFields('rank_eval', body, [], {
    requests: {
      kind: 'object_array',
      read: (v, p) => {
        const list: RatedRequest<R>[] = [];
        eachObject(v, p, (r, rp) => list.push(parseRatedRequest(r, rp, parseBody)));
        requests = list;
      },
    },
    metric: { kind: 'object', read: (v, p) => (metric = parseMetric(v as Obj, p)) },
    templates: {
      kind: 'object_array',
      read: (v, p) =>
        eachObject(v, p, (t, tp) => {
          const [id, script] = parseTemplate(t, tp);
          templates.set(id, script);
        }),
    },
    max_concurrent_searches: { kind: 'int', read: (v) => (maxConcurrentSearches = intOf(v)) },
  });
  requireArgs({ requests: requests !== undefined, metric: metric !== undefined });
  const list = requests as RatedRequest<R>[];
  build('rank_eval', () => {
    if (list.length === 0)
      throw illegalArgument(
        'Cannot evaluate ranking if no search requests with rated results are provided. Seen: []',
      );
    if (templates.size === 0) {
      const bare = list.find((r) => r.request === null);
      if (bare)
        throw new EsError(
          'illegal_state_exception',
          `Cannot evaluate ranking if neither template nor evaluation request is provided. Seen for request id: ${bare.id}`,
          500,
        );
    }
  });
  return { requests: list, metric: metric as RankMetric, templates, maxConcurrentSearches };
}
