/**
 * Elasticsearch 6.8 answers become history completions: versions from `_seq_no`/`_primary_term`,
 * a version conflict as a failed cas that observed the current version, a create conflict as an
 * insert that happened, a refusal as fail, and everything that may have run as unknown.
 */
import { describe, expect, it } from 'vitest';
import { classify, classifyError, conflictCurrent } from './es-outcome.js';
import type { Op } from './history.js';
import { v } from './simulate.js';

const read: Op = { kind: 'read', key: 'k1' };
const write: Op = { kind: 'write', key: 'k1', value: 'a' };
const cas: Op = { kind: 'cas', key: 'k1', expected: v(3, 1), value: 'b' };
const del: Op = { kind: 'delete', key: 'k1' };
const insert: Op = { kind: 'insert', id: 'i-1' };
const indexed = {
  _index: 'reg',
  _type: '_doc',
  _id: 'k1',
  _version: 2,
  result: 'updated',
  _seq_no: 7,
  _primary_term: 2,
};
const conflict = (reason: string) => ({
  error: {
    root_cause: [{ type: 'version_conflict_engine_exception', reason }],
    type: 'version_conflict_engine_exception',
    reason,
  },
  status: 409,
});

describe('classify', () => {
  it('reads', () => {
    expect(
      classify(read, 200, { found: true, _seq_no: 4, _primary_term: 1, _source: { value: 'x' } }),
    ).toEqual({
      type: 'ok',
      result: { kind: 'read', found: true, value: 'x', version: v(4) },
    });
    expect(classify(read, 404, { _index: 'reg', _type: '_doc', _id: 'k1', found: false })).toEqual({
      type: 'ok',
      result: { kind: 'read', found: false },
    });
    expect(classify(read, 200, { found: true, _source: { value: 'x' } }).type).toBe('info');
    expect(
      classify(read, 404, { error: { type: 'index_not_found_exception' }, status: 404 }),
    ).toEqual({
      type: 'fail',
      failure: { error: '404 index_not_found_exception' },
    });
  });

  it('writes, cas and inserts', () => {
    expect(classify(write, 201, indexed)).toEqual({
      type: 'ok',
      result: { kind: 'write', version: v(7, 2) },
    });
    expect(classify(cas, 200, indexed)).toEqual({
      type: 'ok',
      result: { kind: 'cas', version: v(7, 2) },
    });
    expect(classify(insert, 201, indexed)).toEqual({
      type: 'ok',
      result: { kind: 'insert', version: v(7, 2) },
    });
  });

  it('a version conflict is a failed cas that observed the current version', () => {
    const r = classify(
      cas,
      409,
      conflict(
        '[_doc][k1]: version conflict, required seqNo [3], primary term [1]. current document has seqNo [9] and primary term [2]',
      ),
    );
    expect(r).toEqual({
      type: 'fail',
      failure: { error: 'version_conflict_engine_exception', conflict: true, current: v(9, 2) },
    });
    const missing = classify(
      cas,
      409,
      conflict(
        '[_doc][k1]: version conflict, required seqNo [3], primary term [1]. but no document was found',
      ),
    );
    expect(missing).toMatchObject({ type: 'fail', failure: { conflict: true, current: null } });
    expect(classify(cas, 409, conflict('something else'))).toEqual({
      type: 'fail',
      failure: { error: 'version_conflict_engine_exception', conflict: true },
    });
  });

  it('a create conflict means an earlier attempt of the insert happened', () => {
    expect(
      classify(
        insert,
        409,
        conflict('[_doc][i-1]: version conflict, document already exists (current version [1])'),
      ),
    ).toEqual({
      type: 'ok',
      result: { kind: 'insert' },
    });
  });

  it('deletes, found or not (a not-found delete still takes a seq_no)', () => {
    expect(classify(del, 200, { ...indexed, result: 'deleted' })).toEqual({
      type: 'ok',
      result: { kind: 'delete', found: true, version: v(7, 2) },
    });
    expect(classify(del, 404, { ...indexed, result: 'not_found' })).toEqual({
      type: 'ok',
      result: { kind: 'delete', found: false, version: v(7, 2) },
    });
  });

  it('refusals fail; what may have run is unknown', () => {
    const block = {
      error: {
        type: 'cluster_block_exception',
        reason: 'blocked by: [SERVICE_UNAVAILABLE/2/no master];',
      },
      status: 503,
    };
    expect(classify(write, 503, block)).toEqual({
      type: 'info',
      error: '503 cluster_block_exception',
    });
    expect(classify(write, 403, { ...block, status: 403 })).toEqual({
      type: 'fail',
      failure: { error: '403 cluster_block_exception' },
    });
    expect(
      classify(write, 400, { error: { type: 'mapper_parsing_exception' }, status: 400 }).type,
    ).toBe('fail');
    expect(
      classify(write, 429, { error: { type: 'es_rejected_execution_exception' }, status: 429 })
        .type,
    ).toBe('info');
    expect(classify(write, 500, {}).type).toBe('info');
    expect(classify(write, 504, undefined).type).toBe('info');
    expect(classify(write, 302, {}).type).toBe('info');
  });

  it('no answer: refused connection fails, anything else is unknown', () => {
    expect(classifyError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toEqual({
      type: 'fail',
      failure: { error: 'ECONNREFUSED' },
    });
    // fetch wraps the socket error in `cause`
    expect(
      classifyError(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })).type,
    ).toBe('fail');
    expect(classifyError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toEqual({
      type: 'info',
      error: 'ECONNRESET',
    });
    expect(classifyError(new DOMException('timed out', 'TimeoutError'))).toMatchObject({
      type: 'info',
    });
  });

  it('parses the current version from the reason', () => {
    expect(conflictCurrent('... current document has seqNo [12] and primary term [3]')).toEqual(
      v(12, 3),
    );
    expect(conflictCurrent('... but no document was found')).toBeNull();
    expect(conflictCurrent('whatever')).toBeUndefined();
  });
});
