/**
 * Ingest APIs (ES RestPutPipelineAction, RestGetPipelineAction, RestDeletePipelineAction,
 * RestSimulatePipelineAction, GrokProcessorGetAction).
 */
import { EsError } from '../../common/errors.js';
import type { JsonMap } from '../../ingest/document.js';
import { builtinPatterns } from '../../ingest/grok.js';
import type { IngestService } from '../../ingest/service.js';
import { simulate } from '../../ingest/simulate.js';
import { checkParams } from '../params.js';
import { bodyJson, boolParam, hasBody, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';

function bodyMap(req: RestRequest): JsonMap {
  if (!hasBody(req)) throw new EsError('parse_exception', 'request body is required', 400);
  const b = bodyJson(req);
  if (b === null || typeof b !== 'object' || Array.isArray(b))
    throw new EsError('parse_exception', 'request body is required', 400);
  return b as JsonMap;
}

export function registerIngestRoutes(router: Router<Handler>, ingest: IngestService): void {
  router.add('PUT', '/_ingest/pipeline/{id}', async (req) => {
    checkParams(req, ['timeout', 'master_timeout']);
    await ingest.put(req.params.id!, bodyMap(req));
    return { status: 200, body: { acknowledged: true } };
  });

  const get: Handler = (req) => {
    checkParams(req, ['master_timeout']);
    const ids = req.params.id ? req.params.id.split(',').filter((s) => s.length > 0) : null;
    const found = ingest.get(ids);
    const body: JsonMap = {};
    for (const [id, c] of found) body[id] = c;
    // ES answers 404 with an empty object when named pipelines are missing
    return { status: found.length === 0 && ids !== null ? 404 : 200, body };
  };
  router.add('GET', '/_ingest/pipeline', get);
  router.add('GET', '/_ingest/pipeline/{id}', get);

  router.add('DELETE', '/_ingest/pipeline/{id}', async (req) => {
    checkParams(req, ['timeout', 'master_timeout']);
    await ingest.delete(req.params.id!);
    return { status: 200, body: { acknowledged: true } };
  });

  const sim: Handler = (req) => {
    checkParams(req, ['verbose']);
    const body = simulate(ingest, req.params.id ?? null, bodyMap(req), boolParam(req, 'verbose', false)); // prettier-ignore
    return { status: 200, body };
  };
  router.add(['GET', 'POST'], '/_ingest/pipeline/_simulate', sim);
  router.add(['GET', 'POST'], '/_ingest/pipeline/{id}/_simulate', sim);

  router.add('GET', '/_ingest/processor/grok', () => {
    const bank = builtinPatterns();
    const patterns: JsonMap = {};
    for (const k of Object.keys(bank).sort()) patterns[k] = bank[k];
    return { status: 200, body: { patterns } };
  });
}
