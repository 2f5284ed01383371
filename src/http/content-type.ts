/**
 * The Content-Type checks of ES 6.8's REST layer: RestRequest.parseContentType (a header that is
 * not `type/subtype` is a 400 `content_type_header_exception`, answered before routing) and
 * RestController.dispatchRequest (a body whose type is not JSON, SMILE, YAML or CBOR is a 406,
 * NDJSON only for the APIs that read a stream of lines, which in turn refuse YAML and CBOR).
 */
import { EsError } from '../common/errors.js';
import type { RestResponse } from './rest.js';

export type XContentType = 'JSON' | 'SMILE' | 'YAML' | 'CBOR';

const MEDIA_TYPES: Record<string, XContentType> = {
  'application/json': 'JSON',
  'application/smile': 'SMILE',
  'application/yaml': 'YAML',
  'application/cbor': 'CBOR',
};

// ES RestRequest.TCHAR_PATTERN, `A-z` and all (it also takes [ \ ] ^ _ and `)
const TCHAR = /^[a-zA-z0-9!#$%&'*+\-.^_`|~]+$/;

/** Java's String.split, which drops trailing empty strings. */
function javaSplit(s: string, re: RegExp): string[] {
  const parts = s.split(re);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** The last header parsed and its type: clients send the same Content-Type on every request. */
let lastHeader: string | null = null;
let lastType: XContentType | null = null;

/** ES RestRequest.parseContentType: the type of a header, null when ES has no parser for it. */
export function parseContentType(header: string): XContentType | null {
  if (header === lastHeader) return lastType;
  const type = parseHeader(header);
  lastHeader = header;
  lastType = type;
  return type;
}

function parseHeader(header: string): XContentType | null {
  const elements = javaSplit(header, /[ \t]*;/);
  if (elements.length === 0) throw contentTypeHeader('empty Content-Type header');
  const media = javaSplit(elements[0]!, /\//);
  if (media.length !== 2 || !TCHAR.test(media[0]!) || !TCHAR.test(media[1]!.trim()))
    throw contentTypeHeader(`invalid Content-Type header [${header}]`);
  return MEDIA_TYPES[elements[0]!.toLowerCase()] ?? null;
}

/** ES wraps the IllegalArgumentException in RestRequest.ContentTypeHeaderException. */
function contentTypeHeader(reason: string): EsError {
  return new EsError(
    'content_type_header_exception',
    `java.lang.IllegalArgumentException: ${reason}`,
    400,
    { causedBy: new EsError('illegal_argument_exception', reason, 400) },
  );
}

/** BytesRestResponse.createSimpleErrorResponse. */
const simpleError = (status: number, error: string): RestResponse => ({
  status,
  error: true,
  body: { error, status },
});

/**
 * RestController.dispatchRequest for a routed request with a body: the 406 ES answers instead of
 * running the handler, or null. `streams`: the API reads NDJSON (_bulk, _msearch).
 */
export function refusedContentType(
  header: string | undefined,
  streams: boolean,
): RestResponse | null {
  if (header === undefined) return simpleError(406, 'Content-Type header is missing');
  const type = parseContentType(header);
  if (type === null) {
    if (streams && header.toLowerCase() === 'application/x-ndjson') return null;
    return simpleError(406, `Content-Type header [${header}] is not supported`);
  }
  if (streams && type !== 'JSON' && type !== 'SMILE')
    return simpleError(406, `Content-Type [${type}] does not support stream parsing. Use JSON or SMILE instead`); // prettier-ignore
  return null;
}

/** The APIs that take a stream of NDJSON lines (ES RestHandler.supportsContentStream). */
export const readsStream = (path: string): boolean =>
  /\/_(bulk|msearch|msearch\/template)\/*$/.test(path);
