/**
 * The workload queries of one index and their seeded parameter context, over the data
 * `latency-bench.ts` loaded into `.bench/latency/<index>-<n>` (the http-ab and http-profile tools
 * serve that data and replay these queries).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyHarness } from './harness.js';

export interface LatencyWorkload {
  /** The loaded data directory (`.bench/latency/<index>-<n>`). */
  dataPath: string;
  workload: { seed: number; queries: Array<{ id: string }> };
  /** The harness's `lib/params.mjs` module. */
  params: any;
  /** The parameter context built over the loaded documents. */
  ctx: unknown;
  /** The workload's queries with these ids. */
  queries: Array<{ id: string }>;
}

export async function loadLatencyWorkload(
  root: string,
  index: string,
  ids: string[],
): Promise<LatencyWorkload> {
  const harness = copyHarness(root);
  const workload = JSON.parse(readFileSync(join(harness, 'workload.json'), 'utf8'));
  const params = await import(pathToFileURL(join(harness, 'lib/params.mjs')).href);
  const dir = readdirSync(join(root, '.bench/latency')).find((d) => d.startsWith(`${index}-`));
  if (!dir) throw new Error(`no .bench/latency/${index}-*: run latency-bench.ts first`);
  const lines = readFileSync(join(harness, `data/out/${index}.ndjson`), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .slice(0, Number(dir.split('-')[1]));
  const ctx = params.buildContext(
    index,
    lines.map((l) => JSON.parse(l)),
  );
  const queries = workload.queries.filter((q: { id: string }) => ids.includes(q.id));
  return { dataPath: join(root, '.bench/latency', dir), workload, params, ctx, queries };
}
