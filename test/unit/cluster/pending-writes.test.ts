import { describe, expect, it } from 'vitest';
import { pendingWrites } from '../../../src/cluster/writes/pending-writes.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('writes in flight on a primary', () => {
  it('holds a GET of a document until its write is acknowledged', async () => {
    const p = pendingWrites();
    const settle = p.begin('i', 0, 3, ['a', 'b']);
    let done = false;
    const read = p.settled('i', 0, 'a', 3, true).then(() => (done = true));
    await tick();
    expect(done).toBe(false);
    // another document, or another shard, is not held
    await p.settled('i', 0, 'c', 3, true);
    await p.settled('i', 1, 'a', 3, true);
    settle(true);
    await read;
    expect(done).toBe(true);
  });

  it('refuses reads of the shard after a failed write until its term moves on', async () => {
    const p = pendingWrites();
    const settle = p.begin('i', 0, 3, ['a']);
    const read = p.settled('i', 0, 'a', 3, true);
    settle(false);
    await expect(read).rejects.toMatchObject({ type: 'no_shard_available_action_exception', status: 503 }); // prettier-ignore
    // any document of the shard: the copy may hold other unacknowledged writes
    await expect(p.settled('i', 0, 'z', 3, true)).rejects.toMatchObject({ status: 503 });
    await p.settled('i', 1, 'z', 3, true);
    // failed over: a new term, or the primary elsewhere
    await p.settled('i', 0, 'z', 4, true);
    await p.settled('i', 0, 'z', 3, true);
  });

  it('lets a node that no longer holds the primary read its copy', async () => {
    const p = pendingWrites();
    p.begin('i', 0, 3, ['a'])(false);
    await p.settled('i', 0, 'a', 3, false);
  });

  it('holds a GET until every overlapping write of the document is acknowledged', async () => {
    const p = pendingWrites();
    const first = p.begin('i', 0, 3, ['a']);
    const second = p.begin('i', 0, 3, ['a', 'b']);
    const third = p.begin('i', 0, 3, ['a']);
    let done = false;
    const read = p.settled('i', 0, 'a', 3, true).then(() => (done = true));
    second(true);
    first(true);
    await tick();
    expect(done).toBe(false);
    third(true);
    await read;
    expect(done).toBe(true);
    // all settled: nothing is held any more
    let again = false;
    await p.settled('i', 0, 'a', 3, true).then(() => (again = true));
    expect(again).toBe(true);
  });
});
