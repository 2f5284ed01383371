import { describe, expect, it } from 'vitest';
import { uncommitted } from '../../../src/engine/uncommitted.js';

/** A commit promise the test settles. */
function commit() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const p = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { p, resolve, reject };
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('uncommitted writes', () => {
  it('shows the latest write of an id until its commit, then forgets the commit whole', async () => {
    const u = uncommitted<string>();
    const a = commit();
    const b = commit();
    u.set(a.p, 'x', 'x1');
    u.set(a.p, 'y', 'y1');
    u.set(a.p, 'x', 'x2');
    u.set(b.p, 'x', 'x3');
    expect(u.get('x')).toBe('x3');
    expect(u.get('y')).toBe('y1');
    expect(u.has('z')).toBe(false);
    expect(u.size).toBe(3);
    a.resolve();
    await tick();
    expect(u.get('y')).toBeUndefined();
    expect(u.get('x')).toBe('x3');
    expect([...u.values()]).toEqual(['x3']);
    b.resolve();
    await tick();
    expect(u.get('x')).toBeUndefined();
    expect(u.size).toBe(0);
  });

  it('keeps a failed commit visible until a later commit of the same id settles', async () => {
    const u = uncommitted<string>();
    const a = commit();
    const b = commit();
    u.set(a.p, 'x', 'x1');
    u.set(a.p, 'y', 'y1');
    u.set(b.p, 'x', 'x2');
    a.reject(new Error('commit failed'));
    await tick();
    expect(u.get('x')).toBe('x2');
    expect(u.get('y')).toBe('y1');
    b.resolve();
    await tick();
    // the stored x2 is newer than the failed x1: reads go to the store
    expect(u.get('x')).toBeUndefined();
    expect(u.get('y')).toBe('y1');
  });

  it('forgets every write of a purged id', () => {
    const u = uncommitted<number>();
    const a = commit();
    const b = commit();
    u.set(a.p, 'x', 1);
    u.set(b.p, 'x', 2);
    u.delete('x');
    expect(u.has('x')).toBe(false);
    expect(u.size).toBe(0);
  });
});
