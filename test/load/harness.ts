/**
 * Load test against a child-process node on loopback: measures the sustainable rate of a mixed
 * workload (searches with an aggregation, single-document writes, gets, small bulks) with a closed
 * loop, then drives an open loop at a multiple of that rate with a bounded number of outstanding
 * requests, sampling the node's RSS. Afterwards it checks the node still serves normally and that
 * exactly the acknowledged writes are in the index (a 429 must mean "not applied").
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { startProcessNode, type ProcessNode } from '../helpers/process-node.js';

export interface LoadOptions {
  dataPath: string;
  /** Closed-loop calibration: duration and concurrency. */
  calibrateMs: number;
  calibrateConcurrency: number;
  /** Open-loop overload: duration and multiple of the sustainable rate. */
  overloadMs: number;
  factor: number;
  /** Client-side bound on requests in flight (and sockets). */
  maxOutstanding: number;
  /** Extra node settings (`-E k=v`). */
  settings?: Record<string, string>;
  log?: (line: string) => void;
}

export interface PhaseFigures {
  sent: number;
  ok: number;
  rejected429: number;
  breaker429: number;
  otherErrors: number;
  transportErrors: number;
  /** Requests the client did not send because maxOutstanding were in flight. */
  notSent: number;
  throughput: number;
  p50: number;
  p99: number;
  errorSamples: string[];
}

export interface LoadReport {
  sustainableRate: number;
  calibrate: PhaseFigures;
  overload: PhaseFigures;
  recovery: PhaseFigures;
  targetRate: number;
  baselineRssMb: number;
  peakRssMb: number;
  drainMs: number;
  nodeAlive: boolean;
  ackedWrites: number;
  indexedDocs: number;
  seedDocs: number;
}

type Kind = 'search' | 'index' | 'get' | 'bulk';
/** Half searches, a quarter single writes, gets and bulks of 20. */
const MIX: readonly Kind[] = [
  'search',
  'search',
  'search',
  'search',
  'search',
  'index',
  'index',
  'get',
  'get',
  'bulk',
];
const WORDS = ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'];
const SEED = 2000;

/** Sockets opened at once: below the node's accept backlog (511), so no connect waits on SYN retries. */
const SOCKETS_PER_AGENT = 400;

class Client {
  readonly agents: Agent[] = [];
  private seq = 0;
  private next = 0;
  acked = 0;
  constructor(
    private readonly node: ProcessNode,
    maxSockets: number,
  ) {
    for (let left = maxSockets; left > 0; left -= SOCKETS_PER_AGENT) {
      const n = Math.min(left, SOCKETS_PER_AGENT);
      this.agents.push(new Agent({ keepAlive: true, maxSockets: n, maxFreeSockets: n }));
    }
  }

  /**
   * Opens every socket before the load: hundreds of connects at once overflow the accept queue
   * of a busy node, and the kernel's SYN retries (1 s, 3 s) would throttle the load instead of
   * the pools. One agent at a time, each filled by as many concurrent requests as its sockets.
   */
  async openSockets(): Promise<number> {
    for (const agent of this.agents) {
      const n = agent.maxSockets;
      await Promise.all(Array.from({ length: n }, () => this.send('GET', '/', undefined, agent)));
    }
    return this.agents.reduce((k, a) => k + Object.values(a.freeSockets).flat().length, 0);
  }

  destroy(): void {
    for (const a of this.agents) a.destroy();
  }

  send(
    method: string,
    path: string,
    body?: string,
    agent = this.agents[this.next++ % this.agents.length]!,
  ): Promise<{ status: number; text: string }> {
    const url = new URL(this.node.url);
    return new Promise((resolve, reject) => {
      const r = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: body
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
            : {},
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  }

  /** One request of the mix; resolves with its status (0 = transport error). */
  async one(kind: Kind, phase: PhaseFigures, lat: number[]): Promise<void> {
    const t0 = performance.now();
    const n = this.seq++;
    let res: { status: number; text: string };
    let writes = 0;
    phase.sent++;
    try {
      switch (kind) {
        case 'search':
          res = await this.send(
            'POST',
            '/load/_search',
            JSON.stringify({
              size: 10,
              query: { match: { text: WORDS[n % WORDS.length] } },
              aggs: { tags: { terms: { field: 'tag' } }, avg: { avg: { field: 'n' } } },
            }),
          );
          break;
        case 'index':
          writes = 1;
          res = await this.send('PUT', `/load/_doc/w${n}-${process.pid}`, JSON.stringify(doc(n)));
          break;
        case 'get':
          res = await this.send('GET', `/load/_doc/s${n % SEED}`);
          break;
        case 'bulk': {
          writes = 20;
          let b = '';
          for (let i = 0; i < 20; i++)
            b += `{"index":{"_id":"b${n}-${i}-${process.pid}"}}\n${JSON.stringify(doc(n + i))}\n`;
          res = await this.send('POST', '/load/_doc/_bulk', b);
          break;
        }
      }
    } catch (e) {
      phase.transportErrors++;
      if (phase.errorSamples.length < 5) phase.errorSamples.push(String(e));
      return;
    }
    if (res.status >= 200 && res.status < 300) {
      if (kind === 'bulk' && JSON.parse(res.text).errors) {
        phase.otherErrors++;
        if (phase.errorSamples.length < 5) phase.errorSamples.push(res.text.slice(0, 300));
        return;
      }
      phase.ok++;
      this.acked += writes;
      lat.push(performance.now() - t0);
    } else if (res.status === 429 && esError(res.text, 'es_rejected_execution_exception', 429))
      phase.rejected429++;
    else if (res.status === 429 && esError(res.text, 'circuit_breaking_exception', 429))
      phase.breaker429++;
    else {
      phase.otherErrors++;
      if (phase.errorSamples.length < 5)
        phase.errorSamples.push(`${res.status} ${res.text.slice(0, 300)}`);
    }
  }
}

/** An ES error body: `{error: {root_cause: [{type, reason}], type, reason}, status}`. */
function esError(text: string, type: string, status: number): boolean {
  try {
    const b = JSON.parse(text);
    return (
      b.status === status &&
      b.error?.type === type &&
      typeof b.error.reason === 'string' &&
      b.error.root_cause?.[0]?.type === type
    );
  } catch {
    return false;
  }
}

function doc(n: number) {
  return {
    n,
    tag: `t${n % 50}`,
    text: `${WORDS[n % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]} document number ${n}`,
  };
}

function figures(): PhaseFigures {
  return {
    sent: 0,
    ok: 0,
    rejected429: 0,
    breaker429: 0,
    otherErrors: 0,
    transportErrors: 0,
    notSent: 0,
    throughput: 0,
    p50: 0,
    p99: 0,
    errorSamples: [],
  };
}

function finish(f: PhaseFigures, lat: number[], ms: number): PhaseFigures {
  lat.sort((a, b) => a - b);
  const q = (p: number) =>
    lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]! : 0;
  f.throughput = Math.round((f.ok / ms) * 1000);
  f.p50 = Math.round(q(0.5) * 10) / 10;
  f.p99 = Math.round(q(0.99) * 10) / 10;
  return f;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Closed loop: `concurrency` workers, each sending its next request when the last answered. */
async function closedLoop(c: Client, ms: number, concurrency: number): Promise<PhaseFigures> {
  const f = figures();
  const lat: number[] = [];
  const end = performance.now() + ms;
  let i = 0;
  const worker = async () => {
    while (performance.now() < end) await c.one(MIX[i++ % MIX.length] ?? 'search', f, lat);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return finish(f, lat, performance.now() - t0);
}

export async function runLoadTest(o: LoadOptions): Promise<LoadReport> {
  const log = o.log ?? (() => undefined);
  const extra = Object.entries(o.settings ?? {}).flatMap(([k, v]) => ['-E', `${k}=${v}`]);
  const node = await startProcessNode(o.dataPath, extra);
  const pid = node.child.pid!;
  const c = new Client(node, o.maxOutstanding);
  try {
    await c.send(
      'PUT',
      '/load',
      JSON.stringify({
        settings: { number_of_shards: 2 },
        mappings: {
          _doc: {
            properties: { n: { type: 'long' }, tag: { type: 'keyword' }, text: { type: 'text' } },
          },
        },
      }),
    );
    let b = '';
    for (let i = 0; i < SEED; i++) b += `{"index":{"_id":"s${i}"}}\n${JSON.stringify(doc(i))}\n`;
    const seeded = await c.send('POST', '/load/_doc/_bulk?refresh=true', b);
    if (seeded.status !== 200) throw new Error(`seeding failed: ${seeded.text.slice(0, 300)}`);
    const baselineRssMb = rssMb(pid);
    log(`node pid ${pid}, RSS after seeding ${baselineRssMb.toFixed(0)} MB`);

    const calibrate = await closedLoop(c, o.calibrateMs, o.calibrateConcurrency);
    const sustainable = calibrate.throughput;
    log(`sustainable: ${sustainable} req/s (p99 ${calibrate.p99} ms)`);

    const warm = performance.now();
    const sockets = await c.openSockets();
    log(`opened ${sockets} sockets in ${Math.round(performance.now() - warm)} ms`);

    // Open loop at factor × sustainable, in 10 ms ticks.
    const target = sustainable * o.factor;
    const f = figures();
    const lat: number[] = [];
    let outstanding = 0;
    let peakRss = baselineRssMb;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 50);
    const t0 = performance.now();
    let issued = 0;
    let k = 0;
    const inflight = new Set<Promise<void>>();
    while (performance.now() - t0 < o.overloadMs) {
      const due = Math.floor(((performance.now() - t0) / 1000) * target);
      for (; issued < due; issued++) {
        if (outstanding >= o.maxOutstanding) {
          f.notSent++;
          continue;
        }
        outstanding++;
        const p = c.one(MIX[k++ % MIX.length]!, f, lat).finally(() => {
          outstanding--;
          inflight.delete(p);
        });
        inflight.add(p);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const sentFor = performance.now() - t0;
    const drainStart = performance.now();
    await Promise.all(inflight);
    const drainMs = Math.round(performance.now() - drainStart);
    clearInterval(sampler);
    peakRss = Math.max(peakRss, rssMb(pid));
    const overload = finish(f, lat, sentFor + drainMs);
    log(
      `overload at ${target} req/s: ${overload.ok} ok, ${overload.rejected429} × 429, ${overload.breaker429} × breaker, ` +
        `${overload.otherErrors} other errors, ${overload.transportErrors} transport errors, ${overload.notSent} not sent; peak RSS ${peakRss.toFixed(0)} MB`,
    );

    const recovery = await closedLoop(c, Math.min(2000, o.calibrateMs), o.calibrateConcurrency);
    log(`after the load: ${recovery.throughput} req/s, p99 ${recovery.p99} ms`);
    await c.send('POST', '/load/_refresh');
    const count = JSON.parse((await c.send('GET', '/load/_count')).text).count as number;
    return {
      sustainableRate: sustainable,
      calibrate,
      overload,
      recovery,
      targetRate: target,
      baselineRssMb: Math.round(baselineRssMb),
      peakRssMb: Math.round(peakRss),
      drainMs,
      nodeAlive: alive(pid),
      ackedWrites: c.acked,
      indexedDocs: count,
      seedDocs: SEED,
    };
  } finally {
    c.destroy();
    await node.stop();
  }
}

export function formatLoadReport(r: LoadReport): string {
  const ph = (name: string, f: PhaseFigures) =>
    `${name}: sent ${f.sent}, ok ${f.ok}, 429 ${f.rejected429}, breaker ${f.breaker429}, other errors ${f.otherErrors}, transport errors ${f.transportErrors}, not sent ${f.notSent}; ${f.throughput} ok/s, p50 ${f.p50} ms, p99 ${f.p99} ms`;
  return [
    `sustained throughput (closed loop): ${r.sustainableRate} req/s`,
    ph('calibration', r.calibrate),
    `overload target: ${r.targetRate} req/s`,
    ph('overload', r.overload),
    `drain after the load stopped: ${r.drainMs} ms`,
    ph('after the load', r.recovery),
    `RSS: ${r.baselineRssMb} MB after seeding, peak ${r.peakRssMb} MB`,
    `acknowledged writes ${r.ackedWrites}, documents ${r.indexedDocs} (seed ${r.seedDocs})`,
    `node alive: ${r.nodeAlive}`,
  ].join('\n');
}
