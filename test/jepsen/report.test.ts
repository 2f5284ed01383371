/**
 * The report: op counts per kind and outcome, fault counts and time, checker results, the time
 * from a primary's death to the next acknowledged write, and a summary ending `N passed, N failed`
 * in which an unknown verdict is not a pass.
 */
import { describe, expect, it } from 'vitest';
import { checkCopies } from './checkers/copies.js';
import { checkKey, checkLinearizable } from './checkers/linearizable.js';
import { checkSet } from './checkers/set.js';
import { operations } from './history.js';
import { buildReport, summarize } from './report.js';
import { builder, v } from './simulate.js';

function run() {
  const b = builder();
  const r = b.recorder;
  b.inv(1, { kind: 'insert', id: '1' });
  r.ok(1, { kind: 'insert' });
  b.write(2, 'x', 1, v(0));
  const death = r.clock.mono(); // the primary dies here
  b.inv(1, { kind: 'insert', id: '2' }).info(1);
  b.read(2, 'x', 1, v(0));
  b.inv(3, { kind: 'insert', id: '3' }).fail(3);
  b.inv(4, { kind: 'insert', id: '4' });
  r.ok(4, { kind: 'insert' }); // first acknowledged write after the death
  b.write(2, 'y', 1, v(1)).read(2, 'y', 7, v(1)); // y is not linearizable
  return { b, death };
}

describe('report', () => {
  it('counts, checks, failover time and a summary ending in the pass/fail line', () => {
    const { b, death } = run();
    const ops = b.ops();
    const events = b.recorder.events();
    const report = buildReport({
      events,
      seed: 42,
      set: checkSet(ops, { n1: ['1', '4', '2'], n2: ['1', '4', '2'] }),
      linearizable: checkLinearizable(ops),
      copies: checkCopies({
        's[0]': [
          { copy: 'n1', docs: [{ id: 'x', version: 1, seqNo: 0, primaryTerm: 1 }] },
          { copy: 'n2', docs: [] },
        ],
      }),
      faults: [
        { kind: 'kill', target: 'n1', start: death, end: death },
        { kind: 'partition', target: '127.0.0.2<->127.0.0.3', start: 0, end: 2_500_000_000 },
      ],
      primaryDeaths: [{ node: 'n1', at: death }],
    });
    expect(report.ops.insert).toEqual({ ok: 2, fail: 1, info: 1 });
    expect(report.ops.read).toEqual({ ok: 2, fail: 0, info: 0 });
    expect(report.ops.write).toEqual({ ok: 2, fail: 0, info: 0 });
    expect(report.faults).toEqual({
      kill: { count: 1, millis: 0 },
      pause: { count: 0, millis: 0 },
      partition: { count: 1, millis: 2_500 },
    });
    expect(report.set).toMatchObject({ valid: true, acknowledged: 2, recovered: 1, lost: [] });
    expect(report.linearizability.map((l) => [l.key, l.verdict])).toEqual([
      ['x', 'linearizable'],
      ['y', 'non-linearizable'],
    ]);
    expect(report.linearizability[1]!.explanation).toContain('read y ok → 7');
    expect(report.copies!.problems).toEqual([
      's[0]: doc x differs: n1 v1 seq 0 term 1, n2 missing',
    ]);
    // fake clock: 1 ms per reading; the death is 1 reading before the insert-2 invoke, and
    // insert 4's ok is the 8th reading after it
    expect(report.failover).toEqual([{ node: 'n1', diedAtMillis: 4, firstWriteAfterMillis: 8 }]);
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([
      ['set', 'pass'],
      ['linearizable x', 'pass'],
      ['linearizable y', 'fail'],
      ['copies', 'fail'],
    ]);
    expect([report.passed, report.failed]).toEqual([2, 2]);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);

    const text = summarize(report);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^fault test \(seed 42\), 0\.0\d? s/);
    expect(lines.at(-1)).toBe('2 passed, 2 failed');
    expect(text).toContain('insert 2 ok/1 fail/1 unknown');
    expect(text).toContain('partition 1 (2.5 s)');
    expect(text).toContain('failover: n1 died at 0.0 s; first write acknowledged 0.0 s later');
    expect(text).toContain('FAIL linearizable y: p2');
    expect(text).toContain('linearizable: 1 of 2 keys');
    expect(text).toContain('  s[0]: doc x differs');
  });

  it('counts an unknown verdict as failed, and a lost id in the summary', () => {
    const b = builder();
    for (let p = 0; p < 16; p++) b.inv(p, { kind: 'write', key: 'k', value: p });
    for (let p = 0; p < 16; p++) b.info(p);
    b.read(99, 'k', 999, v(9));
    b.inv(100, { kind: 'insert', id: 'gone' }).recorder.ok(100, { kind: 'insert' });
    const ops = operations(b.recorder.events());
    const report = buildReport({
      events: b.recorder.events(),
      set: checkSet(ops, { n1: [] }),
      linearizable: [checkKey('k', ops, { maxSteps: 500 })],
      primaryDeaths: [{ node: 'n2', at: b.recorder.clock.mono() }],
    });
    expect(report.checks.map((c) => c.status)).toEqual(['fail', 'unknown']);
    expect(report.failover[0]!.firstWriteAfterMillis).toBeNull();
    const text = summarize(report);
    expect(text).toContain('  lost: gone');
    expect(text).toContain('UNKNOWN linearizable k: search budget of 500 steps exhausted');
    expect(text).toContain('no write acknowledged afterwards');
    expect(text.split('\n').at(-1)).toBe('0 passed, 2 failed');
  });
});
