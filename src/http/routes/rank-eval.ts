/**
 * The ranking evaluation API (ES 6.8 module rank-eval, TransportRankEvalAction): each rated
 * request's search, given verbatim or rendered from a mustache template, runs as an `_msearch`
 * item runs (through the node's search service, so over the cluster's shards), and its hits are
 * scored against the request's document ratings by the chosen metric.
 */
import { EsError, illegalArgument, toEsError } from '../../common/errors.js';
import { parseJson } from '../../common/json.js';
import { combineScores, evaluateQuery, type RankMetric } from '../../dsl/rank-eval/metrics.js';
import {
  evaluatedQueryProblem,
  parseRankEvalSpec,
  type RankEvalTemplate,
  type RatedRequest,
} from '../../dsl/rank-eval/spec.js';
import { compileTemplate, renderTemplate, type TemplateNode } from '../../dsl/template/index.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyJson, param, requireBodyOrSource, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';
import type { PreparedSearch, SearchRunner } from './search.js';

/** A rated request's search body as given, parsed once to check it as ES does. */
interface GivenSearch extends PreparedSearch {
  readonly body: unknown;
}

type Hit = Record<string, unknown>;

export function registerRankEvalRoutes(
  router: Router<Handler>,
  node: NodeContext,
  search: SearchRunner,
): void {
  /** TemplateScript compile: a stored template by its id, an inline one by its source. */
  const compile = (t: RankEvalTemplate): TemplateNode[] => {
    if (t.kind === 'inline') {
      if (t.lang !== 'mustache') throw contextUnsupported(t.lang);
      return compileTemplate(t.source);
    }
    const stored = node.indices.scripts.get(t.id);
    if (!stored)
      throw new EsError(
        'resource_not_found_exception',
        `unable to find script [${t.id}] in cluster state`,
        404,
      );
    if (stored.lang !== 'mustache') throw contextUnsupported(stored.lang);
    return compileTemplate(stored.source);
  };

  const handler: Handler = async (req) => {
    checkParams(req, ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards']);
    requireBodyOrSource(req);
    const spec = parseRankEvalSpec(bodyJson(req), (body): GivenSearch => ({
      ...search.prepare(body, () => undefined, req.warnings),
      body,
    }));
    const compiled = new Map<string, TemplateNode[]>();
    for (const [id, t] of spec.templates) compiled.set(id, compile(t));
    if (spec.maxConcurrentSearches < 1)
      throw illegalArgument('maxConcurrentSearchRequests must be positive');

    const failures = new Map<string, EsError>();
    const items: { rated: RatedRequest<GivenSearch>; prepared: PreparedSearch }[] = [];
    for (const rated of spec.requests) {
      let body: unknown;
      if (rated.request !== null) {
        body = rated.request.body;
      } else {
        const template = compiled.get(rated.templateId ?? '');
        // ES dereferences the missing template
        if (!template) throw new EsError('null_pointer_exception', null, 500);
        try {
          body = parseJson(renderTemplate(template, rated.params, 'json'));
        } catch (e) {
          // a rendering that is not JSON fails this request alone (an IOException in ES)
          if (e instanceof EsError && e.type === 'json_parse_exception') {
            failures.set(rated.id, e);
            continue;
          }
          throw e;
        }
        const problem = evaluatedQueryProblem(search.prepare(body, () => undefined, []).sreq);
        if (problem !== null) throw illegalArgument(problem);
      }
      const prepared = search.prepare(evaluationBody(body, rated, spec.metric), () => undefined, []); // prettier-ignore
      items.push({ rated, prepared });
    }

    const outcomes = await runBounded(items, spec.maxConcurrentSearches, ({ prepared }) =>
      runItem(req, search, prepared),
    );
    const details: Record<string, unknown> = {};
    const scores: number[] = [];
    items.forEach(({ rated }, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) {
        const hits = outcome.hits;
        const keys = hits.map((h) => ({ index: String(h._index), id: String(h._id) }));
        const evaluation = evaluateQuery(spec.metric, keys, rated.ratings);
        scores.push(evaluation.score);
        const rows = evaluation.ratings.map((rating, j) => ({ hit: hits[j], rating }));
        details[rated.id] = {
          metric_score: evaluation.score,
          unrated_docs: rows
            .filter((r) => r.rating === null)
            .map((r) => ({ _index: r.hit?._index, _id: r.hit?._id })),
          hits: rows,
          metric_details: evaluation.details,
        };
      } else {
        failures.set(rated.id, outcome.error);
      }
    });
    // request order, where ES's hash map has none
    const failed: Record<string, unknown> = {};
    for (const rated of spec.requests) {
      const e = failures.get(rated.id);
      if (e) failed[rated.id] = { error: e.toErrorObject() };
    }
    const score = combineScores(scores);
    return {
      status: 200,
      // Jackson writes a NaN double as the string "NaN"
      body: { metric_score: Number.isNaN(score) ? 'NaN' : score, details, failures: failed },
    };
  };
  router.add(['GET', 'POST'], '/_rank_eval', handler);
  router.add(['GET', 'POST'], '/{index}/_rank_eval', handler);
}

/**
 * The search a rated request runs: the metric's window as its size, and the summary fields as
 * its only source (no source without them).
 */
function evaluationBody(body: unknown, rated: RatedRequest<unknown>, metric: RankMetric): unknown {
  const source = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
  return {
    ...source,
    size: metric.k,
    _source:
      rated.summaryFields.length === 0
        ? false
        : { includes: [...rated.summaryFields], excludes: [] },
  };
}

type Outcome = { ok: true; hits: Hit[] } | { ok: false; error: EsError };

/** One search on the request's indices with its indices options, as an `_msearch` item. */
async function runItem(
  req: RestRequest,
  search: SearchRunner,
  prepared: PreparedSearch,
): Promise<Outcome> {
  // one reader per search: terms lookups are read once per search request
  const get = (n: string) => param(req, n);
  try {
    const out = await search.run(prepared, get, req.params.index, undefined, req.warnings);
    req.warnings.push(...out.warnings);
    const hits = (out.body.hits as { hits?: Hit[] } | undefined)?.hits ?? [];
    return { ok: true, hits };
  } catch (e) {
    return { ok: false, error: toEsError(e) };
  }
}

/** Runs `f` over `items` with at most `limit` at a time; results in item order. */
async function runBounded<T, U>(
  items: readonly T[],
  limit: number,
  f: (item: T) => Promise<U>,
): Promise<U[]> {
  const out: U[] = new Array<U>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const contextUnsupported = (lang: string) =>
  new EsError('illegal_argument_exception', `${lang} does not know how to handle context [template]`, 400); // prettier-ignore
