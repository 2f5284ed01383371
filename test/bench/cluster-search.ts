/**
 * Search latency in a cluster: the workload's logs queries (the harness's seeded parameters, each
 * answer of a sample checked against the brute-force reference as in worker.ts) sent to a node
 * that holds no shard of the index (`index.routing.allocation.exclude._name`), so every query
 * fans out over the transport, and to the node holding every shard, and to a standalone node.
 * While `_search` is not cluster-aware a node answers 503 `cluster_block_exception`: the phase
 * is then skipped with that message.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { checkResult, type Reference } from './reference.js';
import { httpClient, type HttpCall } from './server-process.js';

export interface Workload {
  seed: number;
  runs_per_query: number;
  warmup_runs: number;
  time_cap_ms_per_query: number;
  indices: Record<string, { file: string; mappings: Record<string, string> }>;
  queries: Array<{
    id: string;
    index: string;
    params: Record<string, string>;
    dsl: { method: string; path: string; body: unknown };
  }>;
}

export interface QueryTiming {
  readonly n: number;
  readonly median_ms: number;
  readonly p90_ms: number;
  readonly checks: number;
  readonly check_failures: number;
  readonly first_failure?: string;
}

interface Params {
  buildContext(index: string, docs: unknown[]): unknown;
  makeParams(q: unknown, ctx: unknown, n: number, seed: number): Array<Record<string, any>>;
  renderDsl(q: unknown, p: unknown): { body: unknown };
}

export const loadParams = async (harness: string): Promise<Params> =>
  (await import(pathToFileURL(join(harness, 'lib/params.mjs')).href)) as Params;

/** The block's reason when `_search` is refused on this node, or null when it is served. */
export async function searchBlocked(url: string, index: string): Promise<string | null> {
  const r = await fetch(`${url}/${index}/_search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ size: 0 }),
  });
  if (r.status === 200) return null;
  const b = (await r.json().catch(() => ({}))) as { error?: { type?: string; reason?: string } };
  return `${r.status} ${b.error?.type}: ${String(b.error?.reason).slice(0, 160)}`;
}

/** Times every logs query of the workload through `port` (one keep-alive connection). */
export async function timeQueries(
  port: number,
  host: string,
  workload: Workload,
  params: Params,
  ref: Reference,
  opts: { runs: number; warm: number; capMs: number },
): Promise<Record<string, QueryTiming>> {
  const call: HttpCall = httpClient(port, host);
  const out: Record<string, QueryTiming> = {};
  for (const q of workload.queries.filter((x) => x.index === ref.index)) {
    const ps = params.makeParams(q, ref.ctx, opts.runs + opts.warm, workload.seed);
    const times: number[] = [];
    let checks = 0;
    let failures = 0;
    let firstFailure: string | undefined;
    const t0 = performance.now();
    for (let i = 0; i < ps.length; i++) {
      const t = performance.now();
      const r = await call(q.dsl.method, q.dsl.path, params.renderDsl(q, ps[i]).body);
      const dt = performance.now() - t;
      if (r.status !== 200) throw new Error(`${q.id}: status ${r.status} ${r.body.slice(0, 300)}`);
      if (i >= opts.warm) times.push(dt);
      if (i < opts.warm + 20) {
        const problem = checkResult(q.id, ps[i]!, JSON.parse(r.body), ref);
        checks++;
        if (problem) {
          failures++;
          firstFailure ??= problem;
        }
      }
      if (i >= opts.warm && performance.now() - t0 > opts.capMs && times.length >= 5) break;
    }
    times.sort((a, b) => a - b);
    const at = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))]!;
    out[q.id] = {
      n: times.length,
      median_ms: at(0.5),
      p90_ms: at(0.9),
      checks,
      check_failures: failures,
      ...(firstFailure ? { first_failure: firstFailure } : {}),
    };
  }
  return out;
}
