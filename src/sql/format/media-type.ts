/**
 * Response format selection for `/_sql` (ES RestSqlQueryAction + TextFormat + XContentType): the
 * `format` URL parameter wins over `Accept` (where "*\/*" means unspecified), which wins over
 * Content-Type. Text formats (txt, csv, tsv) and XContent formats (json, yaml, cbor, smile) each
 * have their short name and media type; anything else is "invalid format [x]".
 */
import { javaIllegalArgument } from '../../functions/errors.js';
import { csvHasHeader } from './delimited.js';

export type TextFormatName = 'txt' | 'csv' | 'tsv';
export type XContentFormatName = 'json' | 'yaml' | 'cbor' | 'smile';
export type FormatName = TextFormatName | XContentFormatName;

/** Media types without parameters (TextFormat.contentType / XContentType.mediaTypeWithoutParameters). */
export const MEDIA_TYPES: Readonly<Record<FormatName, string>> = Object.freeze({
  txt: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  yaml: 'application/yaml',
  cbor: 'application/cbor',
  smile: 'application/smile',
});

const TEXT_ORDER: readonly TextFormatName[] = ['txt', 'csv', 'tsv'];
const XCONTENT_ORDER: readonly XContentFormatName[] = ['json', 'smile', 'yaml', 'cbor'];

function matches(accept: string, format: FormatName): boolean {
  const mt = MEDIA_TYPES[format];
  const lower = accept.toLowerCase();
  return lower === mt || lower.startsWith(mt + ';') || lower === format;
}

/** XContentType.fromMediaTypeOrFormat (null when not an XContent type). */
export function xcontentFormatOf(accept: string | null | undefined): XContentFormatName | null {
  if (accept === null || accept === undefined) return null;
  for (const f of XCONTENT_ORDER) if (matches(accept, f)) return f;
  if (accept.toLowerCase().startsWith('application/*')) return 'json';
  return null;
}

/** TextFormat.fromMediaTypeOrFormat: throws "invalid format [x]". */
export function textFormatOf(accept: string): TextFormatName {
  for (const f of TEXT_ORDER) if (matches(accept, f)) return f;
  throw javaIllegalArgument(`invalid format [${accept}]`);
}

export interface FormatRequest {
  /** The `format` URL parameter. */
  readonly format?: string | null;
  readonly accept?: string | null;
  readonly contentType?: string | null;
  /** The request body's `columnar` flag. */
  readonly columnar?: boolean;
}

/**
 * RestSqlQueryAction's choice of output format; throws ES's errors for unknown formats and for
 * `columnar` with a text format.
 */
export function selectFormat(req: FormatRequest): FormatName {
  let accept = req.format ?? null;
  if (accept === null) {
    accept = req.accept ?? null;
    if (accept === '*/*') accept = null;
  }
  if (accept === null) accept = req.contentType ?? null;
  const x = accept === null ? 'json' : xcontentFormatOf(accept);
  if (x) return x;
  const t = textFormatOf(accept!);
  if (req.columnar) {
    throw javaIllegalArgument(
      'Invalid use of [columnar] argument: cannot be used in combination with txt, csv or tsv formats',
    );
  }
  return t;
}

/** The response Content-Type for a format (CSV reports whether it has a header). */
export function responseContentType(
  format: FormatName,
  opts: { headerParam?: string | null; acceptHeaders?: readonly string[] } = {},
): string {
  switch (format) {
    case 'csv':
      return `text/csv; charset=utf-8; header=${csvHasHeader(opts.headerParam, opts.acceptHeaders) ? 'present' : 'absent'}`;
    case 'tsv':
      return 'text/tab-separated-values; charset=utf-8';
    case 'json':
      return 'application/json; charset=UTF-8';
    default:
      return MEDIA_TYPES[format];
  }
}

export const isTextFormat = (f: FormatName): f is TextFormatName =>
  f === 'txt' || f === 'csv' || f === 'tsv';
