/**
 * The register checker must accept every history a linearizable ES document allows (concurrency,
 * unknown outcomes, version gaps) and reject stale reads, lost compare-and-sets and versions out
 * of order, naming the op that fails; it must say `unknown` rather than `linearizable` when its
 * budget runs out, and check 10,000 ops of one key in well under a few seconds.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../crash/harness/rng.js';
import {
  ABSENT,
  checkKey,
  checkLinearizable,
  prepare,
  type DocState,
  type KeyVerdict,
  type Step,
} from './checkers/linearizable.js';
import type { Operation } from './history.js';
import { builder, simulate, v } from './simulate.js';

const check = (ops: Operation[], maxSteps?: number): KeyVerdict =>
  checkKey('x', ops, maxSteps !== undefined ? { maxSteps } : {});
const verdict = (ops: Operation[]) => check(ops).verdict;

describe('sequential histories', () => {
  it('accepts write, read, cas, read, delete, read', () => {
    const b = builder()
      .read(1, 'x')
      .write(1, 'x', 1, v(0))
      .read(1, 'x', 1, v(0))
      .inv(1, { kind: 'cas', key: 'x', expected: v(0), value: 2 })
      .okCas(1, v(7)) // seq_nos are shard-wide: gaps are normal
      .read(1, 'x', 2, v(7))
      .inv(1, { kind: 'delete', key: 'x' })
      .okDelete(1, true, v(9))
      .read(1, 'x')
      .inv(1, { kind: 'delete', key: 'x' })
      .okDelete(1, false, v(10))
      .write(1, 'x', 3, v(11))
      .read(1, 'x', 3, v(11));
    expect(check(b.ops())).toMatchObject({ verdict: 'linearizable', ops: 10 });
  });

  it('rejects a read of a value never written', () => {
    const b = builder().write(1, 'x', 1, v(0)).read(2, 'x', 2, v(0));
    const r = check(b.ops());
    expect(r.verdict).toBe('non-linearizable');
    if (r.verdict !== 'non-linearizable') return;
    expect(r.failure.op).toContain('read x ok → 2');
    expect(r.failure.state).toBe('1 at (seq 0, term 1)');
    expect(r.failure.prefixLength).toBe(1);
    expect(r.failure.message).toContain('no op ran concurrently');
  });

  it('rejects the right value with the wrong version', () => {
    const b = builder().write(1, 'x', 1, v(3)).read(2, 'x', 1, v(4));
    expect(verdict(b.ops())).toBe('non-linearizable');
  });

  it('rejects versions that go backwards', () => {
    expect(verdict(builder().write(1, 'x', 1, v(5)).write(1, 'x', 2, v(3)).ops())).toBe(
      'non-linearizable',
    );
    // a seq_no reused by a later write
    expect(verdict(builder().write(1, 'x', 1, v(5)).write(1, 'x', 2, v(5)).ops())).toBe(
      'non-linearizable',
    );
    // a later seq_no from an older primary term
    expect(verdict(builder().write(1, 'x', 1, v(5, 2)).write(1, 'x', 2, v(6, 1)).ops())).toBe(
      'non-linearizable',
    );
    // a newer term continuing the seq_nos is fine
    expect(verdict(builder().write(1, 'x', 1, v(5, 1)).write(1, 'x', 2, v(6, 2)).ops())).toBe(
      'linearizable',
    );
  });

  it('rejects a read of a deleted document, and a delete answering the wrong found', () => {
    const del = builder()
      .write(1, 'x', 1, v(0))
      .inv(1, { kind: 'delete', key: 'x' })
      .okDelete(1, true, v(1))
      .read(2, 'x', 1, v(0));
    expect(verdict(del.ops())).toBe('non-linearizable');
    const nf = builder()
      .write(1, 'x', 1, v(0))
      .inv(1, { kind: 'delete', key: 'x' })
      .okDelete(1, false);
    expect(verdict(nf.ops())).toBe('non-linearizable');
  });

  it('ignores failed writes and reads (they did not happen)', () => {
    const b = builder()
      .inv(1, { kind: 'write', key: 'x', value: 1 })
      .fail(1, 'es_rejected_execution_exception')
      .inv(2, { kind: 'read', key: 'x' })
      .fail(2)
      .read(1, 'x');
    expect(check(b.ops())).toMatchObject({ verdict: 'linearizable', ops: 1 });
  });
});

describe('compare-and-set', () => {
  it('rejects two cas from the same version both succeeding (a lost cas)', () => {
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(1, { kind: 'cas', key: 'x', expected: v(0), value: 2 })
      .okCas(1, v(1))
      .inv(2, { kind: 'cas', key: 'x', expected: v(0), value: 3 })
      .okCas(2, v(2));
    const r = check(b.ops());
    expect(r.verdict).toBe('non-linearizable');
    if (r.verdict === 'non-linearizable')
      expect(r.failure.op).toContain('cas x if (seq 0, term 1) = 3');
  });

  it('accepts concurrent cas from the same version when only one succeeds', () => {
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(1, { kind: 'cas', key: 'x', expected: v(0), value: 2 })
      .inv(2, { kind: 'cas', key: 'x', expected: v(0), value: 3 })
      .conflict(1, v(1))
      .okCas(2, v(1))
      .read(1, 'x', 3, v(1));
    expect(verdict(b.ops())).toBe('linearizable');
  });

  it('rejects a cas acknowledged and then not seen (lost update)', () => {
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(1, { kind: 'cas', key: 'x', expected: v(0), value: 2 })
      .okCas(1, v(1))
      .read(2, 'x', 1, v(0));
    expect(verdict(b.ops())).toBe('non-linearizable');
  });

  it('rejects a spurious version conflict, accepts a real one', () => {
    const spurious = builder()
      .write(1, 'x', 1, v(4))
      .inv(2, { kind: 'cas', key: 'x', expected: v(4), value: 2 })
      .conflict(2);
    expect(verdict(spurious.ops())).toBe('non-linearizable');
    const real = builder()
      .write(1, 'x', 1, v(4))
      .inv(2, { kind: 'cas', key: 'x', expected: v(3), value: 2 })
      .conflict(2, v(4));
    expect(verdict(real.ops())).toBe('linearizable');
    // the reported current version is checked too
    const wrongCurrent = builder()
      .write(1, 'x', 1, v(4))
      .inv(2, { kind: 'cas', key: 'x', expected: v(3), value: 2 })
      .conflict(2, v(5));
    expect(verdict(wrongCurrent.ops())).toBe('non-linearizable');
    const missing = builder()
      .inv(2, { kind: 'cas', key: 'x', expected: v(3), value: 2 })
      .conflict(2, null);
    expect(verdict(missing.ops())).toBe('linearizable');
  });

  it("accepts a conflict naming a deleted document's tombstone (ES 6.8), only at its version", () => {
    const tombstone = builder()
      .write(1, 'x', 1, v(4))
      .inv(1, { kind: 'delete', key: 'x' })
      .okDelete(1, true, v(6))
      .inv(2, { kind: 'cas', key: 'x', expected: v(4), value: 2 })
      .conflict(2, v(6))
      .read(1, 'x');
    expect(verdict(tombstone.ops())).toBe('linearizable');
    const wrong = builder()
      .write(1, 'x', 1, v(4))
      .inv(1, { kind: 'delete', key: 'x' })
      .okDelete(1, true, v(6))
      .inv(2, { kind: 'cas', key: 'x', expected: v(4), value: 2 })
      .conflict(2, v(5));
    expect(verdict(wrong.ops())).toBe('non-linearizable');
  });

  it("accepts a cas matching a deleted document's tombstone (ES 6.8 recreates it)", () => {
    const b = (expected: number) =>
      builder()
        .write(1, 'x', 1, v(4))
        .inv(1, { kind: 'delete', key: 'x' })
        .okDelete(1, true, v(6))
        .inv(2, { kind: 'cas', key: 'x', expected: v(expected), value: 2 })
        .okCas(2, v(8))
        .read(1, 'x', 2, v(8));
    expect(verdict(b(6).ops())).toBe('linearizable');
    expect(verdict(b(4).ops())).toBe('non-linearizable');
  });

  it('rejects a cas succeeding on a missing document', () => {
    const b = builder()
      .inv(1, { kind: 'cas', key: 'x', expected: v(0), value: 1 })
      .okCas(1, v(1));
    expect(verdict(b.ops())).toBe('non-linearizable');
  });
});

describe('concurrency', () => {
  it('accepts overlapping ops in any order their intervals allow', () => {
    // w1 and w2 overlap; the reads see 2 then 1, so w2 went first.
    const b = builder()
      .inv(1, { kind: 'write', key: 'x', value: 1 })
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .inv(3, { kind: 'read', key: 'x' })
      .okRead(3, 2, v(0))
      .okWrite(2, v(0))
      .okWrite(1, v(1))
      .read(3, 'x', 1, v(1));
    expect(verdict(b.ops())).toBe('linearizable');
  });

  it('rejects the classic stale read', () => {
    // w1 completes, then w2 completes, then a read starting afterwards sees w1.
    const b = builder()
      .inv(1, { kind: 'write', key: 'x', value: 1 })
      .inv(3, { kind: 'read', key: 'x' })
      .okWrite(1, v(0))
      .write(2, 'x', 2, v(1))
      .okRead(3, 1, v(0)) // fine: the read overlapped both writes
      .read(4, 'x', 1, v(0)); // stale: it began after w2 was acknowledged
    const r = check(b.ops());
    expect(r.verdict).toBe('non-linearizable');
    if (r.verdict !== 'non-linearizable') return;
    expect(r.failure.op).toMatch(/^p4 .*read x ok → 1/);
    expect(r.failure.state).toBe('2 at (seq 1, term 1)');
    expect(r.failure.concurrent).toEqual([]);
    expect(r.failure.lastLinearized.at(-1)).toContain('write x = 2');
  });

  it('names the concurrent ops in the failing window', () => {
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .inv(3, { kind: 'read', key: 'x' })
      .okRead(3, 3, v(1))
      .okWrite(2, v(1));
    const r = check(b.ops());
    expect(r.verdict).toBe('non-linearizable');
    if (r.verdict !== 'non-linearizable') return;
    expect(r.failure.concurrent).toHaveLength(1);
    expect(r.failure.concurrent[0]).toContain('write x = 2');
    expect(r.failure.message).toContain('1 concurrent op');
  });
});

describe('unknown outcomes', () => {
  it('accepts an unknown write that happened, later, and pins its unseen version', () => {
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .info(2)
      .read(1, 'x', 1, v(0)) // not yet
      .read(1, 'x', 2, v(3)) // now it has
      .inv(1, { kind: 'cas', key: 'x', expected: v(3), value: 4 })
      .okCas(1, v(4));
    expect(verdict(b.ops())).toBe('linearizable');
  });

  it('accepts an unknown write that never happened', () => {
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .info(2);
    b.read(1, 'x', 1, v(0)).write(1, 'x', 3, v(1)).read(1, 'x', 3, v(1));
    expect(verdict(b.ops())).toBe('linearizable');
  });

  it('rejects an unknown write seen and then unseen', () => {
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .info(2);
    b.read(1, 'x', 2, v(1)).read(1, 'x', 1, v(0));
    expect(verdict(b.ops())).toBe('non-linearizable');
  });

  it('rejects an unknown write whose invisible version would have to fit in no gap', () => {
    // value 2 became visible at seq 1, but a write acknowledged before that read's start had
    // already taken seq 1 — there is no room for the unknown write to have happened.
    const b = builder()
      .write(1, 'x', 1, v(0))
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .info(2);
    b.write(1, 'x', 3, v(1)).read(1, 'x', 2, v(1));
    expect(verdict(b.ops())).toBe('non-linearizable');
  });

  it('treats an unknown cas as possible only from its expected version', () => {
    const ok = builder()
      .write(1, 'x', 1, v(0))
      .inv(2, { kind: 'cas', key: 'x', expected: v(0), value: 2 })
      .info(2)
      .read(1, 'x', 2, v(5));
    expect(verdict(ok.ops())).toBe('linearizable');
    const bad = builder()
      .write(1, 'x', 1, v(0))
      .inv(2, { kind: 'cas', key: 'x', expected: v(9), value: 2 })
      .info(2)
      .read(1, 'x', 2, v(10));
    expect(verdict(bad.ops())).toBe('non-linearizable');
  });

  it('treats an op the history never completed as unknown', () => {
    const b = builder().write(1, 'x', 1, v(0)).inv(2, { kind: 'delete', key: 'x' }).read(1, 'x');
    expect(verdict(b.ops())).toBe('linearizable');
  });

  it('an unknown delete may have happened', () => {
    const b = builder().write(1, 'x', 1, v(0)).inv(2, { kind: 'delete', key: 'x' }).info(2);
    b.read(1, 'x').write(1, 'x', 2, v(2));
    expect(verdict(b.ops())).toBe('linearizable');
  });
});

describe('budget', () => {
  it("says 'unknown', not 'linearizable', when the budget runs out", () => {
    const b = builder();
    for (let p = 0; p < 18; p++) b.inv(p, { kind: 'write', key: 'x', value: p });
    for (let p = 0; p < 18; p++) b.info(p);
    b.read(100, 'x', 999, v(50)); // never written: only an exhaustive search proves it
    const r = check(b.ops(), 2_000);
    expect(r).toMatchObject({ verdict: 'unknown', steps: 2_000 });
    if (r.verdict === 'unknown') expect(r.reason).toContain('budget');
  });

  it('a time budget gives unknown too', () => {
    const b = builder();
    for (let p = 0; p < 22; p++) b.inv(p, { kind: 'write', key: 'x', value: p });
    for (let p = 0; p < 22; p++) b.info(p);
    b.read(100, 'x', 999, v(50));
    const r = checkKey('x', b.ops(), { maxMillis: 50 });
    expect(r.verdict).toBe('unknown');
  });
});

describe('simulated stores', () => {
  it('accepts 300 random linearizable histories, with unknown outcomes', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const ops = simulate({ seed, ops: 60, concurrency: 4, infoRate: 0.1 });
      const r = check(ops);
      expect(r.verdict, `seed ${seed}`).toBe('linearizable');
    }
  });

  it('rejects each of them once one read is corrupted', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const ops = simulate({ seed, ops: 60, concurrency: 4, infoRate: 0.1 });
      const i = ops.findIndex((o) => o.result?.kind === 'read' && o.result.found);
      if (i < 0) continue;
      const o = ops[i]!;
      const r = o.result as { value: number };
      ops[i] = { ...o, result: { ...o.result!, value: r.value + 100_000 } as never };
      expect(check(ops).verdict, `seed ${seed}`).toBe('non-linearizable');
    }
  });

  it('checks 10,000 ops at concurrency 5 in well under a few seconds', () => {
    const ops = simulate({ seed: 7, ops: 10_000, concurrency: 5, infoRate: 0.01 });
    const t0 = performance.now();
    const r = check(ops);
    const ms = performance.now() - t0;
    expect(r.verdict).toBe('linearizable');
    expect(r.ops).toBeGreaterThan(9_000);
    expect(ms).toBeLessThan(2_000);
  });

  it('10,000 ops with 10 % unknown outcomes at concurrency 5 still check in under 3 s', () => {
    const ops = simulate({ seed: 11, ops: 10_000, concurrency: 5, infoRate: 0.1 });
    expect(ops.filter((o) => o.outcome === 'info').length).toBeGreaterThan(500);
    const t0 = performance.now();
    expect(check(ops).verdict).toBe('linearizable');
    expect(performance.now() - t0).toBeLessThan(3_000);
  });

  it('finds a stale read deep in 10,000 ops quickly', () => {
    const ops = simulate({ seed: 8, ops: 10_000, concurrency: 5 });
    // the last read that saw something: make it see the first value ever written
    const first = ops.find((o) => o.outcome === 'ok' && o.op.kind === 'write')!;
    const i = ops.findLastIndex((o) => o.result?.kind === 'read' && o.result.found);
    const o = ops[i]!;
    const w = first.op as { value: number };
    ops[i] = {
      ...o,
      result: { kind: 'read', found: true, value: w.value, version: (first.result as any).version },
    };
    const t0 = performance.now();
    const r = check(ops);
    expect(r.verdict).toBe('non-linearizable');
    expect(performance.now() - t0).toBeLessThan(3_000);
    if (r.verdict === 'non-linearizable') expect(r.failure.prefixLength).toBeGreaterThan(5_000);
  });

  it('agrees with a brute-force search on 3,000 small histories, valid and corrupted', () => {
    // The definition, searched naively: some remaining op that began before every remaining
    // return goes next; unknown ops may be left out.
    const reference = (steps: readonly Step[], state: DocState): boolean => {
      const returning = steps.filter((s) => s.returns);
      if (returning.length === 0) return true;
      const first = Math.min(...returning.map((s) => s.operation.complete!.index));
      return steps.some((s, i) => {
        if (s.operation.invoke.index > first) return false;
        const next = s.apply(state);
        return next !== null && reference([...steps.slice(0, i), ...steps.slice(i + 1)], next);
      });
    };
    const r = rng(99);
    const tally = { linearizable: 0, 'non-linearizable': 0 };
    for (let seed = 1; seed <= 3_000; seed++) {
      const ops = simulate({ seed, ops: 7, concurrency: 3, infoRate: 0.25 });
      if (r.chance(0.6)) {
        // corrupt one result a little: a nearby version, another value, found flipped
        const i = r.int(0, ops.length - 1);
        const o = ops[i]!;
        const res = o.result as any;
        if (res?.version)
          ops[i] = {
            ...o,
            result: { ...res, version: v(Math.max(0, res.version.seqNo + r.pick([-1, 1]))) },
          };
        else if (res?.kind === 'read' && !res.found)
          ops[i] = { ...o, result: { kind: 'read', found: true, value: 1, version: v(0) } };
      }
      const want = reference(
        ops.map(prepare).filter((s): s is Step => s !== null),
        ABSENT,
      );
      const got = check(ops).verdict;
      expect(got, `seed ${seed}`).toBe(want ? 'linearizable' : 'non-linearizable');
      tally[got as keyof typeof tally]++;
    }
    expect(tally.linearizable).toBeGreaterThan(1_000);
    expect(tally['non-linearizable']).toBeGreaterThan(500);
  });

  it('checks each key on its own', () => {
    const ops = simulate({ seed: 3, ops: 400, concurrency: 5, keys: ['a', 'b', 'c'] });
    const b = builder().write(1, 'z', 1, v(0)).read(1, 'z', 2, v(0));
    const verdicts = checkLinearizable([...ops, ...b.ops()]);
    expect(verdicts.map((x) => [x.key, x.verdict])).toEqual([
      ['a', 'linearizable'],
      ['b', 'linearizable'],
      ['c', 'linearizable'],
      ['z', 'non-linearizable'],
    ]);
  });
});
