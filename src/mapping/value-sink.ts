/**
 * What parsing one field value writes to (the document being built) and the helpers every value
 * parser shares: XContentParser.text() semantics and the pluggable date parser.
 */
import type { EsError } from '../common/errors.js';
import type { FieldValue } from './types.js';
import type { MappingContext } from './context.js';
import type { FieldNode, RootNode } from './build.js';
import { asEsError, illegalState } from './errors.js';
import { numberText } from './number-values.js';
import { tokenName } from './geo.js';
import { builtinParseDate } from './dates.js';

export interface ValueSink {
  readonly ctx: MappingContext;
  /** Document id for error messages ('null' when unknown). */
  readonly id: string;
  /** The mapping the document is parsed with (a percolator query's fields must be in it). */
  readonly root?: RootNode;
  /** The document's routing (join fields require one on children); undefined when unknown. */
  readonly routing?: string | null;
  add(field: FieldNode, value: FieldValue): void;
  ignore(path: string): void;
  /** The field has a value that indexes no term here (geo_shape); counts for `_field_names`. */
  markPresent?(path: string): void;
}

/** XContentParser.text(): values only (numbers in their JSON spelling). */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  throw illegalState(`Can't get text on a ${tokenName(v)}`);
}

export const isIllegalArgument = (e: EsError) =>
  e.type === 'illegal_argument_exception' || e.type === 'number_format_exception';

function dateParser(ctx: MappingContext) {
  return ctx.parseDate ?? builtinParseDate;
}

export function parseDateText(
  ctx: MappingContext,
  text: string,
  format: string,
  locale?: string,
): number {
  try {
    return dateParser(ctx)(text, format, locale);
  } catch (e) {
    throw asEsError(e);
  }
}
