/**
 * The processor model (ES Processor, CompoundProcessor, ConditionalProcessor, PipelineProcessor)
 * and how a pipeline's processors run: failures wrapped with the processor's type and tag,
 * `ignore_failure`, `on_failure` with the `_ingest.on_failure_*` fields, a drop ending the run,
 * and the verbose simulate trace (ES TrackingResultProcessor).
 */
import { EsError } from '../common/errors.js';
import { copyDocument, type IngestDocument } from './document.js';

/** What a pipeline run may consult: stored pipelines (pipeline processor) and its trace. */
export interface ExecContext {
  getPipeline(id: string): Pipeline | undefined;
  /** Pipelines being executed (cycle detection, ES IngestDocument.executedPipelines). */
  readonly executing: Set<string>;
  /** Results of each processor, when simulating verbosely. */
  readonly trace: ProcessorResult[] | null;
}

export interface ProcessorResult {
  readonly tag: string | null;
  readonly doc: IngestDocument | null;
  readonly error: EsError | null;
  readonly ignoredError: EsError | null;
}

/** A processor doing one thing to the document; null means "drop the document". */
export interface LeafProcessor {
  readonly kind: 'leaf';
  readonly type: string;
  readonly tag: string | null;
  run(doc: IngestDocument, ctx: ExecContext): IngestDocument | null;
}

export interface CompoundProcessor {
  readonly kind: 'compound';
  readonly ignoreFailure: boolean;
  readonly processors: readonly Processor[];
  readonly onFailure: readonly Processor[];
}

export interface ConditionalProcessor {
  readonly kind: 'conditional';
  readonly tag: string | null;
  readonly condition: (doc: IngestDocument) => boolean;
  readonly inner: Processor;
}

/** ES PipelineProcessor: runs another stored pipeline. */
export interface PipelineProcessor {
  readonly kind: 'pipeline';
  readonly type: 'pipeline';
  readonly tag: string | null;
  readonly name: string;
}

export type Processor = LeafProcessor | CompoundProcessor | ConditionalProcessor | PipelineProcessor; // prettier-ignore

export interface Pipeline {
  readonly id: string;
  readonly description: string | null;
  readonly version: number | null;
  readonly compound: CompoundProcessor;
}

export function processorType(p: Processor): string {
  switch (p.kind) {
    case 'leaf':
    case 'pipeline':
      return p.type;
    case 'compound':
      return p.processors.length > 0 ? processorType(p.processors[0]!) : 'compound';
    case 'conditional':
      // ES ConditionalProcessor's own type names a failure, not the wrapped processor's
      return 'conditional';
  }
}

export function processorTag(p: Processor): string | null {
  switch (p.kind) {
    case 'compound':
      return p.processors.length > 0 ? processorTag(p.processors[0]!) : null;
    default:
      return p.tag;
  }
}

// --- Java exception rendering -------------------------------------------------------------------

const JAVA_CLASSES: Record<string, string> = {
  illegal_argument_exception: 'java.lang.IllegalArgumentException',
  illegal_state_exception: 'java.lang.IllegalStateException',
  number_format_exception: 'java.lang.NumberFormatException',
  fail_processor_exception: 'org.elasticsearch.ingest.common.FailProcessorException',
};

/** Throwable.toString of an error (ElasticsearchException prints `SimpleName[reason]`). */
export function javaToString(e: EsError): string {
  const cls = JAVA_CLASSES[e.type];
  if (cls) return e.reason === null ? cls : `${cls}: ${e.reason}`;
  const simple = e.type.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  return `${simple}[${e.reason ?? ''}]`;
}

export function asEsError(e: unknown): EsError {
  if (e instanceof EsError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new EsError('illegal_argument_exception', msg, 400);
}

const hasProcessorHeader = (e: EsError) =>
  (e.meta.header as Record<string, unknown> | undefined)?.processor_type !== undefined;

/**
 * ES CompoundProcessor.newCompoundProcessorException: an error already carrying a processor
 * header passes through; any other becomes `exception` around an IllegalArgumentException.
 */
export function wrapProcessorError(err: unknown, type: string, tag: string | null): EsError {
  const e = asEsError(err);
  if (hasProcessorHeader(e)) return e;
  const inner = javaToString(e);
  const iae = new EsError('illegal_argument_exception', inner, 400, { causedBy: e });
  const header: Record<string, string> = { processor_type: type };
  if (tag !== null) header.processor_tag = tag;
  return new EsError('exception', `java.lang.IllegalArgumentException: ${inner}`, 500, {
    meta: { header },
    causedBy: iae,
  });
}

/** The innermost cause's message (ES getRootCause().getMessage()). */
function rootMessage(e: EsError): string | null {
  let c = e;
  while (c.causedBy) c = c.causedBy;
  return c.reason;
}

// --- execution ---------------------------------------------------------------------------------

/** Runs a pipeline on `doc`; null when a processor dropped it. Errors are wrapped EsErrors. */
export function executePipeline(
  pipeline: Pipeline,
  doc: IngestDocument,
  ctx: ExecContext,
): IngestDocument | null {
  // the pipeline a request names is not itself tracked for cycles, only those it calls (ES)
  return runCompound(pipeline.compound, doc, ctx);
}

/** IngestDocument.executePipeline: a pipeline run by a pipeline processor. */
function executeNestedPipeline(
  pipeline: Pipeline,
  doc: IngestDocument,
  ctx: ExecContext,
): IngestDocument | null {
  if (ctx.executing.has(pipeline.id))
    throw new EsError(
      'illegal_state_exception',
      `Cycle detected for pipeline: ${pipeline.id}`,
      500,
    );
  ctx.executing.add(pipeline.id);
  try {
    return runCompound(pipeline.compound, doc, ctx);
  } finally {
    ctx.executing.delete(pipeline.id);
  }
}

/** Counters of one processor (ES IngestMetric), reported in nodes stats. */
export interface ProcessorMetric {
  count: number;
  time_in_millis: number;
  current: number;
  failed: number;
}

const metrics = new WeakMap<Processor, ProcessorMetric>();

/** The counters of a processor of a compiled pipeline. */
export function metricOf(p: Processor): ProcessorMetric {
  let m = metrics.get(p);
  if (!m) {
    m = { count: 0, time_in_millis: 0, current: 0, failed: 0 };
    metrics.set(p, m);
  }
  return m;
}

/** Measures one processor run (a conditional is measured only when its condition held). */
function measured<T>(p: Processor, run: () => T): T {
  const m = metricOf(p);
  const t0 = performance.now();
  m.current++;
  try {
    return run();
  } catch (e) {
    m.failed++;
    throw e;
  } finally {
    m.current--;
    m.count++;
    m.time_in_millis += Math.floor(performance.now() - t0);
  }
}

function runCompound(
  c: CompoundProcessor,
  doc: IngestDocument,
  ctx: ExecContext,
): IngestDocument | null {
  for (const p of c.processors) {
    try {
      const r =
        p.kind === 'conditional'
          ? runTracked(p, doc, ctx, c.ignoreFailure)
          : measured(p, () => runTracked(p, doc, ctx, c.ignoreFailure));
      if (r === null) return null;
    } catch (e) {
      if (c.ignoreFailure) continue;
      const ce = wrapProcessorError(e, processorType(p), processorTag(p));
      if (c.onFailure.length === 0) throw ce;
      return runOnFailure(c, doc, ce, ctx);
    }
  }
  return doc;
}

const FAILURE_KEYS = ['on_failure_message', 'on_failure_processor_type', 'on_failure_processor_tag'] as const; // prettier-ignore

function runOnFailure(
  c: CompoundProcessor,
  doc: IngestDocument,
  cause: EsError,
  ctx: ExecContext,
): IngestDocument | null {
  const ing = doc.ingestMetadata;
  const saved = FAILURE_KEYS.map((k) => [k, ing[k]] as const);
  const header = (cause.meta.header ?? {}) as Record<string, unknown>;
  ing.on_failure_message = rootMessage(cause);
  ing.on_failure_processor_type = header.processor_type ?? null;
  ing.on_failure_processor_tag = header.processor_tag ?? null;
  try {
    for (const p of c.onFailure) {
      try {
        if (runTracked(p, doc, ctx, false) === null) return null;
      } catch (e) {
        throw wrapProcessorError(e, processorType(p), processorTag(p));
      }
    }
  } finally {
    // nested on_failure blocks restore the outer failure's fields
    for (const [k, v] of saved) {
      if (v === undefined) delete ing[k];
      else ing[k] = v;
    }
  }
  return doc;
}

/** Runs one processor; with a trace, records its result as ES's verbose simulate does. */
function runTracked(
  p: Processor,
  doc: IngestDocument,
  ctx: ExecContext,
  ignoreFailure: boolean,
): IngestDocument | null {
  if (p.kind === 'compound') return runCompound(p, doc, ctx);
  if (p.kind === 'conditional') {
    if (!p.condition(doc)) return doc;
    return measured(p, () => runTracked(p.inner, doc, ctx, ignoreFailure));
  }
  if (p.kind === 'pipeline') return runPipelineProcessor(p, doc, ctx);
  if (!ctx.trace) return p.run(doc, ctx);
  try {
    const r = p.run(doc, ctx);
    ctx.trace.push({ tag: p.tag, doc: r === null ? null : copyDocument(doc), error: null, ignoredError: null }); // prettier-ignore
    return r;
  } catch (e) {
    const err = asEsError(e);
    ctx.trace.push(
      ignoreFailure
        ? { tag: p.tag, doc: copyDocument(doc), error: null, ignoredError: err }
        : { tag: p.tag, doc: null, error: err, ignoredError: null },
    );
    throw e;
  }
}

function runPipelineProcessor(
  p: PipelineProcessor,
  doc: IngestDocument,
  ctx: ExecContext,
): IngestDocument | null {
  const pipeline = ctx.getPipeline(p.name);
  if (!pipeline) {
    const e = new EsError('illegal_state_exception', `Pipeline processor configured for non-existent pipeline [${p.name}]`, 500); // prettier-ignore
    if (ctx.trace) ctx.trace.push({ tag: p.tag, doc: null, error: e, ignoredError: null });
    throw e;
  }
  if (!ctx.trace) return executeNestedPipeline(pipeline, doc, ctx);
  const trace = ctx.trace;
  try {
    // ES first runs the pipeline untraced on a copy, so that a cycle fails this processor
    // before any inner result is recorded
    try {
      executeNestedPipeline(pipeline, copyDocument(doc), { ...ctx, trace: null });
    } catch (e) {
      const err = asEsError(e);
      if (err.causedBy?.causedBy?.type === 'illegal_state_exception') throw err;
    }
    return executeNestedPipeline(pipeline, doc, ctx);
  } catch (e) {
    trace.push({ tag: p.tag, doc: null, error: asEsError(e), ignoredError: null });
    throw e;
  }
}

/** Runs one processor of any kind (foreach's inner processor). */
export function runProcessor(
  p: Processor,
  doc: IngestDocument,
  ctx: ExecContext,
): IngestDocument | null {
  return runTracked(p, doc, ctx, false);
}

/**
 * The top-level processors of a pipeline with their counters and ES's names (`type`,
 * `pipeline:name`, then `:tag`); on_failure processors are not listed, as in ES.
 */
export function processorStats(c: CompoundProcessor): Array<Record<string, ProcessorMetric>> {
  const out: Array<Record<string, ProcessorMetric>> = [];
  for (const p of c.processors) {
    if (p.kind === 'compound') {
      out.push(...processorStats(p));
      continue;
    }
    const real = p.kind === 'conditional' ? p.inner : p;
    let name = processorType(real);
    if (real.kind === 'pipeline') name += `:${real.name}`;
    const tag = processorTag(p);
    if (tag !== null && tag !== '') name += `:${tag}`;
    out.push({ [name]: { ...metricOf(p) } });
  }
  return out;
}
