/**
 * The body of a `_count` request (RestCountAction: a `query` and nothing else), parsed to its
 * search request and query tree, and a bounded memo of that parse keyed by the body text.
 *
 * Clients repeat the same few count bodies (dashboards, pollers, term counts over a small set of
 * values), and parsing them costs more than counting: JSON with the duplicate-key check, then
 * the query DSL. The parse depends on the text alone (and the node's static nesting limit), not
 * on the mappings, the time or the URI parameters: lowering, which does, still runs per request.
 * A body that fails to parse is not kept, so it throws the same error every time.
 */
import { EsError } from '../../common/errors.js';
import { parseJson } from '../../common/json.js';
import type { QueryNode } from '../query/index.js';
import { nodeMaxNestedQueryDepth } from '../query/parse/inner.js';
import { parseSearch } from './execute.js';
import { parseSearchBody, type SearchRequest } from './request.js';

export interface ParsedCount {
  readonly sreq: SearchRequest;
  readonly query: QueryNode;
}

/** The search request and query of a count body (`undefined`: no body, a match_all). */
export function parseCountBody(json: unknown): { sreq: SearchRequest; query: QueryNode } {
  const body = (json ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(body))
    if (k !== 'query')
      throw new EsError('parsing_exception', `request does not support [${k}]`, 400);
  const sreq = parseSearchBody(body.query ? { query: body.query } : {});
  return { sreq, query: parseSearch(sreq).query };
}

/** JSON text as `bodyJson` reads it: blank text is no body. */
const parseText = (text: string): unknown =>
  text.trim().length === 0 ? undefined : parseJson(text);

export const COUNT_BODY_MEMO_SIZE = 256;

/**
 * `parseCountBody(JSON of text)`, remembered for the last `max` distinct texts that parsed. The
 * result is shared between requests: callers must not change it (URI parameters that amend the
 * request, such as `q`, go through `parseCountBody` on a fresh parse instead).
 */
export function countBodyMemo(max = COUNT_BODY_MEMO_SIZE): (text: string) => ParsedCount {
  const memo = new Map<string, ParsedCount>();
  let depth = nodeMaxNestedQueryDepth();
  return (text) => {
    // the nesting limit is a static node setting, but tests and embedders may set it again
    const d = nodeMaxNestedQueryDepth();
    if (d !== depth) {
      memo.clear();
      depth = d;
    }
    const hit = memo.get(text);
    if (hit !== undefined) return hit;
    const parsed = parseCountBody(parseText(text));
    // oldest first out: Map keeps insertion order
    if (memo.size >= max) memo.delete(memo.keys().next().value!);
    memo.set(text, parsed);
    return parsed;
  };
}
