import { describe, expect, it } from 'vitest';
import { parseBulk } from '../../../src/engine/bulk.js';
import type { IndexRequest } from '../../../src/engine/write-request.js';
import { decodeJson } from '../../../src/common/json-bytes.js';

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

describe('parseBulk on a body decoded once', () => {
  /** Every index request's decoded text is what decoding its own bytes gives. */
  const decodedAsBytes = (reqs: ReturnType<typeof parseBulk>) => {
    for (const r of reqs) {
      if (r.kind !== 'index' || r.decoded === undefined) continue;
      expect(r.decoded.of).toBe(r.source);
      expect(r.decoded.text).toBe(decodeJson(r.source));
    }
  };

  it('pairs each source with its text across multi-byte characters, CRLF and escapes', () => {
    const lines = [
      '{"index":{"_index":"ï","_id":"ß1","routing":"ルート"}}',
      '{"t":"naïve café 🚀","e":"a\\"b\\\\c\\u00e9\\n"}',
      '{"index":{"_index":"ï","_id":"\\u00df2"}}\r',
      '{"t":"日本語テキスト"}\r',
      '{"delete":{"_index":"ï","_id":"𝄞"}}',
      '{"create":{"_index":"ï","_id":"3"}}',
      '{"x":"€"}',
    ];
    const reqs = parseBulk(body(lines), { type: '_doc' });
    expect(reqs.map((r) => [r.kind, r.index, r.id, r.routing])).toEqual([
      ['index', 'ï', 'ß1', 'ルート'],
      ['index', 'ï', 'ß2', null],
      ['delete', 'ï', '𝄞', null],
      ['index', 'ï', '3', null],
    ]);
    const texts = reqs.filter((r) => r.kind === 'index').map((r) => (r as IndexRequest).decoded!.text); // prettier-ignore
    expect(texts).toEqual([lines[1], '{"t":"日本語テキスト"}', '{"x":"€"}']);
    expect(JSON.parse(texts[0]!)).toEqual({ t: 'naïve café 🚀', e: 'a"b\\cé\n' });
    decodedAsBytes(reqs);
  });

  it('leaves a source that starts with a byte order mark to the document parser', () => {
    const reqs = parseBulk(body(['{"index":{"_index":"i"}}', '\ufeff{"a":1}', '{"index":{"_index":"i"}}', '{"a":2}']), {}); // prettier-ignore
    expect((reqs[0] as IndexRequest).decoded).toBeUndefined();
    expect((reqs[0] as IndexRequest).source.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // prettier-ignore
    expect((reqs[1] as IndexRequest).decoded!.text).toBe('{"a":2}');
  });

  it('reads an action line after a byte order mark, as the per-line decoder does', () => {
    const reqs = parseBulk(body(['\ufeff{"index":{"_index":"i","_id":"1"}}', '{}']), {});
    expect(reqs[0]).toMatchObject({ kind: 'index', index: 'i', id: '1' });
  });

  it('decodes a body that is not valid UTF-8 line by line, without decoded text', () => {
    const good = Buffer.from('{"index":{"_index":"i","_id":"1"}}\n{"a":"é"}\n');
    const bad = Buffer.concat([
      Buffer.from('{"index":{"_index":"i","_id":"2"}}\n{"a":"'),
      Buffer.from([0xff]),
      Buffer.from('"}\n'),
    ]);
    const reqs = parseBulk(Buffer.concat([good, bad]), {});
    expect(reqs.map((r) => r.id)).toEqual(['1', '2']);
    for (const r of reqs) expect((r as IndexRequest).decoded).toBeUndefined();
    expect((reqs[0] as IndexRequest).source.toString()).toBe('{"a":"é"}');
  });

  it('reports malformed action lines with their line numbers after multi-byte lines', () => {
    const a = '{"index":{"_index":"ü"}}';
    expect(() => parseBulk(body([a, '{"t":"ü€🚀"}', '{"index":{"_id":"é","bogus":1}}', '{}']), {})).toThrow(
      'Action/metadata line [3] contains an unknown parameter [bogus]',
    ); // prettier-ignore
    expect(() => parseBulk(body([a, '{"t":"🚀"}', '["x"]', '{}']), {})).toThrow(
      'Malformed action/metadata line [3], expected START_OBJECT but found [START_ARRAY]',
    );
    expect(() => parseBulk(body([a, '{"t":"🚀"}', '{"index":{"_id":"é"', '{}']), {})).toThrow(
      /Unexpected end-of-input/,
    );
  });

  it('ignores a last line without a newline and blank lines between items', () => {
    const buf = Buffer.from(
      '{"index":{"_index":"i"}}\n{"a":"ö"}\n\n  \n{"index":{"_index":"i"}}\n{"a":2}',
    );
    const reqs = parseBulk(buf, {});
    expect(reqs).toHaveLength(1);
    decodedAsBytes(reqs);
  });
});
