/**
 * What the first-runs and warm-up-curve benches share: one workload index read from the shared
 * harness, and a fresh in-process node of a built checkout loaded with it as `npm run bench`
 * loads it (one shard, bulk of 5,000, refresh, request cache off).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyHarness } from './harness.js';

export type Call = (m: string, p: string, b?: unknown) => Promise<{ status: number; body: unknown }>; // prettier-ignore

export interface WorkloadQuery {
  id: string;
  index: string;
  dsl: { method: string; path: string; body: unknown };
}

export interface HarnessIndex {
  readonly workload: { seed: number; queries: WorkloadQuery[] };
  /** The harness's lib/params.mjs (makeParams, renderDsl). */
  readonly params: {
    makeParams(q: WorkloadQuery, ctx: unknown, n: number, seed: number): unknown[];
    renderDsl(q: WorkloadQuery, p: unknown): { body: unknown };
  };
  /** The parameter context built from the index's documents. */
  readonly ctx: unknown;
  readonly mappings: Record<string, string>;
  /** The index's NDJSON documents, one per line. */
  readonly lines: readonly string[];
}

export async function readHarnessIndex(root: string, index: string): Promise<HarnessIndex> {
  const harness = copyHarness(root);
  const workload = JSON.parse(readFileSync(join(harness, 'workload.json'), 'utf8')) as {
    seed: number;
    indices: Record<string, { file: string; mappings: Record<string, string> }>;
    queries: WorkloadQuery[];
  };
  const params = await import(pathToFileURL(join(harness, 'lib/params.mjs')).href);
  const spec = workload.indices[index]!;
  const lines = readFileSync(join(harness, spec.file), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const ctx = params.buildContext(
    index,
    lines.map((l) => JSON.parse(l)),
  );
  return { workload, params, ctx, mappings: spec.mappings, lines };
}

/** A fresh node of `base`'s build (its dist/), in a temporary data path, loaded with `index`. */
export async function loadedNode(
  base: string,
  index: string,
  h: HarnessIndex,
): Promise<{ call: Call; close: () => Promise<void> }> {
  const node = await import(pathToFileURL(join(base, 'dist/src/node.js')).href);
  const { createDispatcher } = await import(
    pathToFileURL(join(base, 'dist/src/http/dispatcher.js')).href
  );
  const dataPath = mkdtempSync(join(tmpdir(), `quarry-fresh-${index}-`));
  const opened = await node.openNode({ dataPath });
  const close = async () => {
    await opened.close();
    rmSync(dataPath, { recursive: true, force: true });
  };
  try {
    const dispatch = createDispatcher(opened.context);
    const call: Call = async (m, p, b) => dispatch(m, p, b);
    const properties = Object.fromEntries(Object.entries(h.mappings).map(([f, t]) => [f, { type: t }])); // prettier-ignore
    const settings = { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '1s', 'index.requests.cache.enable': false }; // prettier-ignore
    await call('PUT', `/${index}`, { settings, mappings: { _doc: { properties } } });
    const action = JSON.stringify({ index: { _index: index, _type: '_doc' } });
    for (let i = 0; i < h.lines.length; i += 5000) {
      const body = h.lines.slice(i, i + 5000).map((l) => `${action}\n${l}\n`).join(''); // prettier-ignore
      if ((await call('POST', '/_bulk', body)).status !== 200) throw new Error('bulk failed');
    }
    await call('POST', `/${index}/_refresh`);
    return { call, close };
  } catch (e) {
    await close();
    throw e;
  }
}
