/**
 * The history recorder: invoke/completion pairing per process, times on one clock, exceptions as
 * unknown outcomes, and a JSON-lines form that reads back to the same events.
 */
import { describe, expect, it } from 'vitest';
import {
  createClock,
  createRecorder,
  describeOperation,
  operations,
  parseJsonLines,
} from './history.js';
import { recorder, v } from './simulate.js';

describe('recorder', () => {
  it('records invoke and completion events with index, process and both clocks', () => {
    const r = createRecorder(createClock());
    r.invoke(1, { kind: 'insert', id: 'a' });
    r.invoke(2, { kind: 'read', key: 'k' });
    r.ok(2, { kind: 'read', found: false });
    r.info(1, 'socket hang up');
    const ev = r.events();
    expect(ev.map((e) => [e.index, e.process, e.type])).toEqual([
      [0, 1, 'invoke'],
      [1, 2, 'invoke'],
      [2, 2, 'ok'],
      [3, 1, 'info'],
    ]);
    for (let i = 1; i < ev.length; i++) expect(ev[i]!.mono).toBeGreaterThanOrEqual(ev[i - 1]!.mono);
    expect(Math.abs(ev[0]!.wall - Date.now())).toBeLessThan(5_000);
  });

  it('refuses a second op in flight on one process, and a completion without invoke', () => {
    const r = recorder();
    r.invoke(1, { kind: 'read', key: 'k' });
    expect(() => r.invoke(1, { kind: 'read', key: 'k' })).toThrow(/already has an op/);
    expect(() => r.ok(2, { kind: 'read', found: false })).toThrow(/no op in flight/);
  });

  it('call() records ok, fail, and a throw as info', async () => {
    const r = recorder();
    expect(
      await r.call(1, { kind: 'insert', id: 'a' }, async () => ({
        type: 'ok',
        result: { kind: 'insert' },
      })),
    ).toBe('ok');
    expect(
      await r.call(1, { kind: 'cas', key: 'k', expected: v(1), value: 2 }, async () => ({
        type: 'fail',
        failure: { error: 'version_conflict_engine_exception', conflict: true, current: v(2) },
      })),
    ).toBe('fail');
    expect(
      await r.call(1, { kind: 'write', key: 'k', value: 1 }, async () => {
        throw new Error('ETIMEDOUT');
      }),
    ).toBe('info');
    const ops = operations(r.events());
    expect(ops.map((o) => o.outcome)).toEqual(['ok', 'fail', 'info']);
    expect(ops[1]!.failure).toMatchObject({ conflict: true, current: v(2) });
    expect(r.events()[5]).toMatchObject({ type: 'info', error: 'ETIMEDOUT' });
  });

  it('serializes to JSON lines that parse back to the same events', () => {
    const r = recorder();
    r.invoke(3, { kind: 'cas', key: 'k', expected: v(4, 2), value: 'x' });
    r.ok(3, { kind: 'cas', version: v(5, 2) });
    r.invoke(4, { kind: 'delete', key: 'k' });
    const text = r.toJsonLines();
    expect(text.split('\n')).toHaveLength(4); // three lines and the final newline
    expect(parseJsonLines(text)).toEqual(r.events());
  });

  it('appends 200,000 events quickly', () => {
    const r = createRecorder();
    const t0 = performance.now();
    for (let i = 0; i < 100_000; i++) {
      r.invoke(i % 10, { kind: 'insert', id: String(i) });
      r.ok(i % 10, { kind: 'insert' });
    }
    expect(r.events()).toHaveLength(200_000);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});

describe('operations', () => {
  it('pairs by process, in invoke order, and leaves unfinished ops as info', () => {
    const r = recorder();
    r.invoke(1, { kind: 'write', key: 'k', value: 1 });
    r.invoke(2, { kind: 'read', key: 'k' });
    r.ok(1, { kind: 'write', version: v(0) });
    r.invoke(1, { kind: 'delete', key: 'k' });
    const ops = operations(r.events());
    expect(ops.map((o) => [o.process, o.op.kind, o.outcome, o.complete?.index])).toEqual([
      [1, 'write', 'ok', 2],
      [2, 'read', 'info', undefined],
      [1, 'delete', 'info', undefined],
    ]);
    expect(describeOperation(ops[0]!)).toBe('p1 [0–2] write k = 1 ok → (seq 0, term 1)');
    expect(describeOperation(ops[1]!)).toBe('p2 [1–∞] read k info → (never completed)');
  });
});
