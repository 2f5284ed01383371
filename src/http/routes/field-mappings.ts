/**
 * GET _mapping/field/{fields} (ES 6.8 RestGetFieldMappingAction); the work is in
 * engine/field-mappings.ts.
 */
import { illegalArgument } from '../../common/errors.js';
import { getFieldMappings, renderFieldMappings } from '../../engine/field-mappings.js';
import { indicesOptionsFrom, STRICT_EXPAND_OPEN } from '../../engine/index-names.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';

const TYPES_WARNING =
  "[types removal] The parameter include_type_name should be explicitly specified in get field mapping requests to prepare for 7.0. In 7.0 include_type_name will default to 'false', which means responses will omit the type name in mapping definitions.";

/** ES RestRequest.paramAsStringArrayOrEmptyIfAll. */
export function listOrEmptyIfAll(v: string | undefined): string[] {
  if (v === undefined || v === '' || v === '_all' || v === '*') return [];
  return v.split(',');
}

export function registerFieldMappingRoutes(router: Router<Handler>, node: NodeContext): void {
  const handler: Handler = (req) => {
    checkParams(req, [
      'include_type_name',
      'include_defaults',
      'local',
      'ignore_unavailable',
      'allow_no_indices',
      'expand_wildcards',
    ]);
    const indexParam = req.params.index;
    const requestedIndices = indexParam ? indexParam.split(',') : [];
    const types = listOrEmptyIfAll(req.params.type);
    const fields = (req.params.fields ?? '').split(',').filter((f) => f.length > 0);
    const includeTypeName = boolParam(req, 'include_type_name', true);
    if (!req.query.has('include_type_name')) req.warnings.push(TYPES_WARNING);
    if (!includeTypeName && types.length > 0) {
      throw illegalArgument(
        'Cannot set include_type_name=false and specify types at the same time.',
      );
    }
    const includeDefaults = boolParam(req, 'include_defaults', false);
    const targets = node.indices.resolve(
      indexParam ?? '_all',
      indicesOptionsFrom(STRICT_EXPAND_OPEN, (n) => param(req, n)),
    );
    // a closed index has no shard to answer; ES drops the failed per-index request
    const open = targets.filter((i) => !i.closed);
    const result = getFieldMappings(
      open.map((i) => ({ name: i.name, mapping: i.mapping })),
      { types, fields, includeDefaults },
    );
    const { status, body } = renderFieldMappings(result, {
      requested: { indices: requestedIndices.length, types: types.length, fields: fields.length },
      includeTypeName,
    });
    return { status, body };
  };
  for (const p of [
    '/_mapping/field/{fields}',
    '/_mapping/{type}/field/{fields}',
    '/{index}/_mapping/field/{fields}',
    '/{index}/{type}/_mapping/field/{fields}',
    '/{index}/_mapping/{type}/field/{fields}',
  ]) {
    router.add('GET', p, handler);
  }
}
