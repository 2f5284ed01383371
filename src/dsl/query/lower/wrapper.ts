/**
 * The `wrapper` query (ES WrapperQueryBuilder.doRewrite): the base64-decoded source is parsed as
 * a query at rewrite time; its parse errors carry line/col within the decoded source.
 */
import { EsError } from '../../../common/errors.js';
import { parseJson } from '../../../common/json.js';
import type { Query } from '../../../search/query/query.js';
import { resolveErrorLocations } from '../errors.js';
import { locateInJson } from '../json-location.js';
import type { WrapperNode } from '../nodes.js';
import { parseQueryJson } from '../parse/index.js';
import type { LowerState } from './context.js';
import { toQuery } from './lower.js';

export function lowerWrapper(node: WrapperNode, st: LowerState): Query | null {
  const json = parseJson(node.source);
  let inner;
  try {
    inner = parseQueryJson(json);
  } catch (e) {
    if (e instanceof EsError)
      throw resolveErrorLocations(e, (loc) => locateInJson(node.source, loc));
    throw e;
  }
  return toQuery(inner, st);
}
