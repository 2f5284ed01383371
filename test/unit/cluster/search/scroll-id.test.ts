/**
 * The scroll id of a search across nodes: every context and its node survive the round trip;
 * a lone node's id or text that is no scroll id decodes to null.
 */
import { describe, expect, it } from 'vitest';
import { decodeScrollId, encodeScrollId } from '../../../../src/cluster/search/scroll-id.js';

describe('cluster scroll id', () => {
  it('names every context, its shard count and its node', () => {
    const s = {
      id: 'scroll-1',
      shards: 5,
      contexts: [
        { contextId: 'c-1', shards: 3, nodeId: 'node_A-x' },
        { contextId: 'c-2', shards: 2, nodeId: 'B:weird' },
      ],
    };
    const text = encodeScrollId(s);
    expect(text).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(decodeScrollId(text)).toEqual(s);
    expect(decodeScrollId(encodeScrollId({ id: 'e', shards: 0, contexts: [] }))).toEqual({
      id: 'e',
      shards: 0,
      contexts: [],
    });
  });

  it('refuses what is not a cluster scroll id', () => {
    expect(decodeScrollId(Buffer.from('queryAndFetch;1;abc').toString('base64'))).toBeNull();
    expect(decodeScrollId('invalid_scroll_id')).toBeNull();
    expect(decodeScrollId(Buffer.from('queryThenFetch;x;s').toString('base64'))).toBeNull();
  });
});
