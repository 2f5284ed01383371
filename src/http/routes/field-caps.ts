/**
 * `_field_caps` (ES 6.8 RestFieldCapabilitiesAction); the work is in engine/field-caps.ts.
 */
import { EsError, illegalArgument, xContentParse } from '../../common/errors.js';
import { fieldCaps } from '../../engine/field-caps.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN } from '../../engine/index-names.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyJson, hasBody, param, type Handler, type RestRequest } from '../rest.js';
import type { Router } from '../router.js';

const BODY_WARNING =
  'Specifying a request body is deprecated -- the [fields] request parameter should be used instead.';

const emptyFields = () => illegalArgument("specified fields can't be null or empty");

/** The requested fields: the `fields` parameter, or the deprecated body `{"fields": [...]}`. */
function requestedFields(req: RestRequest): string[] {
  if (hasBody(req) || req.query.has('source')) {
    req.warnings.push(BODY_WARNING);
    if (req.query.has('fields')) {
      throw illegalArgument(
        "can't specify a request body and [fields] request parameter, either specify a request body or the [fields] request parameter",
      );
    }
    const body = bodyJson(req);
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new EsError('parse_exception', 'request body is required', 400);
    let fields: string[] | undefined;
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (k !== 'fields')
        throw xContentParse(`[field_caps_request] unknown field [${k}], parser not found`);
      fields = (Array.isArray(v) ? v : [v]).map(String);
      if (fields.length === 0) throw emptyFields();
    }
    if (fields === undefined) {
      throw new EsError(
        'action_request_validation_exception',
        'Validation Failed: 1: no fields specified;',
        400,
      );
    }
    return [...new Set(fields)];
  }
  const fields = (param(req, 'fields') ?? '').split(',').filter((f) => f.length > 0);
  if (fields.length === 0) throw emptyFields();
  return [...new Set(fields)];
}

export function registerFieldCapsRoutes(router: Router<Handler>, node: NodeContext): void {
  const handler: Handler = (req) => {
    checkParams(req, ['fields', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards']);
    const fields = requestedFields(req);
    const targets = node.indices.resolve(
      req.params.index ?? '_all',
      indicesOptionsFrom(STRICT_EXPAND_OPEN, (n) => param(req, n)),
    );
    // a closed index has no shard to answer; ES leaves the failed index out of the merge
    const open = targets.filter((i) => !i.closed);
    const merged = fieldCaps(
      open.map((i) => ({ name: i.name, mapping: i.mapping })),
      fields,
    );
    return { status: 200, body: { fields: merged } };
  };
  router.add(['GET', 'POST'], '/_field_caps', handler);
  router.add(['GET', 'POST'], '/{index}/_field_caps', handler);
}
