/**
 * Synthetic histories for the checkers' tests: a fake clock, a terse builder, and a simulated
 * linearizable document store (each op takes effect atomically at a random instant between its
 * invoke and its completion), so valid histories of any size and concurrency can be produced.
 */
import { rng } from '../crash/harness/rng.js';
import {
  createRecorder,
  operations,
  type Clock,
  type Op,
  type Operation,
  type Recorder,
  type Value,
  type Version,
} from './history.js';

export const v = (seqNo: number, primaryTerm = 1): Version => ({ seqNo, primaryTerm });

/** A clock that advances one millisecond per reading: deterministic histories. */
export function fakeClock(): Clock {
  let t = 0;
  return { wall: () => 1_700_000_000_000 + t, mono: () => (t += 1) * 1_000_000 };
}

export function recorder(): Recorder {
  return createRecorder(fakeClock());
}

/** Builds histories line by line: `b.inv(1, write('x', 1)).ok(1, written(v(0)))`. */
export function builder() {
  const r = recorder();
  const b = {
    inv(p: number, op: Op) {
      r.invoke(p, op);
      return b;
    },
    write(p: number, key: string, value: Value, version?: Version) {
      r.invoke(p, { kind: 'write', key, value });
      if (version) r.ok(p, { kind: 'write', version });
      return b;
    },
    read(p: number, key: string, value?: Value, version?: Version) {
      r.invoke(p, { kind: 'read', key });
      if (value === undefined) r.ok(p, { kind: 'read', found: false });
      else r.ok(p, { kind: 'read', found: true, value, version: version! });
      return b;
    },
    okWrite(p: number, version: Version) {
      r.ok(p, { kind: 'write', version });
      return b;
    },
    okCas(p: number, version: Version) {
      r.ok(p, { kind: 'cas', version });
      return b;
    },
    okRead(p: number, value?: Value, version?: Version) {
      if (value === undefined) r.ok(p, { kind: 'read', found: false });
      else r.ok(p, { kind: 'read', found: true, value, version: version! });
      return b;
    },
    okDelete(p: number, found: boolean, version?: Version) {
      r.ok(p, { kind: 'delete', found, ...(version ? { version } : {}) });
      return b;
    },
    conflict(p: number, current?: Version | null) {
      r.fail(p, {
        error: 'version_conflict_engine_exception',
        conflict: true,
        ...(current !== undefined ? { current } : {}),
      });
      return b;
    },
    fail(p: number, error = 'rejected') {
      r.fail(p, { error });
      return b;
    },
    info(p: number, error = 'timeout') {
      r.info(p, error);
      return b;
    },
    recorder: r,
    ops: (): Operation[] => operations(r.events()),
  };
  return b;
}

export interface SimOptions {
  readonly seed: number;
  readonly ops: number;
  readonly concurrency: number;
  readonly keys?: readonly string[];
  /** Chance that a completion is lost (recorded as info); the op may or may not have happened. */
  readonly infoRate?: number;
}

/**
 * A history from a store that is linearizable by construction. Values are unique, versions come
 * from one shard-wide seq_no counter (so a document's seq_nos have gaps, as in ES).
 */
export function simulate(o: SimOptions): Operation[] {
  const r = rng(o.seed);
  const rec = recorder();
  const keys = o.keys ?? ['k'];
  let seq = 0;
  let nextValue = 1;
  const docs = new Map<string, { value: Value; version: Version } | null>();
  const seen = new Map<string, Version>(); // last version any client saw, for cas
  type Pending = { op: Op; applied: boolean; result?: unknown; fail?: boolean };
  const pending = new Map<number, Pending>();
  let invoked = 0;

  const apply = (p: Pending) => {
    const op = p.op;
    if (op.kind === 'insert') return;
    const cur = docs.get(op.key) ?? null;
    switch (op.kind) {
      case 'read':
        p.result = cur
          ? { kind: 'read', found: true, value: cur.value, version: cur.version }
          : { kind: 'read', found: false };
        if (cur) seen.set(op.key, cur.version);
        break;
      case 'write': {
        const version = v(seq++);
        docs.set(op.key, { value: op.value, version });
        p.result = { kind: 'write', version };
        break;
      }
      case 'cas': {
        if (!cur || cur.version.seqNo !== op.expected.seqNo) {
          p.fail = true;
          p.result = {
            error: 'version_conflict_engine_exception',
            conflict: true,
            current: cur?.version ?? null,
          };
          break;
        }
        const version = v(seq++);
        docs.set(op.key, { value: op.value, version });
        p.result = { kind: 'cas', version };
        break;
      }
      case 'delete': {
        const version = v(seq++);
        p.result = { kind: 'delete', found: cur !== null, version };
        docs.set(op.key, null);
        break;
      }
    }
    p.applied = true;
  };

  const randomOp = (): Op => {
    const key = r.pick(keys);
    const x = r.next();
    if (x < 0.35) return { kind: 'read', key };
    if (x < 0.6) return { kind: 'write', key, value: nextValue++ };
    if (x < 0.95) {
      const expected = seen.get(key) ?? v(0);
      return { kind: 'cas', key, expected, value: nextValue++ };
    }
    return { kind: 'delete', key };
  };

  let nextProcess = o.concurrency;
  const procs = Array.from({ length: o.concurrency }, (_, i) => i);
  while (invoked < o.ops || pending.size > 0) {
    const slot = r.int(0, procs.length - 1);
    const p = procs[slot]!;
    const cur = pending.get(p);
    if (!cur) {
      if (invoked >= o.ops) continue;
      const op = randomOp();
      rec.invoke(p, op);
      pending.set(p, { op, applied: false });
      invoked++;
    } else if (!cur.applied && r.chance(0.5)) {
      apply(cur);
    } else if (cur.applied || r.chance(0.2)) {
      pending.delete(p);
      if (r.chance(o.infoRate ?? 0) && cur.op.kind !== 'read') {
        // Lost answer: maybe it happened, maybe not. Jepsen retires the process.
        rec.info(p, 'timeout');
        procs[slot] = nextProcess++;
        continue;
      }
      if (!cur.applied) apply(cur);
      if (cur.fail) rec.fail(p, cur.result as never);
      else rec.ok(p, cur.result as never);
      const res = cur.result as { version?: Version };
      if (res.version && cur.op.kind !== 'insert') seen.set(cur.op.key, res.version);
    }
  }
  return operations(rec.events());
}
