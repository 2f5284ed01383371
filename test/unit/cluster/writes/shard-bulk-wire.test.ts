import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import type { WriteRequest } from '../../../../src/engine/write-request.js';
import {
  packResults,
  packShardBulk,
  unpackResults,
  unpackShardBulk,
  upsertThroughPipeline,
  type ShardBulkRequest,
} from '../../../../src/cluster/writes/shard-bulk-wire.js';
import { packSources, unpackSources } from '../../../../src/cluster/transport/source-attachment.js';

/** What crosses the transport: the JSON part as text, the attachment as bytes. */
const travel = (x: { body: unknown; attachment: Buffer }) => ({
  body: JSON.parse(JSON.stringify(x.body)) as unknown,
  attachment: Buffer.from(x.attachment),
});

const base = { index: 'logs', type: '_doc', routing: null, version: -3, versionType: 'internal' } as const; // prettier-ignore

describe('shard bulk on the wire', () => {
  it('carries index, delete and update requests with their sources intact', () => {
    const items: WriteRequest[] = [
      { kind: 'index', ...base, id: 'a', opType: 'index', source: Buffer.from('{"n":1}') },
      { kind: 'delete', ...base, id: 'b' },
      { kind: 'index', ...base, id: null, routing: 'r', opType: 'create', source: Buffer.from('{"ü":"ß"}'), ifSeqNo: 3, ifPrimaryTerm: 2, pipeline: 'p' }, // prettier-ignore
      { kind: 'update', ...base, id: 'c', body: { doc: { x: 1 } }, retryOnConflict: 2, fetchSource: null, prepareUpsert: (r) => r }, // prettier-ignore
      { kind: 'index', ...base, id: 'e', opType: 'index', source: Buffer.alloc(0) },
    ];
    const req: ShardBulkRequest = { index: 'logs', uuid: 'u1', shard: 3, policy: 'wait_for', items, timeoutMs: 5 }; // prettier-ignore
    const w = travel(packShardBulk(req));
    const back = unpackShardBulk(w.body, w.attachment);
    expect(back.index).toBe('logs');
    expect(back.uuid).toBe('u1');
    expect(back.shard).toBe(3);
    expect(back.policy).toBe('wait_for');
    expect(back.timeoutMs).toBe(5);
    expect(back.items[0]).toEqual(items[0]);
    expect(back.items[1]).toEqual(items[1]);
    expect(back.items[2]).toEqual(items[2]);
    const { prepareUpsert: _, ...update } = items[3] as Extract<WriteRequest, { kind: 'update' }>;
    expect(back.items[3]).toMatchObject(update);
    expect(upsertThroughPipeline(back.items[3]!)).toBe(true);
    expect(back.items[4]).toEqual(items[4]);
    expect('ends' in back).toBe(false);
  });

  it('carries plain answers, other answers and errors', () => {
    const plain = { _index: 'logs', _type: '_doc', _id: 'a', _version: 2, result: 'updated', _shards: { total: 2, successful: 2, failed: 0 }, _seq_no: 7, _primary_term: 1 }; // prettier-ignore
    const withFailures = { ...plain, _shards: { total: 2, successful: 1, failed: 1, failures: [{ reason: 'x' }] } }; // prettier-ignore
    const other = { ...plain, forced_refresh: true };
    const wire = JSON.parse(
      JSON.stringify(
        packResults([
          { status: 200, body: plain },
          { status: 201, body: withFailures },
          { status: 200, body: other },
          { error: new EsError('version_conflict_engine_exception', 'conflict', 409) },
        ]),
      ),
    ) as unknown;
    const back = unpackResults(wire);
    expect(back[0]).toEqual({ status: 200, body: plain });
    expect(Object.keys((back[0] as { body: object }).body)).toEqual(Object.keys(plain));
    expect(back[1]).toEqual({ status: 201, body: withFailures });
    expect(back[2]).toEqual({ status: 200, body: other });
    expect(back[3]!.error).toMatchObject({
      type: 'version_conflict_engine_exception',
      status: 409,
    });
  });
});

describe('sources in an attachment', () => {
  it('hands out views of one private copy, so the frame may be reused', () => {
    const { attachment, ends } = packSources([Buffer.from('ab'), Buffer.from(''), Buffer.from('cde')]); // prettier-ignore
    const frame = Buffer.from(attachment);
    const out = unpackSources(frame, ends);
    frame.fill(0);
    expect(out.map((b) => b.toString())).toEqual(['ab', '', 'cde']);
    expect(out[0]!.buffer).toBe(out[2]!.buffer);
  });

  it('refuses an attachment shorter than its sources', () => {
    expect(() => unpackSources(Buffer.from('ab'), [3])).toThrow('shorter');
  });
});
