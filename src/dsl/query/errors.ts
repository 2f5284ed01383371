/**
 * Query DSL errors that point into the request JSON. ES reports `line`/`col` for
 * `parsing_exception` and prefixes `x_content_parse_exception` reasons with `[line:col] `; the
 * parser only sees parsed JSON, so it records a `JsonLocation` (key path + token) per error and
 * `resolveErrorLocations` turns it into ES's form once the caller can map paths to the source.
 */
import { EsError } from '../../common/errors.js';

export type JsonPath = readonly (string | number)[];

/**
 * A Jackson token position: `key` is the field name token of the last path element, `value` the
 * first token of the value at `path` (`{`, `[` or the scalar), `end` its closing `}` / `]`.
 */
export interface JsonLocation {
  readonly path: JsonPath;
  readonly at: 'key' | 'value' | 'end';
}

interface Located {
  /** Rendered as `line`/`col` metadata (ParsingException). */
  readonly meta?: JsonLocation;
  /** Rendered as a `[line:col] ` reason prefix (XContentParseException.getMessage). */
  readonly prefix?: JsonLocation;
  /** Rendered as `line:col` in place of INLINE_LOCATION inside the reason. */
  readonly inline?: JsonLocation;
}

/** Stands for an XContentLocation printed inside a reason (`... found at [1:20]`). */
export const INLINE_LOCATION = '\u0001';

const located = new WeakMap<EsError, Located>();

/** The JSON locations recorded for an error (not for its causes). */
export function errorLocation(e: EsError): Located | undefined {
  return located.get(e);
}

function locate(e: EsError, info: Located): EsError {
  located.set(e, info);
  return e;
}

/** ES ParsingException at a token. */
export function parsingError(reason: string, at: JsonLocation, causedBy?: EsError): EsError {
  return locate(new EsError('parsing_exception', reason, 400, causedBy ? { causedBy } : {}), {
    meta: at,
  });
}

/** ES ParsingException wrapping an XContentParseException's message (ObjectParser users). */
export function parsingErrorFrom(cause: EsError, at: JsonLocation): EsError {
  const inner = located.get(cause);
  return locate(new EsError('parsing_exception', cause.reason, 400, { causedBy: cause }), {
    meta: at,
    ...(inner?.prefix ? { prefix: inner.prefix } : {}),
  });
}

/** An IllegalArgumentException whose message prints a token location (`... at [1:20]`). */
export function illegalArgumentAt(reason: string, at: JsonLocation): EsError {
  return locate(new EsError('illegal_argument_exception', reason, 400), { inline: at });
}

/** Any exception whose message prints a token location in place of INLINE_LOCATION. */
export function errorAt(type: string, reason: string, status: number, at: JsonLocation): EsError {
  return locate(new EsError(type, reason, status), { inline: at });
}

/** ES XContentParseException (ObjectParser): reason gets the `[line:col] ` prefix. */
export function xContentError(
  reason: string,
  at: JsonLocation,
  causedBy?: EsError,
  rootCauses?: EsError[],
): EsError {
  return locate(
    new EsError('x_content_parse_exception', reason, 400, {
      ...(causedBy ? { causedBy } : {}),
      ...(rootCauses ? { rootCauses } : {}),
    }),
    { prefix: at },
  );
}

/** ES NamedObjectNotFoundException (an XContentParseException). */
export function namedObjectNotFound(reason: string, at: JsonLocation): EsError {
  return locate(new EsError('named_object_not_found_exception', reason, 400), { prefix: at });
}

/** Position of a token in the source: 1-based line and column (Jackson's token location). */
export interface SourcePosition {
  readonly line: number;
  readonly col: number;
}

/**
 * Rebuilds `e` (and its `caused_by` chain) with ES's rendering of the recorded locations.
 * `position` maps a JSON location to the source; when it returns null the location is dropped.
 */
export function resolveErrorLocations(
  e: EsError,
  position: (loc: JsonLocation) => SourcePosition | null,
): EsError {
  const cause = e.causedBy ? resolveErrorLocations(e.causedBy, position) : undefined;
  const info = located.get(e);
  // an unwrapped parse error named as root cause shows its location there too
  const roots = e.rootCauses?.map((r) => (r === e ? r : resolveErrorLocations(r, position)));
  const rootsMoved = roots !== undefined && roots.some((r, i) => r !== e.rootCauses?.[i]);
  if (!info && cause === e.causedBy && !rootsMoved) return e;
  let reason = e.reason;
  const meta = { ...e.meta };
  if (info?.prefix) {
    const p = position(info.prefix);
    if (p && reason !== null) reason = `[${p.line}:${p.col}] ${reason}`;
  }
  if (info?.inline && reason !== null) {
    const p = position(info.inline);
    reason = reason.replace(INLINE_LOCATION, p ? `${p.line}:${p.col}` : 'UNKNOWN');
  }
  if (info?.meta) {
    const p = position(info.meta);
    if (p) {
      meta.line = p.line;
      meta.col = p.col;
    }
  }
  return new EsError(e.type, reason, e.status, {
    meta,
    ...(cause ? { causedBy: cause } : {}),
    ...(roots ? { rootCauses: roots } : {}),
    ...(e.headers ? { headers: e.headers } : {}),
  });
}

/** Re-roots the locations of an error raised while parsing JSON nested at `base`. */
export function rebaseErrorLocations(e: EsError, base: JsonPath): void {
  for (let cur: EsError | undefined = e; cur; cur = cur.causedBy) {
    const info = located.get(cur);
    if (!info) continue;
    const shift = (l: JsonLocation | undefined): JsonLocation | undefined =>
      l ? { path: [...base, ...l.path], at: l.at } : undefined;
    const meta = shift(info.meta);
    const prefix = shift(info.prefix);
    const inline = shift(info.inline);
    located.set(cur, {
      ...(meta ? { meta } : {}),
      ...(prefix ? { prefix } : {}),
      ...(inline ? { inline } : {}),
    });
  }
}

// ---- ES exceptions raised while building Lucene queries (no JSON location) -----------------

export const illegalArgument = (reason: string, causedBy?: EsError): EsError =>
  new EsError('illegal_argument_exception', reason, 400, causedBy ? { causedBy } : {});

export const illegalState = (reason: string): EsError =>
  new EsError('illegal_state_exception', reason, 500);

/** ElasticsearchParseException. */
export const esParseException = (reason: string, causedBy?: EsError): EsError =>
  new EsError('parse_exception', reason, 400, causedBy ? { causedBy } : {});

/** Plain ElasticsearchException (`exception`, 500). */
export const esException = (reason: string): EsError => new EsError('exception', reason, 500);

export const tooManyClauses = (max: number): EsError =>
  new EsError('too_many_clauses', `maxClauseCount is set to ${max}`, 400);

/** ES `ElasticsearchException.getExceptionName(e) + ":[" + e.getMessage() + "]"`. */
export function exceptionSummary(e: EsError): string {
  return `${e.type}:[${e.reason ?? ''}]`;
}
