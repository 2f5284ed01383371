/**
 * The crash harness's model of what the node must hold. Every write carries a unique `op` tag in
 * its source; the oracle records each write as in flight, acknowledged (with the version and
 * sequence number the node answered) or rejected. After a kill -9 and restart, `verify` checks
 * each observed document against that history: the last acknowledged write wins unless a later
 * unacknowledged one landed whole; nothing rejected or unknown may appear.
 */
import { isDeepStrictEqual } from 'node:util';
import { shardForRouting } from '../../../src/common/murmur3.js';

export type Source = Record<string, unknown>;

export type DocState =
  | { found: false }
  | { found: true; version: number; seqNo: number; primaryTerm: number; source: Source };

export interface WriteResult {
  version: number;
  seqNo: number;
  primaryTerm: number;
  /** Full source after the write (null for deletes). */
  source: Source | null;
}

export type OpKind = 'index' | 'create' | 'update' | 'delete';

export interface OpRecord {
  readonly tag: string | null;
  readonly kind: OpKind;
  readonly index: string;
  readonly id: string;
  /** Full source (index/create) or the partial doc (update). */
  readonly sent: Source | null;
  /** The upsert document of an update, if any. */
  readonly upsert: Source | null;
  state: 'inflight' | 'acked' | 'rejected';
  result?: WriteResult;
}

interface KeyState {
  baseline: DocState;
  ops: OpRecord[];
}

/** Fields every document the workload writes carries, with their JSON types. */
export const REQUIRED_FIELDS: Record<string, string> = { op: 'string', n: 'number', w: 'string' };

export class Oracle {
  private readonly keys = new Map<string, KeyState>();
  private readonly byTag = new Map<string, OpRecord>();
  /** Highest sequence number known per index/shard (acked or observed). */
  private readonly maxSeq = new Map<string, number>();
  /** Floors from the previous process life: every new acknowledgement must be above them. */
  private floors = new Map<string, number>();
  private readonly seenThisLife = new Map<string, Set<number>>();
  readonly shardCounts = new Map<string, number>();
  readonly problems: string[] = [];
  acked = 0;
  rejected = 0;
  inflightAtCrash = 0;

  private key(index: string, id: string): KeyState {
    const k = `${index}/${id}`;
    let s = this.keys.get(k);
    if (!s) this.keys.set(k, (s = { baseline: { found: false }, ops: [] }));
    return s;
  }

  private shardKey(index: string, id: string): string {
    return `${index}#${shardForRouting(id, this.shardCounts.get(index) ?? 5)}`;
  }

  begin(
    kind: OpKind,
    index: string,
    id: string,
    sent: Source | null,
    upsert: Source | null = null,
  ): OpRecord {
    const tag = sent && typeof sent.op === 'string' ? sent.op : null;
    const rec: OpRecord = { tag, kind, index, id, sent, upsert, state: 'inflight' };
    this.key(index, id).ops.push(rec);
    if (tag) this.byTag.set(tag, rec);
    return rec;
  }

  ack(rec: OpRecord, result: WriteResult): void {
    rec.state = 'acked';
    rec.result = result;
    this.acked++;
    const sk = this.shardKey(rec.index, rec.id);
    const floor = this.floors.get(sk) ?? -1;
    if (result.seqNo <= floor) {
      this.problems.push(
        `sequence number reused after restart: ${rec.index}/${rec.id} got seq_no ${result.seqNo}, shard ${sk} had reached ${floor}`,
      );
    }
    let seen = this.seenThisLife.get(sk);
    if (!seen) this.seenThisLife.set(sk, (seen = new Set()));
    if (seen.has(result.seqNo)) {
      this.problems.push(`sequence number ${result.seqNo} acknowledged twice on shard ${sk}`);
    }
    seen.add(result.seqNo);
    this.bumpSeq(sk, result.seqNo);
  }

  reject(rec: OpRecord): void {
    rec.state = 'rejected';
    this.rejected++;
  }

  private bumpSeq(sk: string, seqNo: number): void {
    if (seqNo > (this.maxSeq.get(sk) ?? -1)) this.maxSeq.set(sk, seqNo);
  }

  /** Every index/id pair the oracle knows for `index`. */
  idsOf(index: string): string[] {
    const out: string[] = [];
    const p = `${index}/`;
    for (const k of this.keys.keys()) if (k.startsWith(p)) out.push(k.slice(p.length));
    return out;
  }

  /** The index is gone (acknowledged delete): forget it. */
  dropIndex(index: string): void {
    const p = `${index}/`;
    for (const k of [...this.keys.keys()]) if (k.startsWith(p)) this.keys.delete(k);
    for (const k of [...this.maxSeq.keys()]) if (k.startsWith(`${index}#`)) this.maxSeq.delete(k);
    this.shardCounts.delete(index);
  }

  /**
   * Checks the observed state of one index after a restart against the history and records
   * problems. `observed` must hold every id the oracle knows for the index.
   */
  verifyIndex(index: string, observed: Map<string, DocState>): void {
    const p = `${index}/`;
    for (const id of observed.keys()) this.key(index, id);
    for (const [k, st] of this.keys) {
      if (!k.startsWith(p)) continue;
      const id = k.slice(p.length);
      const obs = observed.get(id);
      if (!obs) {
        this.problems.push(`${k}: not observed`);
        continue;
      }
      const problem = checkKey(k, st, obs, this.byTag);
      if (problem) this.problems.push(problem);
      if (obs.found) this.bumpSeq(this.shardKey(index, id), obs.seqNo);
    }
  }

  /** After verification the observed state is the new exact baseline. */
  rebaseline(index: string, observed: Map<string, DocState>): void {
    for (const [id, obs] of observed) {
      const st = this.key(index, id);
      this.inflightAtCrash += st.ops.filter((o) => o.state === 'inflight').length;
      st.baseline = obs;
      st.ops = [];
    }
  }

  /** Called when a new process life starts: acknowledged sequence numbers must exceed these. */
  newLife(): void {
    this.floors = new Map(this.maxSeq);
    this.seenThisLife.clear();
    this.byTag.clear();
  }
}

function lastAckedOf(ops: OpRecord[]): OpRecord | null {
  let best: OpRecord | null = null;
  for (const o of ops) {
    if (o.state !== 'acked') continue;
    if (!best || o.result!.seqNo > best.result!.seqNo) best = o;
  }
  return best;
}

function describe(o: OpRecord | null): string {
  if (!o) return 'nothing';
  const r = o.result;
  return `${o.kind} ${o.tag ?? ''} (version ${r?.version}, seq_no ${r?.seqNo})`;
}

/** Returns a problem description, or null when `obs` is a state the history allows. */
export function checkKey(
  k: string,
  st: KeyState,
  obs: DocState,
  byTag: Map<string, OpRecord>,
): string | null {
  const last = lastAckedOf(st.ops);
  const inflight = st.ops.filter((o) => o.state === 'inflight');
  if (!obs.found) {
    const expectGone = last ? last.kind === 'delete' : !st.baseline.found;
    if (expectGone || inflight.some((o) => o.kind === 'delete')) return null;
    return `${k}: acknowledged write lost, document missing; last acknowledged: ${describe(last)}`;
  }
  for (const [f, t] of Object.entries(REQUIRED_FIELDS)) {
    if (typeof obs.source[f] !== t)
      return `${k}: incomplete document ${JSON.stringify(obs.source)}`;
  }
  const tag = obs.source.op as string;
  const rec = byTag.get(tag);
  if (!rec) {
    const b = st.baseline;
    if (!(b.found && b.source.op === tag)) return `${k}: unknown document content op=${tag}`;
    if (last)
      return `${k}: acknowledged write lost, still at the old state; expected ${describe(last)}`;
    if (
      b.version !== obs.version ||
      b.seqNo !== obs.seqNo ||
      !isDeepStrictEqual(b.source, obs.source)
    )
      return `${k}: unchanged document changed: ${JSON.stringify(b)} -> ${JSON.stringify(obs)}`;
    return null;
  }
  if (`${rec.index}/${rec.id}` !== k) return `${k}: holds the content of ${rec.index}/${rec.id}`;
  if (rec.state === 'rejected') return `${k}: a rejected write (${tag}) was applied`;
  if (rec.state === 'acked') {
    const r = rec.result!;
    if (rec !== last)
      return `${k}: acknowledged write lost; found ${describe(rec)}, expected ${describe(last)}`;
    if (r.version !== obs.version || r.seqNo !== obs.seqNo || r.primaryTerm !== obs.primaryTerm)
      return `${k}: version/seq_no differ: acknowledged ${r.version}/${r.seqNo}/${r.primaryTerm}, found ${obs.version}/${obs.seqNo}/${obs.primaryTerm}`;
    if (!isDeepStrictEqual(r.source, obs.source))
      return `${k}: source differs: acknowledged ${JSON.stringify(r.source)}, found ${JSON.stringify(obs.source)}`;
    return null;
  }
  // An unacknowledged write that landed: it must be newer than everything acknowledged, and whole.
  if (last) {
    if (obs.seqNo <= last.result!.seqNo)
      return `${k}: unacknowledged ${tag} at seq_no ${obs.seqNo} hides acknowledged ${describe(last)}`;
    if (last.kind !== 'delete' && obs.version <= last.result!.version)
      return `${k}: version went backwards: ${obs.version} after acknowledged ${describe(last)}`;
  } else if (st.baseline.found) {
    if (obs.seqNo <= st.baseline.seqNo || obs.version <= st.baseline.version)
      return `${k}: unacknowledged ${tag} did not advance version/seq_no over the baseline`;
  }
  if (rec.kind === 'index' || rec.kind === 'create') {
    if (!isDeepStrictEqual(rec.sent, obs.source))
      return `${k}: half-written document: sent ${JSON.stringify(rec.sent)}, found ${JSON.stringify(obs.source)}`;
  } else if (rec.kind === 'update') {
    const isUpsert = rec.upsert !== null && isDeepStrictEqual(rec.upsert, obs.source);
    const applied = Object.entries(rec.sent ?? {}).every(([f, v]) =>
      isDeepStrictEqual(obs.source[f], v),
    );
    if (!isUpsert && !applied)
      return `${k}: half-applied update ${JSON.stringify(rec.sent)}: found ${JSON.stringify(obs.source)}`;
  }
  return null;
}
