/**
 * The ingest service (ES IngestService): pipeline CRUD over a PipelineStore with compiled
 * pipelines cached per definition, running a pipeline on one document for a write, and the
 * per-pipeline counters of nodes stats.
 */
import { EsError } from '../common/errors.js';
import {
  METADATA_FIELDS,
  newIngestDocument,
  sourceOf,
  type DocumentMeta,
  type JsonMap,
} from './document.js';
import { parsePipeline } from './parse.js';
import { executePipeline, processorStats, type ExecContext, type Pipeline } from './processor.js';
import type { PipelineStore } from './pipeline-store.js';

export interface PipelineStats {
  count: number;
  time_in_millis: number;
  current: number;
  failed: number;
}

const newStats = (): PipelineStats => ({ count: 0, time_in_millis: 0, current: 0, failed: 0 });

/** ES Regex.simpleMatch: `*` wildcards. */
export function simpleMatch(pattern: string, s: string): boolean {
  if (!pattern.includes('*')) return pattern === s;
  const re = new RegExp('^' + pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's'); // prettier-ignore
  return re.test(s);
}

export type IngestOutcome =
  | { readonly kind: 'dropped' }
  | { readonly kind: 'document'; readonly meta: DocumentMeta; readonly source: JsonMap };

export class IngestService {
  private readonly compiled = new Map<string, { config: JsonMap; pipeline: Pipeline }>();
  readonly total: PipelineStats = newStats();
  private readonly perPipeline = new Map<string, PipelineStats>();

  /** Called after every put or delete (a cluster's master publishes the pipelines then). */
  onChange: (() => Promise<void>) | null = null;

  constructor(private readonly store: PipelineStore) {}

  /** Every stored definition by id. */
  all(): Record<string, JsonMap> {
    return this.store.all();
  }

  /** Makes this node's pipelines exactly `pipelines` (what the cluster's master published). */
  async replaceAll(pipelines: Readonly<Record<string, JsonMap>>): Promise<void> {
    const gone = Object.keys(this.store.all()).filter((id) => !(id in pipelines));
    if (gone.length) await this.store.remove(gone);
    for (const id of gone) this.compiled.delete(id);
    for (const [id, config] of Object.entries(pipelines))
      if (JSON.stringify(this.store.get(id)) !== JSON.stringify(config)) {
        await this.store.put(id, config);
        this.compiled.delete(id);
      }
  }

  /** PUT _ingest/pipeline/{id}: validated by building it, then stored. */
  async put(id: string, config: JsonMap): Promise<void> {
    const pipeline = parsePipeline(id, structuredClone(config));
    await this.store.put(id, config);
    this.compiled.set(id, { config, pipeline });
    await this.onChange?.();
  }

  /** Definitions matching the ids (wildcards allowed); every one when none are given. */
  get(ids: readonly string[] | null): Array<[string, JsonMap]> {
    const all = Object.entries(this.store.all());
    if (ids === null || ids.length === 0) return all;
    const out: Array<[string, JsonMap]> = [];
    for (const id of ids) {
      if (id.includes('*')) {
        for (const e of all) if (simpleMatch(id, e[0])) out.push(e);
      } else {
        const c = this.store.get(id);
        if (c) out.push([id, c]);
      }
    }
    return out;
  }

  /** DELETE _ingest/pipeline/{id}: ES's 404 when nothing matches. */
  async delete(id: string): Promise<void> {
    const ids = Object.keys(this.store.all()).filter((k) => simpleMatch(id, k));
    if (ids.length === 0)
      throw new EsError('resource_not_found_exception', `pipeline [${id}] is missing`, 404);
    await this.store.remove(ids);
    for (const k of ids) this.compiled.delete(k);
    await this.onChange?.();
  }

  /**
   * The compiled pipeline of a stored definition. Every change of the store goes through this
   * service (put, delete, replaceAll), which drops the compiled copy, so a hit needs no store
   * read: this runs once per ingested document.
   */
  pipeline(id: string): Pipeline | undefined {
    const hit = this.compiled.get(id);
    if (hit) return hit.pipeline;
    const config = this.store.get(id);
    if (!config) return undefined;
    const pipeline = parsePipeline(id, structuredClone(config));
    this.compiled.set(id, { config, pipeline });
    return pipeline;
  }

  /** Ids of stored pipelines (nodes stats lists each). */
  ids(): string[] {
    return Object.keys(this.store.all());
  }

  /** Nodes stats `ingest`: totals, then each pipeline with its top-level processors. */
  stats(): { total: PipelineStats; pipelines: Record<string, JsonMap> } {
    const pipelines: Record<string, JsonMap> = {};
    for (const id of this.ids()) {
      let processors: unknown[] = [];
      try {
        const p = this.pipeline(id);
        if (p) processors = processorStats(p.compound);
      } catch {
        // a definition that no longer builds has no processors to report
      }
      pipelines[id] = { ...(this.perPipeline.get(id) ?? newStats()), processors };
    }
    return { total: { ...this.total }, pipelines };
  }

  execContext(trace: ExecContext['trace'] = null): ExecContext {
    return { getPipeline: (id) => this.pipeline(id), executing: new Set(), trace };
  }

  /**
   * Runs pipeline `id` on a document about to be written; ES's "pipeline with id [x] does not
   * exist" when it is not stored.
   */
  run(id: string, meta: DocumentMeta, source: JsonMap): IngestOutcome {
    const pipeline = this.pipeline(id);
    if (!pipeline)
      throw new EsError('illegal_argument_exception', `pipeline with id [${id}] does not exist`, 400); // prettier-ignore
    const st = this.perPipeline.get(id) ?? newStats();
    this.perPipeline.set(id, st);
    const t0 = Date.now();
    st.current++;
    this.total.current++;
    try {
      const doc = newIngestDocument(meta, source);
      const r = executePipeline(pipeline, doc, this.execContext());
      if (r === null) return { kind: 'dropped' };
      const m = r.sourceAndMetadata;
      const out: DocumentMeta = {
        _index: String(m._index ?? meta._index),
        _type: String(m._type ?? meta._type),
        _id: m._id === undefined || m._id === null ? null : String(m._id),
      };
      for (const k of METADATA_FIELDS) {
        if (k === '_index' || k === '_type' || k === '_id') continue;
        const v = m[k];
        if (v !== undefined && v !== null) (out as unknown as JsonMap)[k] = k === '_version' ? Number(v) : String(v); // prettier-ignore
      }
      return { kind: 'document', meta: out, source: sourceOf(r) };
    } catch (e) {
      st.failed++;
      this.total.failed++;
      throw e;
    } finally {
      const dt = Date.now() - t0;
      st.current--;
      this.total.current--;
      st.count++;
      this.total.count++;
      st.time_in_millis += dt;
      this.total.time_in_millis += dt;
    }
  }
}
