/**
 * Concurrent writers for the crash harness: bulk writers (index/create/update/delete items),
 * compare-and-set writers (GET, then PUT/DELETE with `if_seq_no`/`if_primary_term`), partial
 * updates with upserts, and mapping updates. Each records its writes in the oracle before sending
 * and marks them acknowledged or rejected from the response; a transport failure (the node was
 * killed) leaves them in flight and stops the writer.
 */
import { call, ndjson, TransportError } from './http.js';
import type { OpKind, OpRecord, Oracle, Source, WriteResult } from './oracle.js';
import type { Rng } from './rng.js';

export interface WorkloadTarget {
  /** Index name and whether it takes dynamic fields. */
  index: string;
  dynamic: boolean;
}

export interface WorkloadOptions {
  base: string;
  oracle: Oracle;
  rng: Rng;
  cycle: number;
  targets: WorkloadTarget[];
  /** Size of the id pool per index (ids are `0`..`pool-1`). */
  pool: number;
  /** Explicit mapping fields added with PUT _mapping: name → acknowledged?. */
  mappingAdds: Map<string, 'inflight' | 'acked'>;
  /** Set to stop the writers (the node is about to die or died). */
  stop: { stopped: boolean };
}

export interface WorkloadStats {
  requests: number;
  bulkItems: number;
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

class Writer {
  private seq = 0;
  constructor(
    private readonly o: WorkloadOptions,
    private readonly name: string,
    private readonly stats: WorkloadStats,
  ) {}

  tag(): string {
    return `c${this.o.cycle}-${this.name}-${this.seq++}`;
  }

  id(): string {
    return String(this.o.rng.int(0, this.o.pool - 1));
  }

  source(t: { dynamic: boolean }): Source {
    const r = this.o.rng;
    const s: Source = {
      op: this.tag(),
      n: r.int(-1e6, 1e6),
      w: this.name,
      text: `${r.pick(WORDS)} ${r.pick(WORDS)} ${'x'.repeat(r.int(0, 400))}`,
    };
    // A field new to this cycle, so dynamic mapping updates race with the kill.
    if (t.dynamic) {
      const k = r.int(0, 2);
      s[`dyn${this.o.cycle % 40}_${k}`] = k < 2 ? r.int(0, 99) : 'v';
    }
    return s;
  }

  async send(method: string, path: string, body?: unknown, ct?: string) {
    this.stats.requests++;
    return call(this.o.base, method, path, body, ct);
  }

  /** One `_bulk` with distinct ids; each item acknowledged or rejected on its own. */
  async bulk(): Promise<void> {
    const { rng, oracle } = this.o;
    const t = rng.pick(this.o.targets);
    const n = rng.int(5, 60);
    const used = new Set<string>();
    const lines: unknown[] = [];
    const recs: OpRecord[] = [];
    for (let i = 0; i < n; i++) {
      const id = this.id();
      if (used.has(id)) continue;
      used.add(id);
      const meta = { _index: t.index, _type: '_doc', _id: id };
      const roll = rng.next();
      if (roll < 0.5 || roll >= 0.9) {
        const create = roll >= 0.9;
        const src = this.source(t);
        lines.push({ [create ? 'create' : 'index']: meta }, src);
        recs.push(oracle.begin(create ? 'create' : 'index', t.index, id, src));
      } else if (roll < 0.75) {
        const doc: Source = { op: this.tag(), n: rng.int(0, 1000), w: this.name };
        const upsert = rng.chance(0.5);
        const full = { ...this.source(t), ...doc };
        lines.push(
          { update: { ...meta, _source: true } },
          upsert ? { doc, upsert: full } : { doc },
        );
        recs.push(oracle.begin('update', t.index, id, doc, upsert ? full : null));
      } else {
        lines.push({ delete: meta });
        recs.push(oracle.begin('delete', t.index, id, null));
      }
    }
    const refresh = rng.pick(['', '', '', '?refresh=true', '?refresh=wait_for']);
    this.stats.bulkItems += recs.length;
    const r = await this.send('POST', `/_bulk${refresh}`, ndjson(lines), 'application/x-ndjson');
    if (r.status !== 200) throw new Error(`bulk failed: ${r.status} ${JSON.stringify(r.json)}`);
    const items = r.json.items as Array<Record<string, any>>;
    if (items.length !== recs.length) throw new Error('bulk item count mismatch');
    items.forEach((it, i) => {
      const body = Object.values(it)[0]!;
      settle(oracle, recs[i]!, body.status, body);
    });
  }

  /** GET the document, then write it back (or delete it) under its seq_no and primary term. */
  async cas(): Promise<void> {
    const { rng, oracle } = this.o;
    const t = rng.pick(this.o.targets);
    const id = this.id();
    const g = await this.send('GET', `/${t.index}/_doc/${id}`);
    if (g.status !== 200) {
      const src = this.source(t);
      const rec = oracle.begin('create', t.index, id, src);
      const r = await this.send('PUT', `/${t.index}/_doc/${id}/_create`, src);
      settle(oracle, rec, r.status, r.json);
      return;
    }
    const cond = `if_seq_no=${g.json._seq_no}&if_primary_term=${g.json._primary_term}`;
    if (rng.chance(0.2)) {
      const rec = oracle.begin('delete', t.index, id, null);
      const r = await this.send('DELETE', `/${t.index}/_doc/${id}?${cond}`);
      settle(oracle, rec, r.status, r.json);
      return;
    }
    const src = this.source(t);
    const rec = oracle.begin('index', t.index, id, src);
    const refresh = rng.chance(0.1) ? '&refresh=true' : '';
    const r = await this.send('PUT', `/${t.index}/_doc/${id}?${cond}${refresh}`, src);
    settle(oracle, rec, r.status, r.json);
  }

  /** A plain index or delete without conditions, or a partial update. */
  async single(): Promise<void> {
    const { rng, oracle } = this.o;
    const t = rng.pick(this.o.targets);
    const id = this.id();
    const roll = rng.next();
    if (roll < 0.4) {
      const src = this.source(t);
      const rec = oracle.begin('index', t.index, id, src);
      const r = await this.send('PUT', `/${t.index}/_doc/${id}`, src);
      settle(oracle, rec, r.status, r.json);
    } else if (roll < 0.85) {
      const doc: Source = { op: this.tag(), n: rng.int(0, 1000), w: this.name };
      const asUpsert = rng.chance(0.3);
      const rec = oracle.begin('update', t.index, id, doc, asUpsert ? doc : null);
      const body = asUpsert ? { doc, doc_as_upsert: true } : { doc };
      const r = await this.send('POST', `/${t.index}/_doc/${id}/_update?_source=true`, body);
      settle(oracle, rec, r.status, r.json);
    } else {
      const rec = oracle.begin('delete', t.index, id, null);
      const r = await this.send('DELETE', `/${t.index}/_doc/${id}`);
      settle(oracle, rec, r.status, r.json);
    }
  }

  async loop(kinds: Array<'bulk' | 'cas' | 'single'>): Promise<void> {
    while (!this.o.stop.stopped) {
      try {
        const k = this.o.rng.pick(kinds);
        if (k === 'bulk') await this.bulk();
        else if (k === 'cas') await this.cas();
        else await this.single();
      } catch (e) {
        if (e instanceof TransportError) return;
        throw e;
      }
    }
  }
}

/** Marks a write acknowledged (2xx, or a delete's 404 not_found) or rejected (other 4xx). */
function settle(oracle: Oracle, rec: OpRecord, status: number, body: any): void {
  const ok =
    (status >= 200 && status < 300) ||
    (rec.kind === 'delete' && status === 404 && body?.result === 'not_found');
  if (ok) {
    oracle.ack(rec, resultOf(rec.kind, rec, body));
    return;
  }
  if (status >= 400 && status < 500) return oracle.reject(rec);
  throw new Error(`write answered ${status}: ${JSON.stringify(body)}`);
}

function resultOf(kind: OpKind, rec: OpRecord, body: any): WriteResult {
  let source: Source | null = null;
  if (kind === 'index' || kind === 'create') source = rec.sent;
  else if (kind === 'update') {
    source = body.get?._source ?? null;
    if (!source) throw new Error(`update response without get._source: ${JSON.stringify(body)}`);
  }
  return { version: body._version, seqNo: body._seq_no, primaryTerm: body._primary_term, source };
}

/** PUT _mapping with one new keyword field on the strict index. */
async function addMappingField(o: WorkloadOptions, index: string, stats: WorkloadStats) {
  const field = `extra_c${o.cycle}`;
  o.mappingAdds.set(field, 'inflight');
  stats.requests++;
  try {
    const r = await call(o.base, 'PUT', `/${index}/_doc/_mapping`, {
      properties: { [field]: { type: 'keyword' } },
    });
    if (r.status !== 200) throw new Error(`mapping update failed: ${JSON.stringify(r.json)}`);
    o.mappingAdds.set(field, 'acked');
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
  }
}

/** Runs the writers until `stop` is set or the node dies. */
export async function runWorkload(o: WorkloadOptions, strictIndex: string): Promise<WorkloadStats> {
  const stats: WorkloadStats = { requests: 0, bulkItems: 0 };
  const writers = [
    new Writer(o, 'b1', stats).loop(['bulk']),
    new Writer(o, 'b2', stats).loop(['bulk', 'bulk', 'cas']),
    new Writer(o, 'k1', stats).loop(['cas']),
    new Writer(o, 'k2', stats).loop(['cas', 'single']),
    new Writer(o, 's1', stats).loop(['single']),
    new Writer(o, 's2', stats).loop(['single', 'bulk']),
  ];
  const mapping = (async () => {
    await new Promise((r) => setTimeout(r, o.rng.int(0, 300)));
    if (!o.stop.stopped) await addMappingField(o, strictIndex, stats);
  })();
  await Promise.all([...writers, mapping]);
  return stats;
}
