/**
 * Restore marks at start: an index a restore was still filling comes up red (and can be deleted),
 * while a mark whose index is gone, or is a later index of the same name, is dropped and fails
 * nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestNode } from '../helpers/node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-rmarks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const health = async (n: Awaited<ReturnType<typeof startTestNode>>, index: string) =>
  (await n.req('GET', `/_cluster/health/${index}?timeout=1s`)).json.status;

describe('restore marks', () => {
  it('fail only the index an unfinished restore was filling', async () => {
    const n1 = await startTestNode(dir);
    for (const i of ['half', 'early', 'later'])
      await n1.req('PUT', `/${i}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    const uuid = (i: string) => n1.context.indices.get(i)!.uuid;
    const store = n1.context.store;
    // killed while filling `half`; killed before `early` had its uuid; `later` was deleted and
    // made again since its restore; `gone` was deleted
    await store.putMeta('restoring:half', { snapshot: 's1', uuid: uuid('half') });
    await store.putMeta('restoring:early', { snapshot: 's1', uuid: null });
    await store.putMeta('restoring:later', { snapshot: 's1', uuid: 'an-older-index-uuid' });
    await store.putMeta('restoring:gone', { snapshot: 's1', uuid: null });
    await store.durable();
    await n1.close();

    const n2 = await startTestNode(dir);
    try {
      expect(await health(n2, 'half')).toBe('red');
      expect(await health(n2, 'early')).toBe('red');
      expect(await health(n2, 'later')).toBe('green');
      expect(n2.context.indices.get('half')!.failure).toBe('restore of snapshot [s1] did not complete'); // prettier-ignore
      expect(n2.context.store.metaKeys('restoring:').sort()).toEqual(['restoring:early', 'restoring:half']); // prettier-ignore
      // `early`'s mark now names its index, so a new index of the name is not failed by it
      expect(n2.context.store.getMeta('restoring:early')).toEqual({ snapshot: 's1', uuid: n2.context.indices.get('early')!.uuid }); // prettier-ignore
      expect((await n2.req('DELETE', '/early')).status).toBe(200);
      expect((await n2.req('DELETE', '/half')).status).toBe(200);
      await n2.req('PUT', '/early', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    } finally {
      await n2.close();
    }
    const n3 = await startTestNode(dir);
    try {
      expect(await health(n3, 'early')).toBe('green');
      expect(n3.context.store.metaKeys('restoring:')).toEqual([]);
    } finally {
      await n3.close();
    }
  });
});
