/**
 * The fenced transactions on etcd. A master's fence is its campaign key's create revision (what
 * etcd's Election.Proclaim checks): the key exists with that revision only while the candidacy
 * that won lives, so a deposed master's transaction fails whatever it believes. A primary's fence
 * is the shard's primary term.
 */
import type { Etcd3, IRequestOp } from 'etcd3';
import type { ShardTerms } from '../state.js';
import { decodeTerms, encodeTerms, INITIAL_TERMS } from './codec.js';
import { notMaster, noLongerPrimary, staleTerms } from './errors.js';
import { keyForTerms, type KeySpace } from './keys.js';
import type { KvOp } from './ops.js';

/** A master's fencing value. */
export interface MasterFence {
  readonly campaignKey: string;
  readonly createRevision: number;
}

/** The first key after every key starting with `prefix` (etcd's range end of a prefix). */
export function prefixEnd(prefix: string): Buffer {
  const b = Buffer.from(prefix);
  for (let i = b.length - 1; i >= 0; i--)
    if (b[i]! < 0xff) {
      const end = b.subarray(0, i + 1);
      end[i]!++;
      return end;
    }
  return Buffer.from([0]);
}

export function toRequestOps(ops: readonly KvOp[], lease?: string): IRequestOp[] {
  return ops.map((op): IRequestOp => {
    if (op.type === 'put')
      return {
        request_put: {
          key: Buffer.from(op.key),
          value: Buffer.from(op.value),
          ...(lease ? { lease } : {}),
        },
      };
    if (op.type === 'delete') return { request_delete_range: { key: Buffer.from(op.key) } };
    return {
      request_delete_range: { key: Buffer.from(op.prefix), range_end: prefixEnd(op.prefix) },
    };
  });
}

/**
 * Commits `ops` if the fence holds (and, when given, `absentKey` does not exist yet); resolves
 * with the revision. Rejects with not_master_exception otherwise; then nothing was written.
 */
export async function fencedMasterTxn(
  client: Etcd3,
  fence: MasterFence,
  ops: readonly KvOp[],
  absentKey?: string,
  unchangedSince?: { readonly keys: readonly string[]; readonly revision: number },
): Promise<number> {
  let txn = client.if(fence.campaignKey, 'Create', '==', fence.createRevision);
  if (absentKey) txn = txn.and(absentKey, 'Create', '==', 0);
  // keys the writer read at `revision` and must not overwrite if someone changed them since
  for (const k of unchangedSince?.keys ?? []) txn = txn.and(k, 'Mod', '<', unchangedSince!.revision + 1); // prettier-ignore
  const res = await txn.then(...toRequestOps(ops)).commit();
  if (!res.succeeded && unchangedSince && unchangedSince.keys.length > 0) {
    // which compare failed: the fence alone tells
    const [campaign] = (await client.get(fence.campaignKey).exec()).kvs;
    if (campaign && Number(campaign.create_revision) === fence.createRevision)
      throw staleTerms(unchangedSince.revision);
  }
  if (!res.succeeded)
    throw notMaster(
      absentKey
        ? `no longer master, or [${absentKey}] exists`
        : `no longer master: campaign [${fence.campaignKey}] at revision [${fence.createRevision}] is gone`,
    );
  return Number(res.header.revision);
}

/**
 * Replaces a shard's terms if its primary term is still `expectedTerm`. The compare is on the
 * key's mod revision as read (etcd compares whole values only), retried while other writers
 * change the in-sync set under the same term.
 */
export async function fencedTermTxn(
  client: Etcd3,
  ks: KeySpace,
  indexUuid: string,
  shard: number,
  expectedTerm: number,
  next: ShardTerms | ((current: ShardTerms) => ShardTerms),
): Promise<number> {
  const key = keyForTerms(ks, indexUuid, shard);
  for (let attempt = 0; attempt < 20; attempt++) {
    const read = await client.get(key).exec();
    const kv = read.kvs[0];
    const current = kv ? (decodeTerms(kv.value.toString()) ?? INITIAL_TERMS) : INITIAL_TERMS;
    if (current.primaryTerm !== expectedTerm)
      throw noLongerPrimary(
        indexUuid,
        shard,
        `primary term [${expectedTerm}] did not match current primary term [${current.primaryTerm}]`,
      );
    const res = await client
      .if(key, 'Mod', '==', kv ? Number(kv.mod_revision) : 0)
      .then(
        ...toRequestOps([
          {
            type: 'put',
            key,
            value: encodeTerms(typeof next === 'function' ? next(current) : next),
          },
        ]),
      )
      .commit();
    if (res.succeeded) return Number(res.header.revision);
  }
  throw noLongerPrimary(indexUuid, shard, 'the shard terms kept changing; retry');
}
