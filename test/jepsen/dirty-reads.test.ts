import { describe, expect, it } from 'vitest';
import { checkKey } from './checkers/linearizable.js';
import { diagnoseDirtyReads } from './checkers/dirty-reads.js';
import { builder, v } from './simulate.js';

describe('the dirty-read diagnosis', () => {
  it('explains a read of an unacknowledged write that was later rolled back', () => {
    const b = builder()
      .write(1, 'x', 1, v(4))
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .read(3, 'x', 2, v(5)) // the primary served its unacknowledged write
      .info(2)
      .read(3, 'x', 1, v(4)); // rolled back: gone
    expect(checkKey('x', b.ops()).verdict).toBe('non-linearizable');
    const d = diagnoseDirtyReads(b.ops());
    expect(d.unacknowledgedObservations).toBe(1);
    expect(d.verdicts[0]!.verdict).toBe('linearizable');
  });

  it('tells keys apart: another key acknowledged at the same (seq_no, term) does not count', () => {
    const b = builder()
      .write(1, 'x', 1, v(4))
      .write(1, 'y', 9, v(5)) // another shard: the same version is another document's
      .inv(2, { kind: 'write', key: 'x', value: 2 })
      .read(3, 'x', 2, v(5))
      .info(2)
      .read(3, 'x', 1, v(4));
    const d = diagnoseDirtyReads(b.ops());
    expect(d.unacknowledgedObservations).toBe(1);
    expect(d.verdicts.every((x) => x.verdict === 'linearizable')).toBe(true);
  });

  it('does not explain away a lost acknowledged write', () => {
    const b = builder().write(1, 'x', 1, v(4)).write(2, 'x', 2, v(5)).read(3, 'x', 1, v(4));
    const d = diagnoseDirtyReads(b.ops());
    expect(d.unacknowledgedObservations).toBe(0);
    expect(d.verdicts[0]!.verdict).toBe('non-linearizable');
  });
});
