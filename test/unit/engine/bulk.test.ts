import { describe, expect, it } from 'vitest';
import { parseBulk } from '../../../src/engine/bulk.js';
import type { IndexRequest } from '../../../src/engine/write-request.js';

const body = (lines: string[]) => Buffer.from(lines.map((l) => l + '\n').join(''));

describe('parseBulk', () => {
  it('reads repeated action lines once but gives every item its own request and source', () => {
    const action = '{"index":{"_index":"i","_type":"_doc","routing":"r"}}';
    const reqs = parseBulk(body([action, '{"a":1}', action, '{"a":2}', action, '{"a":3}']), {});
    expect(reqs).toHaveLength(3);
    expect(new Set(reqs).size).toBe(3);
    reqs.forEach((r, i) => {
      expect(r).toMatchObject({ kind: 'index', index: 'i', type: '_doc', id: null, routing: 'r' });
      expect((r as IndexRequest).opType).toBe('index');
      expect((r as IndexRequest).source.toString()).toBe(`{"a":${i + 1}}`);
    });
  });

  it('re-reads an action line that differs from the one before', () => {
    const reqs = parseBulk(
      body([
        '{"index":{"_index":"i","_id":"1"}}',
        '{}',
        '{"create":{"_index":"i","_id":"2"}}',
        '{}',
        '{"delete":{"_index":"j","_id":"3","if_seq_no":4,"if_primary_term":1}}',
        '{"index":{"_index":"i","_id":"1"}}',
        '{"b":true}\r',
      ]),
      { type: '_doc' },
    );
    expect(reqs.map((r) => [r.kind, r.index, r.id])).toEqual([
      ['index', 'i', '1'],
      ['index', 'i', '2'],
      ['delete', 'j', '3'],
      ['index', 'i', '1'],
    ]);
    expect((reqs[1] as IndexRequest).opType).toBe('create');
    expect(reqs[2]).toMatchObject({ ifSeqNo: 4, ifPrimaryTerm: 1, type: '_doc' });
    expect((reqs[3] as IndexRequest).source.toString()).toBe('{"b":true}');
  });

  it('warns for a deprecated key on every line that uses it', () => {
    const action = '{"index":{"_index":"i","_routing":"x"}}';
    const warnings: string[] = [];
    parseBulk(body([action, '{}', action, '{}']), {}, warnings);
    expect(warnings).toEqual([
      'Deprecated field [_routing] used, expected [routing] instead',
      'Deprecated field [_routing] used, expected [routing] instead',
    ]);
  });

  it('reports the line number of a bad action line after repeated ones', () => {
    const action = '{"index":{"_index":"i"}}';
    expect(() =>
      parseBulk(body([action, '{}', action, '{}', '{"index":{"bogus":1}}', '{}']), {}),
    ).toThrow('Action/metadata line [5] contains an unknown parameter [bogus]');
  });

  it('takes update bodies and their _source option', () => {
    const reqs = parseBulk(
      body([
        '{"update":{"_index":"i","_id":"1","retry_on_conflict":3,"_source":true}}',
        '{"doc":{"a":1}}',
        '{"update":{"_index":"i","_id":"1","retry_on_conflict":3,"_source":true}}',
        '{"doc":{"a":2},"_source":"a"}',
      ]),
      {},
    );
    expect(reqs[0]).toMatchObject({
      kind: 'update',
      retryOnConflict: 3,
      body: { doc: { a: 1 } },
      fetchSource: { includes: [], excludes: [] },
    });
    expect(reqs[1]).toMatchObject({ body: { doc: { a: 2 } }, fetchSource: { includes: ['a'] } });
  });
});
