/** `_nodes/stats` on a node without shards still has every indices section, at zero (ES NodeIndicesStats). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.destroy());

describe('_nodes/stats on a node without indices', () => {
  it('renders the indices sections with zeros', async () => {
    const r = await node.req('GET', '/_nodes/stats/indices');
    const indices = (Object.values(r.json.nodes)[0] as any).indices;
    expect(indices.docs).toEqual({ count: 0, deleted: 0 });
    expect(indices.store).toEqual({ size_in_bytes: 0 });
    expect(indices.indexing.index_total).toBe(0);
    for (const s of ['get', 'search', 'merges', 'refresh', 'flush', 'segments', 'translog'])
      expect(indices[s], s).toBeDefined();
    const one = await node.req('GET', '/_nodes/stats/indices/docs');
    expect(Object.keys((Object.values(one.json.nodes)[0] as any).indices)).toEqual(['docs']);
  });
});
