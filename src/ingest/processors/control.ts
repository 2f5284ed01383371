/** Processors that steer the run: drop, fail, foreach, pipeline. */
import { EsError, illegalArgument } from '../../common/errors.js';
import { configErrorFor, readBoolean, readMap, readString } from '../config.js';
import { javaType, setField } from '../document.js';
import { runProcessor, type PipelineProcessor } from '../processor.js';
import { compileTemplate } from '../template.js';
import { fieldValue, leaf, type ProcessorFactory } from './common.js';

const drop: ProcessorFactory = (c) => leaf(c, () => null);

const fail: ProcessorFactory = (c) => {
  const message = compileTemplate(readString(c, 'message'));
  return leaf(c, (doc) => {
    throw new EsError('fail_processor_exception', message(doc), 500);
  });
};

const foreach: ProcessorFactory = (c, read) => {
  const field = readString(c, 'field');
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  const cfg = readMap(c, 'processor');
  const entries = Object.entries(cfg);
  if (entries.length !== 1)
    throw configErrorFor(c, 'processor', 'Must specify exactly one processor type');
  const inner = read(entries[0]![0], entries[0]![1]);
  return leaf(c, (doc, ctx) => {
    const v = fieldValue(doc, field, ignoreMissing);
    if ((v === undefined || v === null) && ignoreMissing) return;
    if (v === null || v === undefined)
      throw illegalArgument(`field [${field}] is null, cannot loop over its elements.`);
    if (!Array.isArray(v))
      throw illegalArgument(`field [${field}] of type [${javaType(v)}] cannot be cast to [java.util.List]`); // prettier-ignore
    const ing = doc.ingestMetadata;
    const out: unknown[] = [];
    for (const value of v) {
      const previous = ing._value;
      ing._value = value;
      try {
        runProcessor(inner, doc, { ...ctx, trace: null });
      } finally {
        out.push(ing._value);
        if (previous === undefined) delete ing._value;
        else ing._value = previous;
      }
    }
    setField(doc, field, out);
  });
};

const pipeline: ProcessorFactory = (c): PipelineProcessor => {
  const name = readString(c, 'name');
  return { kind: 'pipeline', type: 'pipeline', tag: c.tag, name };
};

export const CONTROL_PROCESSORS: Record<string, ProcessorFactory> = {
  drop,
  fail,
  foreach,
  pipeline,
};
