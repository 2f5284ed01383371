import { describe, expect, it } from 'vitest';
import { CopyListing, keptCopies } from '../../../../src/cluster/gateway/local-copies.js';

describe('shard store listing', () => {
  it('the master keeps only copies of indices it still has', () => {
    const listed = { 'u1/0': 'a1', 'u1/1': 'a2', 'gone/0': 'a3' };
    expect(keptCopies(listed, new Set(['u1']))).toEqual({ 'u1/0': 'a1', 'u1/1': 'a2' });
    expect(keptCopies(listed, new Set())).toEqual({});
  });

  it("a node's new listing replaces what it said before", () => {
    const listing = new CopyListing();
    listing.update('n1', { 'u1/0': 'a1' });
    listing.update('n2', { 'u1/0': 'b1' });
    expect([...listing.copies('u1', 0)]).toEqual([
      ['n1', 'a1'],
      ['n2', 'b1'],
    ]);
    listing.update('n1', {});
    expect([...listing.copies('u1', 0)]).toEqual([['n2', 'b1']]);
  });
});
