/** Runs processor configs on a source the way a pipeline does, for the processor tests. */
import { newIngestDocument, sourceOf, type IngestDocument } from '../../../src/ingest/document.js';
import { parsePipeline } from '../../../src/ingest/parse.js';
import { executePipeline, type Pipeline } from '../../../src/ingest/processor.js';

export function pipelineOf(processors: unknown[], extra: Record<string, unknown> = {}): Pipeline {
  return parsePipeline('p', { processors, ...extra });
}

export function docOf(source: Record<string, unknown>): IngestDocument {
  return newIngestDocument({ _index: 'i', _type: '_doc', _id: '1' }, structuredClone(source));
}

export function run(
  processors: unknown[],
  source: Record<string, unknown>,
  pipelines: Record<string, Pipeline> = {},
): Record<string, unknown> | null {
  const doc = runDoc(processors, source, pipelines);
  return doc === null ? null : sourceOf(doc);
}

export function runDoc(
  processors: unknown[],
  source: Record<string, unknown>,
  pipelines: Record<string, Pipeline> = {},
): IngestDocument | null {
  return executePipeline(pipelineOf(processors), docOf(source), {
    getPipeline: (id) => pipelines[id],
    executing: new Set(),
    trace: null,
  });
}

/** The innermost cause of a pipeline failure (what the processor itself threw). */
export function rootFailure(f: () => unknown): { type: string; reason: string | null } {
  try {
    f();
  } catch (e) {
    let c = e as { type: string; reason: string | null; causedBy?: unknown };
    while (c.causedBy) c = c.causedBy as typeof c;
    return { type: c.type, reason: c.reason };
  }
  throw new Error('expected a failure');
}
