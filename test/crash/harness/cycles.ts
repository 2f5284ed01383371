/**
 * Kill -9 cycles: start `bin/quarry` on one data path, run concurrent writers, kill the process at
 * a random moment (some cycles right after or during a flush, i.e. a search-index commit point),
 * restart it and verify everything against the oracle: acknowledged writes with their versions and
 * sequence numbers, no half-written or rejected documents, index metadata and mappings, searches
 * after refresh agreeing with GETs, and new sequence numbers above every acknowledged one.
 */
import { isDeepStrictEqual } from 'node:util';
import { startProcessNode, type ProcessNode } from '../../helpers/process-node.js';
import { call, TransportError } from './http.js';
import { Oracle, type DocState, type Source } from './oracle.js';
import { rng as makeRng, type Rng } from './rng.js';
import { runWorkload, type WorkloadTarget } from './workload.js';

export interface CrashOptions {
  dataPath: string;
  cycles: number;
  seed: number;
  /** Ids per index (default 300). */
  pool?: number;
  /** Kill delay range after the writers start, in ms (default 150..900). */
  killDelayMs?: [number, number];
  log?: (line: string) => void;
}

/** No flush; a flush during the load; a flush acknowledged just before the kill; a kill while a
 *  flush is being written. */
export type FlushMode = 'none' | 'mid' | 'before-kill' | 'racing';
const FLUSH_MODES: FlushMode[] = ['none', 'mid', 'before-kill', 'racing'];

export interface CrashReport {
  seed: number;
  cycles: number;
  acknowledged: number;
  rejected: number;
  inflightAtCrash: number;
  requests: number;
  flushes: Record<FlushMode, number>;
  /** Spawn to the first successful request, per restart (ms). */
  restartMs: number[];
  /** Documents held at the end, over all indices. */
  finalDocs: number;
  problems: string[];
}

interface IndexInfo {
  name: string;
  shards: number;
  strict: boolean;
  uuid: string | null;
  created: 'inflight' | 'acked';
  deleted: 'no' | 'inflight' | 'acked';
}

const STRICT_PROPS: Record<string, unknown> = {
  op: { type: 'keyword' },
  n: { type: 'long' },
  w: { type: 'keyword' },
  text: { type: 'text' },
};

export class CrashHarness {
  private readonly oracle = new Oracle();
  private readonly rng: Rng;
  private readonly indices = new Map<string, IndexInfo>();
  private readonly mappingAdds = new Map<string, 'inflight' | 'acked'>();
  private readonly pool: number;
  private readonly log: (line: string) => void;
  private readonly report: CrashReport;

  constructor(private readonly opts: CrashOptions) {
    this.rng = makeRng(opts.seed);
    this.pool = opts.pool ?? 300;
    this.log = opts.log ?? (() => undefined);
    this.report = {
      seed: opts.seed,
      cycles: 0,
      acknowledged: 0,
      rejected: 0,
      inflightAtCrash: 0,
      requests: 0,
      flushes: { none: 0, mid: 0, 'before-kill': 0, racing: 0 },
      restartMs: [],
      finalDocs: 0,
      problems: this.oracle.problems,
    };
  }

  private async start(): Promise<ProcessNode> {
    const t0 = performance.now();
    const node = await startProcessNode(this.opts.dataPath);
    const r = await call(node.url, 'GET', '/');
    if (r.status !== 200) throw new Error(`node not ready: ${r.status}`);
    this.report.restartMs.push(performance.now() - t0);
    return node;
  }

  async run(): Promise<CrashReport> {
    let node = await this.start();
    try {
      await this.setup(node.url);
      for (let c = 1; c <= this.opts.cycles; c++) {
        await this.cycle(node, c);
        node = await this.start();
        const before = this.oracle.problems.length;
        const docs = await this.verify(node.url);
        this.report.cycles = c;
        this.log(
          `cycle ${c}: ${docs} docs, restart ${Math.round(this.report.restartMs.at(-1)!)} ms, ` +
            `${this.oracle.problems.length - before} problems`,
        );
        if (this.oracle.problems.length > 50) break;
      }
      // A clean stop and start over the same data must change nothing either.
      await node.stop();
      node = await this.start();
      this.report.finalDocs = await this.verify(node.url);
    } finally {
      await node.stop();
    }
    this.report.acknowledged = this.oracle.acked;
    this.report.rejected = this.oracle.rejected;
    this.report.inflightAtCrash = this.oracle.inflightAtCrash;
    return this.report;
  }

  private async setup(base: string): Promise<void> {
    await this.createIndex(base, 'crash-a', 2, true);
    await this.createIndex(base, 'crash-b', 3, false);
    await this.createIndex(base, 'crash-r0', 1, false);
    this.oracle.newLife();
  }

  private async createIndex(base: string, name: string, shards: number, strict: boolean) {
    const info: IndexInfo = {
      name,
      shards,
      strict,
      uuid: null,
      created: 'inflight',
      deleted: 'no',
    };
    this.indices.set(name, info);
    this.oracle.shardCounts.set(name, shards);
    const body: Record<string, unknown> = {
      settings: { number_of_shards: shards, number_of_replicas: 0 },
    };
    if (strict) body.mappings = { _doc: { dynamic: 'strict', properties: STRICT_PROPS } };
    const r = await call(base, 'PUT', `/${name}`, body);
    if (r.status !== 200) throw new Error(`create ${name}: ${JSON.stringify(r.json)}`);
    info.created = 'acked';
    const s = await call(base, 'GET', `/${name}/_settings`);
    info.uuid = s.json[name].settings.index.uuid;
  }

  private async deleteIndex(base: string, name: string): Promise<void> {
    const info = this.indices.get(name);
    if (!info) return;
    info.deleted = 'inflight';
    const r = await call(base, 'DELETE', `/${name}`);
    if (r.status !== 200) throw new Error(`delete ${name}: ${JSON.stringify(r.json)}`);
    info.deleted = 'acked';
  }

  private async cycle(node: ProcessNode, c: number): Promise<void> {
    const rng = this.rng;
    const base = node.url;
    const rot = `crash-r${c}`;
    if (!this.indices.has(rot)) await this.createIndex(base, rot, 1, false);
    const targets: WorkloadTarget[] = [
      { index: 'crash-a', dynamic: false },
      { index: 'crash-b', dynamic: true },
      { index: rot, dynamic: true },
    ];
    // Every flush mode in turn, so short runs cover commit points too.
    const mode = FLUSH_MODES[c % FLUSH_MODES.length]!;
    this.report.flushes[mode]++;
    const [lo, hi] = this.opts.killDelayMs ?? [150, 900];
    const killAt = rng.int(lo, hi);
    const stop = { stopped: false };
    const workload = runWorkload(
      {
        base,
        oracle: this.oracle,
        rng,
        cycle: c,
        targets,
        pool: this.pool,
        mappingAdds: this.mappingAdds,
        stop,
      },
      'crash-a',
    );
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const ignoreDeath = (p: Promise<unknown>) =>
      p.catch((e) => {
        if (!(e instanceof TransportError)) throw e;
      });
    // Index metadata changes racing with the writers and the kill.
    const side = [
      ignoreDeath(
        sleep(rng.int(0, hi)).then(() =>
          this.indices.has(`crash-r${c - 2}`) ? this.deleteIndex(base, `crash-r${c - 2}`) : null,
        ),
      ),
      ignoreDeath(
        sleep(rng.int(0, hi)).then(() => this.createIndex(base, `crash-r${c + 1}`, 1, false)),
      ),
    ];
    if (mode === 'mid') side.push(ignoreDeath(sleep(rng.int(0, killAt)).then(() => flush(base))));
    await sleep(killAt);
    if (mode === 'before-kill') await ignoreDeath(flush(base));
    if (mode === 'racing') {
      void ignoreDeath(flush(base));
      await sleep(rng.int(0, 15));
    }
    await node.kill9();
    stop.stopped = true;
    const stats = await workload;
    await Promise.all(side);
    this.report.requests += stats.requests;
  }

  /** Verifies every index against the oracle; returns the number of live documents. */
  private async verify(base: string): Promise<number> {
    let total = 0;
    for (const info of [...this.indices.values()]) {
      const s = await call(base, 'GET', `/${info.name}/_settings`);
      const exists = s.status === 200;
      if (!exists) {
        if (
          info.deleted === 'acked' ||
          info.deleted === 'inflight' ||
          info.created === 'inflight'
        ) {
          this.indices.delete(info.name);
          this.oracle.dropIndex(info.name);
          continue;
        }
        this.problem(`index ${info.name} lost (created and acknowledged)`);
        continue;
      }
      if (info.deleted === 'acked') {
        this.problem(`index ${info.name} still exists after an acknowledged delete`);
        continue;
      }
      const idx = s.json[info.name].settings.index;
      if (info.uuid === null) info.uuid = idx.uuid;
      if (idx.uuid !== info.uuid) this.problem(`index ${info.name}: uuid changed`);
      if (Number(idx.number_of_shards) !== info.shards)
        this.problem(`index ${info.name}: number_of_shards ${idx.number_of_shards}`);
      info.deleted = 'no';
      info.created = 'acked';
      total += await this.verifyDocs(base, info);
    }
    this.oracle.newLife();
    return total;
  }

  private problem(p: string): void {
    this.oracle.problems.push(p);
  }

  private async verifyDocs(base: string, info: IndexInfo): Promise<number> {
    const name = info.name;
    const ids = Array.from({ length: this.pool }, (_, i) => String(i));
    const mget = await call(base, 'POST', `/${name}/_doc/_mget`, { ids });
    if (mget.status !== 200) throw new Error(`mget ${name}: ${JSON.stringify(mget.json)}`);
    const observed = new Map<string, DocState>();
    for (const d of mget.json.docs as any[]) {
      if (d.error) this.problem(`${name}/${d._id}: get failed ${JSON.stringify(d.error)}`);
      observed.set(
        d._id,
        d.found
          ? {
              found: true,
              version: d._version,
              seqNo: d._seq_no,
              primaryTerm: d._primary_term,
              source: d._source as Source,
            }
          : { found: false },
      );
    }
    this.oracle.verifyIndex(name, observed);
    const found = [...observed].filter(([, d]) => d.found) as Array<
      [string, Extract<DocState, { found: true }>]
    >;
    await this.verifyMapping(base, info, found);
    await this.verifySearch(base, info, found);
    this.oracle.rebaseline(name, observed);
    return found.length;
  }

  private async verifyMapping(
    base: string,
    info: IndexInfo,
    found: Array<[string, Extract<DocState, { found: true }>]>,
  ): Promise<void> {
    const m = await call(base, 'GET', `/${info.name}/_mapping`);
    const props = (m.json[info.name]?.mappings?._doc?.properties ?? {}) as Record<string, any>;
    if (info.strict) {
      for (const [f, def] of Object.entries(STRICT_PROPS))
        if (!isDeepStrictEqual(props[f], def)) this.problem(`${info.name}: mapping of [${f}] lost`);
      for (const [f, st] of this.mappingAdds) {
        if (st === 'acked' && props[f]?.type !== 'keyword')
          this.problem(`${info.name}: acknowledged mapping update [${f}] lost`);
        if (props[f]) this.mappingAdds.set(f, 'acked');
      }
      for (const f of Object.keys(props))
        if (!(f in STRICT_PROPS) && !this.mappingAdds.has(f))
          this.problem(`${info.name}: unexpected field [${f}] in the mapping`);
    }
    if (info.strict) return;
    for (const [id, d] of found) {
      for (const [f, v] of Object.entries(d.source)) {
        const want = typeof v === 'number' ? 'long' : 'text';
        if (props[f]?.type !== want)
          this.problem(`${info.name}/${id}: field [${f}] of a stored document is not mapped`);
      }
    }
  }

  private async verifySearch(
    base: string,
    info: IndexInfo,
    found: Array<[string, Extract<DocState, { found: true }>]>,
  ): Promise<void> {
    const name = info.name;
    await call(base, 'POST', `/${name}/_refresh`);
    const kw = (f: string) => (info.strict ? f : `${f}.keyword`);
    const r = await call(base, 'POST', `/${name}/_search`, {
      size: 10000,
      version: true,
      seq_no_primary_term: true,
      _source: ['op'],
      query: { match_all: {} },
      aggs: { w: { terms: { field: kw('w'), size: 100 } } },
    });
    if (r.status !== 200) {
      this.problem(`${name}: search failed ${JSON.stringify(r.json)}`);
      return;
    }
    const byId = new Map(found);
    const hits = r.json.hits.hits as any[];
    if (r.json.hits.total !== found.length || hits.length !== found.length)
      this.problem(`${name}: search total ${r.json.hits.total}, GETs found ${found.length}`);
    for (const h of hits) {
      const d = byId.get(h._id);
      if (!d) this.problem(`${name}: search hit ${h._id} that GET does not find`);
      else if (h._version !== d.version || h._seq_no !== d.seqNo || h._source.op !== d.source.op)
        this.problem(
          `${name}/${h._id}: search sees ${h._version}/${h._seq_no}/${h._source.op}, GET ${d.version}/${d.seqNo}/${d.source.op}`,
        );
    }
    const want = new Map<string, number>();
    for (const [, d] of found)
      want.set(d.source.w as string, (want.get(d.source.w as string) ?? 0) + 1);
    const got = new Map<string, number>(
      (r.json.aggregations.w.buckets as any[]).map((b) => [b.key, b.doc_count]),
    );
    if (!isDeepStrictEqual(new Map([...want].sort()), new Map([...got].sort())))
      this.problem(
        `${name}: terms agg ${JSON.stringify([...got])} vs GETs ${JSON.stringify([...want])}`,
      );
    const count = await call(base, 'GET', `/${name}/_count`);
    if (count.json.count !== found.length)
      this.problem(`${name}: _count ${count.json.count}, GETs found ${found.length}`);
    // The inverted index agrees with the stored source for a sample of documents.
    for (let i = 0; i < Math.min(5, found.length); i++) {
      const [id, d] = found[this.rng.int(0, found.length - 1)]!;
      const t = await call(base, 'POST', `/${name}/_search`, {
        query: { term: { [kw('op')]: d.source.op } },
      });
      const ids = (t.json.hits?.hits ?? []).map((h: any) => h._id);
      if (!isDeepStrictEqual(ids, [id]))
        this.problem(
          `${name}: term query op=${d.source.op} found ${JSON.stringify(ids)}, want [${id}]`,
        );
    }
  }
}

async function flush(base: string): Promise<void> {
  const r = await call(base, 'POST', '/_flush');
  if (r.status !== 200) throw new Error(`flush: ${JSON.stringify(r.json)}`);
}

export function runCrashCycles(opts: CrashOptions): Promise<CrashReport> {
  return new CrashHarness(opts).run();
}

export function formatReport(r: CrashReport): string {
  const ms = [...r.restartMs].sort((a, b) => a - b);
  const pct = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!);
  return [
    `seed ${r.seed}: ${r.cycles} kill -9 cycles, ${r.requests} requests`,
    `writes acknowledged ${r.acknowledged}, rejected ${r.rejected}, in flight at a kill ${r.inflightAtCrash}`,
    `flush modes: ${Object.entries(r.flushes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `restart to ready: median ${pct(0.5)} ms, p90 ${pct(0.9)} ms, max ${Math.round(ms.at(-1) ?? 0)} ms`,
    `documents at the end: ${r.finalDocs}`,
    `problems (acknowledged writes lost or corrupted): ${r.problems.length}`,
    ...r.problems.slice(0, 50).map((p) => `  - ${p}`),
  ].join('\n');
}
