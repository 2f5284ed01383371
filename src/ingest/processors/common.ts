/** Shared pieces of processors: the factory type and ES AbstractStringProcessor. */
import { illegalArgument } from '../../common/errors.js';
import { readBoolean, readString, type ConfigCtx } from '../config.js';
import { getField, hasField, javaType, setField, type IngestDocument } from '../document.js';
import type { ExecContext, LeafProcessor, Processor } from '../processor.js';

export type ReadProcessor = (type: string, config: unknown) => Processor;
export type ProcessorFactory = (c: ConfigCtx, read: ReadProcessor) => Processor;

export function leaf(
  c: ConfigCtx,
  run: (doc: IngestDocument, ctx: ExecContext) => IngestDocument | null | void,
): LeafProcessor {
  return {
    kind: 'leaf',
    type: c.type!,
    tag: c.tag,
    run: (doc, ctx) => {
      const r = run(doc, ctx);
      return r === undefined ? doc : r;
    },
  };
}

/** getFieldValue(path, type, ignoreMissing): undefined when missing and ignored. */
export function fieldValue(doc: IngestDocument, path: string, ignoreMissing: boolean): unknown {
  if (ignoreMissing && !hasField(doc, path)) return undefined;
  return getField(doc, path);
}

export function castString(v: unknown, field: string): string {
  if (typeof v !== 'string')
    throw illegalArgument(`field [${field}] of type [${javaType(v)}] cannot be cast to [java.lang.String]`); // prettier-ignore
  return v;
}

/**
 * ES AbstractStringProcessor: `field`, `ignore_missing`, `target_field`; a string in, the
 * processed value out.
 */
export function stringProcessor(map: (s: string) => unknown): ProcessorFactory {
  return (c) => {
    const field = readString(c, 'field');
    const ignoreMissing = readBoolean(c, 'ignore_missing', false);
    const target = readString(c, 'target_field', field);
    return leaf(c, (doc) => {
      const v = fieldValue(doc, field, ignoreMissing);
      if ((v === undefined || v === null) && ignoreMissing) return;
      if (v === null || v === undefined)
        throw illegalArgument(`field [${field}] is null, cannot process it.`);
      setField(doc, target, map(castString(v, field)));
    });
  };
}
