/**
 * Search template APIs (ES RestSearchTemplateAction, RestMultiSearchTemplateAction,
 * RestRenderSearchTemplateAction): a mustache template, inline or stored through `_scripts`,
 * rendered with its params into a search body that runs as `_search` and `_msearch` run it.
 */
import { actionRequestValidation, EsError, toEsError } from '../../common/errors.js';
import { parseJson } from '../../common/json.js';
import { closeTruncatedJson } from '../../common/json-truncated.js';
import { parseQuery } from '../../dsl/query/index.js';
import { renderSource } from '../../dsl/template/index.js';
import {
  parseSearchTemplateRequest,
  searchTemplateProblems,
  type SearchTemplateRequest,
} from '../../dsl/template/request.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams, preferenceWarning } from '../params.js';
import { bodyJson, param, requireBodyOrSource, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import { msearchItems } from '../msearch-lines.js';
import type { SearchRunner } from './search.js';

const SEARCH_TEMPLATE_PARAMS = [
  'ignore_unavailable',
  'ignore_throttled',
  'allow_no_indices',
  'expand_wildcards',
  'preference',
  'routing',
  'scroll',
  'search_type',
  'explain',
  'profile',
  'typed_keys',
  'rest_total_hits_as_int',
  'ccs_minimize_roundtrips',
  'type',
];

export function registerSearchTemplateRoutes(
  router: Router<Handler>,
  node: NodeContext,
  search: SearchRunner,
): void {
  const scripts = node.indices.scripts;

  /** TransportSearchTemplateAction: the template's source, rendered with its params. */
  const render = (t: SearchTemplateRequest): string => {
    const problems = searchTemplateProblems(t);
    if (problems.length > 0) throw actionRequestValidation(problems);
    let source = t.source ?? '';
    if (t.id !== undefined) {
      const stored = scripts.get(t.id);
      if (!stored)
        throw new EsError(
          'resource_not_found_exception',
          `unable to find script [${t.id}] in cluster state`,
          404,
        );
      // the stored script's own lang compiles it, in the template context only mustache knows
      if (stored.lang !== 'mustache')
        throw new EsError(
          'illegal_argument_exception',
          `${stored.lang} does not know how to handle context [template]`,
          400,
        );
      source = stored.source;
    }
    return renderSource(source, t.params);
  };

  /** The rendered search body, with the request's `explain` and `profile`. */
  const searchBody = (t: SearchTemplateRequest): unknown => {
    const text = render(t);
    let body: unknown;
    try {
      body = parseJson(text);
    } catch (e) {
      throw unknownQueryBeforeEnd(text) ?? e;
    }
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const b = body as Record<string, unknown>;
      if (t.explain) b.explain = true;
      if (t.profile) b.profile = true;
    }
    return body;
  };

  const searchTemplate: Handler = async (req) => {
    checkParams(req, SEARCH_TEMPLATE_PARAMS);
    preferenceWarning(req);
    requireBodyOrSource(req);
    const t = parseSearchTemplateRequest(bodyJson(req));
    const get = (n: string) => (n === 'explain' || n === 'profile' ? undefined : param(req, n));
    const explain = param(req, 'explain');
    const profile = param(req, 'profile');
    const withUrl: SearchTemplateRequest = {
      ...t,
      explain: t.explain || explain === 'true' || explain === '',
      profile: t.profile || profile === 'true' || profile === '',
    };
    const prepared = search.prepare(searchBody(withUrl), get, req.warnings);
    const out = await search.run(prepared, get, req.params.index, req.params.type, req.warnings);
    req.warnings.push(...out.warnings);
    return { status: 200, body: out.body };
  };
  router.add(['GET', 'POST'], '/_search/template', searchTemplate);
  router.add(['GET', 'POST'], '/{index}/_search/template', searchTemplate);
  router.add(['GET', 'POST'], '/{index}/{type}/_search/template', searchTemplate);

  const msearchTemplate: Handler = async (req) => {
    checkParams(req, [
      'search_type',
      'typed_keys',
      'max_concurrent_searches',
      'rest_total_hits_as_int',
      'ccs_minimize_roundtrips',
    ]);
    requireBodyOrSource(req);
    const t0 = Date.now();
    const data = req.body ?? Buffer.from(`${req.query.get('source') ?? ''}`);
    // every item is read before any runs; MultiSearchTemplateRequest.validate refuses the whole
    // request when one has no template
    const items = [...msearchItems(data, req.warnings)].map((item) => {
      const h = item.header;
      const hget = (n: string): string | undefined => {
        const v = h.get(n);
        if (v !== undefined) return Array.isArray(v) ? v.join(',') : String(v);
        if (n === 'search_type' || n === 'typed_keys') return param(req, n);
        return undefined;
      };
      return { hget, template: parseSearchTemplateRequest(item.body) };
    });
    const problems = items.flatMap((i) => searchTemplateProblems(i.template));
    if (problems.length > 0) throw actionRequestValidation(problems);
    const responses: unknown[] = [];
    for (const { hget, template } of items) {
      try {
        const prepared = search.prepare(searchBody(template), hget, req.warnings);
        const out = await search.run(
          prepared,
          hget,
          hget('index') ?? req.params.index,
          hget('type') ?? req.params.type,
          req.warnings,
        );
        req.warnings.push(...out.warnings);
        responses.push({ ...out.body, status: 200 });
      } catch (e) {
        const err = toEsError(e);
        responses.push({ error: err.toErrorObject(), status: err.status });
      }
    }
    return { status: 200, body: { took: Date.now() - t0, responses } };
  };
  router.add(['GET', 'POST'], '/_msearch/template', msearchTemplate);
  router.add(['GET', 'POST'], '/{index}/_msearch/template', msearchTemplate);
  router.add(['GET', 'POST'], '/{index}/{type}/_msearch/template', msearchTemplate);

  const renderTemplate: Handler = (req) => {
    checkParams(req, []);
    requireBodyOrSource(req);
    const t = parseSearchTemplateRequest(bodyJson(req), req.params.id);
    return { status: 200, body: { template_output: parseJson(render(t)) } };
  };
  router.add(['GET', 'POST'], '/_render/template', renderTemplate);
  router.add(['GET', 'POST'], '/_render/template/{id}', renderTemplate);
}

/**
 * ES parses a rendered search body as a token stream and looks a query's name up as soon as it
 * reads it: in a body cut short, an unknown query name before the cut fails first
 * (`parsing_exception`), the end of input only after.
 */
function unknownQueryBeforeEnd(text: string): EsError | null {
  const closed = closeTruncatedJson(text);
  if (closed === null) return null;
  let body: unknown;
  try {
    body = parseJson(closed);
  } catch {
    return null;
  }
  const query = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).query : undefined; // prettier-ignore
  if (query === undefined) return null;
  try {
    parseQuery(query, ['query']);
  } catch (e) {
    if (e instanceof EsError && e.type === 'parsing_exception' && (e.reason ?? '').startsWith('no [query] registered for')) return e; // prettier-ignore
  }
  return null;
}
