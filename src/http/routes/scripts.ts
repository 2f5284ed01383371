/**
 * Stored script APIs (ES RestPutStoredScriptAction, RestGetStoredScriptAction,
 * RestDeleteStoredScriptAction): PUT/POST `_scripts/{id}[/{context}]`, GET and DELETE
 * `_scripts/{id}`. A script is compiled when it is stored only if a context is named, as in ES.
 */
import { EsError, illegalArgument } from '../../common/errors.js';
import { compileScript } from '../../dsl/script/index.js';
import { compileTemplate } from '../../dsl/template/index.js';
import { MAX_SCRIPT_SIZE_BYTES, parseStoredScript } from '../../engine/stored-scripts.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyJson, hasBody, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';

/** ES 6.8's script contexts (ScriptModule.CORE_CONTEXTS and the default modules'). */
const CONTEXTS = new Set([
  'search',
  'aggs',
  'update',
  'ingest',
  'filter',
  'score',
  'field',
  'terms_set',
  'similarity',
  'similarity_weight',
  'number_sort',
  'string_sort',
  'moving-function',
  'bucket_aggregation',
  'bucket_selector_aggregation',
  'aggs_init',
  'aggs_map',
  'aggs_combine',
  'aggs_reduce',
  'executable',
  'painless_test',
  'template',
  'xpack_template',
]);

export function registerScriptRoutes(router: Router<Handler>, node: NodeContext): void {
  const scripts = node.indices.scripts;
  const put: Handler = async (req) => {
    checkParams(req, ['timeout', 'master_timeout', 'context']);
    const id = req.params.id!;
    const context = req.params.context ?? param(req, 'context');
    if (!hasBody(req)) throw new EsError('parse_exception', 'request body is required', 400);
    const script = parseStoredScript(bodyJson(req));
    // PutStoredScriptRequest.validate
    if (id.includes('#'))
      throw new EsError(
        'action_request_validation_exception',
        "Validation Failed: 1: id cannot contain '#' for stored script;",
        400,
      );
    const size = req.body!.length;
    if (size > MAX_SCRIPT_SIZE_BYTES)
      throw illegalArgument(
        `exceeded max allowed stored script size in bytes [${MAX_SCRIPT_SIZE_BYTES}] with size [${size}] for script [${id}]`,
      );
    if (script.lang !== 'painless' && script.lang !== 'mustache')
      throw illegalArgument(`unable to put stored script with unsupported lang [${script.lang}]`);
    // a template that does not compile is refused when stored
    if (script.lang === 'mustache') compileTemplate(script.source);
    if (context !== undefined) {
      if (!CONTEXTS.has(context)) throw illegalArgument(`Unknown context [${context}]`);
      if (script.lang === 'painless')
        compileScript(script.source, { lang: script.lang, variables: ['ctx', '_score'] });
    }
    await scripts.put(id, script);
    return { status: 200, body: { acknowledged: true } };
  };
  router.add(['PUT', 'POST'], '/_scripts/{id}', put);
  router.add(['PUT', 'POST'], '/_scripts/{id}/{context}', put);

  router.add('GET', '/_scripts/{id}', (req) => {
    checkParams(req, ['master_timeout']);
    const id = req.params.id!;
    const script = scripts.get(id);
    if (!script) return { status: 404, body: { _id: id, found: false } };
    return { status: 200, body: { _id: id, found: true, script } };
  });

  router.add('DELETE', '/_scripts/{id}', async (req) => {
    checkParams(req, ['timeout', 'master_timeout']);
    await scripts.delete(req.params.id!);
    return { status: 200, body: { acknowledged: true } };
  });
}
