/**
 * The changes a master (or a primary, for terms) makes to the cluster state, and the key-value
 * writes each one is. One list of ops is one atomic transaction.
 */
import type { ShardRouting, ShardTerms } from '../state.js';
import {
  encodeBody,
  encodeClusterMeta,
  encodeIndexMetadata,
  encodeRouting,
  encodeSettings,
  encodeTerms,
  type StoredIndexMetadata,
} from './codec.js';
import {
  keyForClusterMeta,
  keyForIndex,
  keyForRouting,
  keyForScript,
  keyForPipeline,
  keyForRepository,
  keyForSettings,
  keyForTemplate,
  keyForTerms,
  routingPrefix,
  termsPrefix,
  type KeySpace,
} from './keys.js';

export type StateOp =
  /** Index metadata without terms (terms are written with `putTerms`). */
  | { readonly type: 'putIndex'; readonly index: StoredIndexMetadata }
  /** The index's metadata, routing and terms. */
  | { readonly type: 'deleteIndex'; readonly uuid: string }
  | {
      readonly type: 'putRouting';
      readonly indexUuid: string;
      readonly shard: number;
      readonly copies: readonly ShardRouting[];
    }
  | {
      readonly type: 'putTerms';
      readonly indexUuid: string;
      readonly shard: number;
      readonly terms: ShardTerms;
    }
  | { readonly type: 'putTemplate'; readonly name: string; readonly body: unknown }
  | { readonly type: 'deleteTemplate'; readonly name: string }
  | { readonly type: 'putScript'; readonly id: string; readonly source: unknown }
  | { readonly type: 'deleteScript'; readonly id: string }
  | { readonly type: 'putPipeline'; readonly id: string; readonly config: unknown }
  | { readonly type: 'deletePipeline'; readonly id: string }
  | { readonly type: 'putRepository'; readonly name: string; readonly repository: unknown }
  | { readonly type: 'deleteRepository'; readonly name: string }
  | {
      readonly type: 'putSettings';
      readonly persistent: Readonly<Record<string, string>>;
      readonly transient: Readonly<Record<string, string>>;
    }
  | { readonly type: 'putClusterUuid'; readonly clusterUuid: string };

export type KvOp =
  | { readonly type: 'put'; readonly key: string; readonly value: string }
  | { readonly type: 'delete'; readonly key: string }
  | { readonly type: 'deletePrefix'; readonly prefix: string };

export function toKvOps(ks: KeySpace, ops: readonly StateOp[]): KvOp[] {
  const out: KvOp[] = [];
  for (const op of ops) {
    switch (op.type) {
      case 'putIndex':
        out.push({
          type: 'put',
          key: keyForIndex(ks, op.index.uuid),
          value: encodeIndexMetadata(op.index),
        });
        break;
      case 'deleteIndex':
        out.push({ type: 'delete', key: keyForIndex(ks, op.uuid) });
        out.push({ type: 'deletePrefix', prefix: routingPrefix(ks, op.uuid) });
        out.push({ type: 'deletePrefix', prefix: termsPrefix(ks, op.uuid) });
        break;
      case 'putRouting':
        out.push({
          type: 'put',
          key: keyForRouting(ks, op.indexUuid, op.shard),
          value: encodeRouting(op.copies),
        });
        break;
      case 'putTerms':
        out.push({
          type: 'put',
          key: keyForTerms(ks, op.indexUuid, op.shard),
          value: encodeTerms(op.terms),
        });
        break;
      case 'putTemplate':
        out.push({ type: 'put', key: keyForTemplate(ks, op.name), value: encodeBody(op.body) });
        break;
      case 'deleteTemplate':
        out.push({ type: 'delete', key: keyForTemplate(ks, op.name) });
        break;
      case 'putScript':
        out.push({ type: 'put', key: keyForScript(ks, op.id), value: encodeBody(op.source) });
        break;
      case 'deleteScript':
        out.push({ type: 'delete', key: keyForScript(ks, op.id) });
        break;
      case 'putPipeline':
        out.push({ type: 'put', key: keyForPipeline(ks, op.id), value: encodeBody(op.config) });
        break;
      case 'deletePipeline':
        out.push({ type: 'delete', key: keyForPipeline(ks, op.id) });
        break;
      case 'putRepository':
        out.push({ type: 'put', key: keyForRepository(ks, op.name), value: encodeBody(op.repository) }); // prettier-ignore
        break;
      case 'deleteRepository':
        out.push({ type: 'delete', key: keyForRepository(ks, op.name) });
        break;
      case 'putSettings':
        out.push({
          type: 'put',
          key: keyForSettings(ks),
          value: encodeSettings(op.persistent, op.transient),
        });
        break;
      case 'putClusterUuid':
        out.push({
          type: 'put',
          key: keyForClusterMeta(ks),
          value: encodeClusterMeta(op.clusterUuid),
        });
        break;
    }
  }
  return out;
}
