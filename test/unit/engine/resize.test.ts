/** Shrink and split: ES's preconditions, the target's settings and where documents land. */
import { describe, expect, it } from 'vitest';
import { shardForRouting } from '../../../src/common/murmur3.js';
import {
  resizedSettings,
  routingFactor,
  targetShardsOf,
  validateResize,
  type ResizeSource,
} from '../../../src/engine/resize.js';

const source = (over: Partial<ResizeSource> = {}): ResizeSource => ({
  name: 'source',
  uuid: 'u1',
  numberOfShards: 4,
  routingNumShards: 4,
  settings: { 'index.blocks.write': 'true', 'index.number_of_shards': '4' },
  ...over,
});

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    const err = e as { type: string; reason: string; status: number };
    return { type: err.type, reason: err.reason, status: err.status };
  }
  throw new Error('no error');
};

describe('routingFactor (ES IndexMetaData.getRoutingFactor)', () => {
  it('is the ratio of a shrink or a split, 1 for the same count', () => {
    expect(routingFactor(8, 2)).toBe(4);
    expect(routingFactor(2, 8)).toBe(4);
    expect(routingFactor(3, 3)).toBe(1);
  });
  it("refuses counts that do not divide, with ES's messages", () => {
    expect(failure(() => routingFactor(5, 2)).reason).toBe(
      'the number of source shards [5] must be a must be a multiple of [2]',
    );
    expect(failure(() => routingFactor(2, 5)).reason).toBe(
      'the number of source shards [2] must be a factor of [5]',
    );
  });
});

describe('validateResize', () => {
  it('defaults a shrink to one shard and requires the number of shards of a split', () => {
    expect(validateResize('shrink', source(), {}, false)).toBe(1);
    expect(failure(() => validateResize('split', source(), {}, false))).toEqual({
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: index.number_of_shards is required for split operations;',
      status: 400,
    });
  });
  it('refuses a shrink to more shards and a split to fewer', () => {
    expect(
      failure(() => validateResize('shrink', source(), { 'index.number_of_shards': '8' }, false))
        .reason,
    ).toBe('the number of target shards [8] must be less that the number of source shards [4]');
    expect(
      failure(() => validateResize('split', source(), { 'index.number_of_shards': '2' }, false))
        .reason,
    ).toBe('the number of source shards [4] must be less that the number of target shards [2]');
  });
  it('refuses a split the routing shards do not allow (illegal_state_exception)', () => {
    const one = source({ numberOfShards: 1, routingNumShards: 2 });
    expect(
      failure(() => validateResize('split', one, { 'index.number_of_shards': '3' }, false)),
    ).toEqual({
      type: 'illegal_state_exception',
      reason: 'the number of routing shards [2] must be a multiple of the target shards [3]',
      status: 500,
    });
    expect(validateResize('split', one, { 'index.number_of_shards': '2' }, false)).toBe(2);
  });
  it('refuses routing shards and a partition size in the request', () => {
    const one = source({ numberOfShards: 1, routingNumShards: 2 });
    const s = { 'index.number_of_shards': '2', 'index.number_of_routing_shards': '4' };
    expect(failure(() => validateResize('split', one, s, false))).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'cannot provide index.number_of_routing_shards on resize',
    });
    expect(
      failure(() =>
        validateResize('shrink', source(), { 'index.routing_partition_size': '2' }, false),
      ).reason,
    ).toBe('cannot provide a routing partition size value when resizing an index');
  });
  it('checks the target before the source, which must be write-blocked and take no mappings', () => {
    const open = source({ settings: {} });
    expect(failure(() => validateResize('shrink', open, {}, false))).toEqual({
      type: 'illegal_state_exception',
      reason: 'index source must be read-only to resize index. use "index.blocks.write=true"',
      status: 500,
    });
    const taken = () => {
      throw new Error('target exists');
    };
    expect(() => validateResize('shrink', open, {}, false, taken)).toThrow('target exists');
    const readOnly = source({ settings: { 'index.blocks.read_only': 'true' } });
    expect(validateResize('shrink', readOnly, {}, false)).toBe(1);
    expect(failure(() => validateResize('shrink', source(), {}, true)).reason).toBe(
      'mappings are not allowed when resizing indices, all mappings are copied from the source index',
    );
  });
});

describe('resizedSettings (ES prepareResizeIndexSettings)', () => {
  const src = source({
    routingNumShards: 8,
    settings: {
      'index.blocks.write': 'true',
      'index.number_of_shards': '4',
      'index.number_of_replicas': '2',
      'index.uuid': 'u1',
      'index.creation_date': '1',
      'index.provided_name': 'source',
      'index.merge.scheduler.max_merge_count': '4',
      'index.analysis.analyzer.a.type': 'standard',
      'index.allocation.max_retries': '7',
    },
  });
  it('without copy_settings takes only analysis, similarity and sort from the source', () => {
    const s = resizedSettings('shrink', src, { 'index.number_of_replicas': '0' }, 2, false);
    expect(s).toEqual({
      'index.number_of_replicas': '0',
      'index.number_of_shards': '2',
      'index.analysis.analyzer.a.type': 'standard',
      'index.routing_partition_size': '1',
      'index.resize.source.name': 'source',
      'index.resize.source.uuid': 'u1',
      'index.allocation.max_retries': '1',
      'index.number_of_routing_shards': '8',
    });
  });
  it('with copy_settings copies every copyable setting the request does not set', () => {
    const s = resizedSettings('split', src, { 'index.number_of_shards': '8' }, 8, true);
    expect(s['index.blocks.write']).toBe('true');
    expect(s['index.merge.scheduler.max_merge_count']).toBe('4');
    expect(s['index.number_of_replicas']).toBe('2');
    expect(s['index.number_of_shards']).toBe('8');
    // the index's identity and ES's NotCopyableOnResize settings stay behind
    expect(s['index.uuid']).toBeUndefined();
    expect(s['index.creation_date']).toBeUndefined();
    expect(s['index.allocation.max_retries']).toBeUndefined();
    expect(s['index.resize.source.uuid']).toBe('u1');
    expect(s['index.number_of_routing_shards']).toBeUndefined(); // 8 shards: the default
  });
});

describe('where documents land', () => {
  const ids = Array.from({ length: 400 }, (_, i) => `doc-${i}`);
  it('a shrink merges neighbouring source shards, by the source routing shards', () => {
    for (const id of ids) {
      const from = shardForRouting(id, 8, 8);
      const to = shardForRouting(id, 2, 8);
      expect(targetShardsOf(from, 8, 2)).toEqual([to]);
    }
  });
  it('a split spreads a source shard over its neighbours, by the routing shards', () => {
    for (const id of ids) {
      const from = shardForRouting(id, 2, 8);
      const to = shardForRouting(id, 4, 8);
      expect(targetShardsOf(from, 2, 4)).toContain(to);
    }
  });
});
