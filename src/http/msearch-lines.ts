/**
 * The _msearch body as ES 6.8 reads it (MultiSearchRequest.readMultiLineFormat): pairs of a header
 * line and a body line, a leading newline skipped, an unterminated last line refused, and only the
 * header keys ES knows applied (any other is a deprecation warning, rejected from 7.0 on).
 */
import { illegalArgument } from '../common/errors.js';
import { parseJson } from '../common/json.js';
import { decodeJson } from '../common/json-bytes.js';

export interface MsearchItem {
  /** The header's keys under their snake_case names (`indices` → `index`, `searchType` → ...). */
  header: Map<string, unknown>;
  /** The body line's text, for locating parse errors in it. */
  bodyLine: string;
  body: unknown;
}

/** Header keys and their aliases (MultiSearchRequest.readMultiLineFormat). */
const HEADER_KEYS: Record<string, string> = {
  index: 'index',
  indices: 'index',
  type: 'type',
  types: 'type',
  search_type: 'search_type',
  searchType: 'search_type',
  request_cache: 'request_cache',
  requestCache: 'request_cache',
  preference: 'preference',
  routing: 'routing',
  allow_partial_search_results: 'allow_partial_search_results',
  expand_wildcards: 'expand_wildcards',
  expandWildcards: 'expand_wildcards',
  ignore_unavailable: 'ignore_unavailable',
  ignoreUnavailable: 'ignore_unavailable',
  allow_no_indices: 'allow_no_indices',
  allowNoIndices: 'allow_no_indices',
  ignore_throttled: 'ignore_throttled',
  ignoreThrottled: 'ignore_throttled',
};

/**
 * The items of `data`, read lazily so a line that does not parse fails the request only once the
 * items before it have been read (ES reads and parses them in order).
 */
export function* msearchItems(data: Buffer, warnings: string[]): Generator<MsearchItem> {
  let from = data[0] === 0x0a ? 1 : 0; // "support first line with \n"
  const nextLine = (): [number, number] | null => {
    const nl = data.indexOf(0x0a, from);
    if (nl < 0) {
      if (from !== data.length)
        throw illegalArgument('The msearch request must be terminated by a newline [\n]');
      return null;
    }
    const line: [number, number] = [from, nl];
    from = nl + 1;
    return line;
  };
  const text = ([a, b]: [number, number]) => decodeJson(data, a, b).trim();
  for (;;) {
    const headerAt = nextLine();
    if (headerAt === null) return;
    const header = new Map<string, unknown>();
    const headerText = text(headerAt);
    if (headerText !== '') {
      const parsed = parseJson(headerText);
      // ES reads the header with parser.map(): a line that is not an object gives no fields
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        for (const [k, v] of Object.entries(parsed)) {
          const key = HEADER_KEYS[k];
          if (key !== undefined) header.set(key, v);
          else
            warnings.push(
              `key [${k}] is not supported in the metadata section and will be rejected in 7.x`,
            );
        }
      }
    }
    const bodyAt = nextLine();
    if (bodyAt === null) return;
    const bodyLine = text(bodyAt);
    yield { header, bodyLine, body: bodyLine === '' ? {} : parseJson(bodyLine) };
  }
}
