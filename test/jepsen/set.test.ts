/**
 * The set checker: acknowledged inserts must be on every copy; it tells lost from missing on one
 * copy, counts unknown inserts that happened, and flags ids nobody inserted or that failed.
 */
import { describe, expect, it } from 'vitest';
import { checkSet } from './checkers/set.js';
import { builder } from './simulate.js';

function history() {
  const b = builder();
  const ins = (p: number, id: string) => b.inv(p, { kind: 'insert', id });
  ins(1, '1').recorder.ok(1, { kind: 'insert' });
  ins(1, '2').recorder.ok(1, { kind: 'insert' });
  ins(2, '3').info(2); // unknown
  ins(3, '4').info(3); // unknown
  ins(4, '5').fail(4);
  ins(4, '10').recorder.ok(4, { kind: 'insert' });
  return b.ops();
}

describe('set check', () => {
  it('passes when every acknowledged id is on every copy', () => {
    const r = checkSet(history(), { n1: ['1', '2', '10', '3'], n2: ['10', '3', '2', '1'] });
    expect(r).toMatchObject({
      valid: true,
      attempted: 6,
      acknowledged: 3,
      failed: 1,
      unknown: 2,
      lost: [],
      recovered: ['3'],
      divergent: [],
      unexpected: [],
      failedButPresent: [],
      missingOnCopy: { n1: [], n2: [] },
    });
  });

  it('reports lost (absent everywhere) apart from missing on one copy', () => {
    const r = checkSet(history(), { n1: ['1', '10'], n2: ['1'] });
    expect(r.valid).toBe(false);
    expect(r.lost).toEqual(['2']);
    expect(r.missingOnCopy).toEqual({ n1: ['2'], n2: ['2', '10'] });
    expect(r.divergent).toEqual(['10']);
  });

  it('flags an unknown insert on only some copies as divergence', () => {
    const r = checkSet(history(), { n1: ['1', '2', '10', '4'], n2: ['1', '2', '10'] });
    expect(r.valid).toBe(false);
    expect(r.recovered).toEqual(['4']);
    expect(r.divergent).toEqual(['4']);
    expect(r.lost).toEqual([]);
  });

  it('flags unexpected ids and failed inserts that are present', () => {
    const r = checkSet(history(), { n1: ['1', '2', '10', '5', 'ghost'] });
    expect(r.valid).toBe(false);
    expect(r.unexpected).toEqual(['ghost']);
    expect(r.failedButPresent).toEqual(['5']);
  });

  it('an id retried after an unknown outcome counts once, acknowledged', () => {
    const b = builder();
    b.inv(1, { kind: 'insert', id: 'a' }).info(1);
    b.inv(2, { kind: 'insert', id: 'a' }).recorder.ok(2, { kind: 'insert' });
    b.inv(2, { kind: 'insert', id: 'a' }).fail(2, 'version_conflict_engine_exception');
    const r = checkSet(b.ops(), { n1: [] });
    expect(r).toMatchObject({ attempted: 1, acknowledged: 1, lost: ['a'], valid: false });
  });

  it('needs at least one copy', () => {
    expect(() => checkSet(history(), {})).toThrow(/at least one copy/);
  });
});
