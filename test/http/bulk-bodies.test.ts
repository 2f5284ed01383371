/**
 * `_bulk` bodies over HTTP as the bulk parser reads them (one decoding of a valid UTF-8 body):
 * bodies sent in pieces that split lines and multi-byte characters, unicode ids, routing and
 * escaped strings in action lines and sources, a bad document failing only its item, and bodies
 * that are not UTF-8. The answers are checked as text, field order included.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

describe('_bulk bodies over HTTP', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(async () => {
    await node.destroy();
  });

  /** Sends `body` with its Content-Length, written in the given pieces (byte offsets). */
  const sendInPieces = (path: string, body: Buffer, cuts: number[]) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${node.url}${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-ndjson', 'content-length': String(body.length) }, // prettier-ignore
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      req.on('error', reject);
      let from = 0;
      for (const c of cuts) {
        req.write(body.subarray(from, c));
        from = c;
      }
      req.end(body.subarray(from));
    });

  it('indexes a body sent in pieces that split lines and characters', async () => {
    const lines = [
      '{"index":{"_index":"uni","_type":"_doc","_id":"é/1","routing":"ルート"}}',
      '{"t":"naïve café 🚀","q":"say \\"hi\\"\\\\ \\u00e9\\n"}',
      '{"create":{"_index":"uni","_type":"_doc","_id":"\\u65e5"}}\r',
      '{"t":"日本語"}\r',
      '{"index":{"_index":"uni","_type":"_doc","_id":"3"}}',
      '{"n":1}',
    ];
    const body = Buffer.from(lines.map((l) => l + '\n').join(''));
    // cut inside 'é' of the first id, inside the rocket, and just before a newline
    const e = body.indexOf(Buffer.from('é'));
    const rocket = body.indexOf(Buffer.from('🚀'));
    const r = await sendInPieces('/_bulk', body, [e + 1, rocket + 2, body.indexOf(10, rocket) - 1]); // prettier-ignore
    expect(r.status).toBe(200);
    const shards = '"_shards":{"total":2,"successful":1,"failed":0}';
    expect(r.text).toMatch(/^\{"took":\d+,"errors":false,"items":\[/);
    expect(r.text.replace(/^\{"took":\d+,/, '{')).toBe(
      '{"errors":false,"items":[' +
        `{"index":{"_index":"uni","_type":"_doc","_id":"é/1","_version":1,"result":"created",${shards},"_seq_no":0,"_primary_term":1,"status":201}},` +
        `{"create":{"_index":"uni","_type":"_doc","_id":"日","_version":1,"result":"created",${shards},"_seq_no":0,"_primary_term":1,"status":201}},` +
        `{"index":{"_index":"uni","_type":"_doc","_id":"3","_version":1,"result":"created",${shards},"_seq_no":0,"_primary_term":1,"status":201}}` +
        ']}',
    );
    const got = await node.req('GET', `/uni/_doc/${encodeURIComponent('é/1')}?routing=${encodeURIComponent('ルート')}`); // prettier-ignore
    expect(got.status).toBe(200);
    // the source comes back as the bytes sent
    expect(got.text).toContain(`"_source":${lines[1]}`);
    expect(got.json._source).toEqual({ t: 'naïve café 🚀', q: 'say "hi"\\ é\n' });
    const crlf = await node.req('GET', '/uni/_doc/%E6%97%A5');
    expect(crlf.text).toContain('"_source":{"t":"日本語"}}');
  });

  it('answers the same items compact, pretty, filtered and as YAML', async () => {
    const nd = (lines: string[]) => lines.map((l) => l + '\n').join('');
    const put = await node.req(
      'POST',
      '/fmt/_doc/_bulk?refresh=true',
      nd(['{"index":{"_id":"1"}}', '{"n":1.50,"s":"é"}']),
      { 'content-type': 'application/x-ndjson' },
    );
    expect(put.status).toBe(200);
    const body = nd([
      '{"index":{"_id":"2"}}',
      '{"n":2}',
      '{"update":{"_id":"1","_source":true}}',
      '{"doc":{"m":3}}',
      '{"create":{"_id":"2"}}',
      '{"n":3}',
      '{"delete":{"_id":"9"}}',
    ]);
    const ask = (q: string) =>
      node.req('POST', `/fmt/_doc/_bulk${q}`, body, { 'content-type': 'application/x-ndjson' });
    const r = await ask('');
    expect(r.status).toBe(200);
    const shards = '"_shards":{"total":2,"successful":1,"failed":0}';
    expect(r.text.replace(/^\{"took":\d+,/, '{')).toBe(
      '{"errors":true,"items":[' +
        `{"index":{"_index":"fmt","_type":"_doc","_id":"2","_version":1,"result":"created",${shards},"_seq_no":0,"_primary_term":1,"status":201}},` +
        `{"update":{"_index":"fmt","_type":"_doc","_id":"1","_version":2,"result":"updated",${shards},"_seq_no":1,"_primary_term":1,"get":{"_seq_no":1,"_primary_term":1,"found":true,"_source":{"n":1.5,"s":"é","m":3}},"status":200}},` +
        `{"create":{"_index":"fmt","_type":"_doc","_id":"2","status":409,"error":${JSON.stringify(r.json.items[2].create.error)}}},` +
        `{"delete":{"_index":"fmt","_type":"_doc","_id":"9","_version":1,"result":"not_found",${shards},"_seq_no":0,"_primary_term":1,"status":404}}` +
        ']}',
    );
    expect(r.json.items[2].create.error.type).toBe('version_conflict_engine_exception');
    const items = (j: any) =>
      j.items.map((i: any) => Object.values(i).map((v: any) => [v._id, v.status, v.result]));
    const pretty = await ask('?pretty');
    expect(pretty.text).toMatch(/^\{\n {2}"took" : \d+,\n {2}"errors" : true,\n {2}"items" : \[\n/);
    expect(items(pretty.json)).toEqual([
      [['2', 200, 'updated']],
      [['1', 200, 'noop']],
      [['2', 409, undefined]],
      [['9', 404, 'not_found']],
    ]);
    expect(pretty.json.items[1].update.get._source).toEqual({ n: 1.5, s: 'é', m: 3 });
    const filtered = await ask('?filter_path=items.*.error.type,items.*._id');
    expect(filtered.json).toEqual({
      items: [
        { index: { _id: '2' } },
        { update: { _id: '1' } },
        { create: { _id: '2', error: { type: 'version_conflict_engine_exception' } } },
        { delete: { _id: '9' } },
      ],
    });
    const yaml = await ask('?format=yaml');
    expect(yaml.text).toMatch(
      /^---\ntook: \d+\nerrors: true\nitems:\n {2}- index:\n {6}_index: fmt\n {6}_type: _doc\n {6}_id: "2"\n/,
    );
  });

  it('says forced_refresh after result on every answered item of a shard refresh=true refreshed', async () => {
    const nd = { 'content-type': 'application/x-ndjson' };
    // one shard: the noop update below answers from the shard the other items write to
    await node.req('PUT', '/fr', { settings: { number_of_shards: 1 } });
    await node.req('PUT', '/fr/_doc/u', { n: 1 });
    const body =
      [
        '{"index":{"_index":"fr","_type":"_doc","_id":"a"}}',
        '{"n":1}',
        '{"update":{"_index":"fr","_type":"_doc","_id":"u"}}',
        '{"doc":{"n":1}}',
        '{"create":{"_index":"fr","_type":"_doc","_id":"a"}}',
        '{"n":2}',
        '{"delete":{"_index":"fr","_type":"_doc","_id":"a"}}',
      ].join('\n') + '\n';
    const r = await node.req('POST', '/_bulk?refresh=true', body, nd);
    expect(r.status).toBe(200);
    const flags = r.json.items.map((i: any) => Object.values(i).map((v: any) => [v.result ?? v.status, v.forced_refresh])); // prettier-ignore
    expect(flags).toEqual([
      [['created', true]],
      [['noop', true]],
      [[409, undefined]],
      [['deleted', true]],
    ]);
    expect(Object.keys(r.json.items[0].index)).toEqual(['_index', '_type', '_id', '_version', 'result', 'forced_refresh', '_shards', '_seq_no', '_primary_term', 'status']); // prettier-ignore
    // the refresh happened before the answer
    const found = await node.req('GET', '/fr/_search?q=_id:a');
    expect(found.json.hits.total).toBe(0);
    // a shard with only a noop refreshes nothing
    const onlyNoop = await node.req('POST', '/_bulk?refresh=true', '{"update":{"_index":"fr","_type":"_doc","_id":"u"}}\n{"doc":{"n":1}}\n', nd); // prettier-ignore
    expect(onlyNoop.json.items[0].update.result).toBe('noop');
    expect('forced_refresh' in onlyNoop.json.items[0].update).toBe(false);
    const plain = await node.req('POST', '/_bulk', '{"index":{"_index":"fr","_type":"_doc","_id":"b"}}\n{"n":3}\n', nd); // prettier-ignore
    expect('forced_refresh' in plain.json.items[0].index).toBe(false);
    const one = await node.req('PUT', '/fr/_doc/c?refresh=true', { n: 4 });
    expect(Object.keys(one.json).slice(4, 6)).toEqual(['result', 'forced_refresh']);
    const noop = await node.req('POST', '/fr/_doc/u/_update?refresh=true', { doc: { n: 1 } });
    expect(noop.json.result).toBe('noop');
    expect('forced_refresh' in noop.json).toBe(false);
  });

  it('fails only the item of a bad document, and overwrites with versions', async () => {
    const body = Buffer.from(
      [
        '{"index":{"_index":"uni2","_type":"_doc","_id":"a"}}',
        '{"x":"ok"}',
        '{"index":{"_index":"uni2","_type":"_doc","_id":"b"}}',
        '{"x":"unterminated}',
        '{"index":{"_index":"uni2","_type":"_doc","_id":"a"}}',
        '{"x":"again ü"}',
        '',
      ].join('\n'),
    );
    const r = await sendInPieces('/_bulk', body, [7, 100]);
    expect(r.status).toBe(200);
    const a = JSON.parse(r.text);
    expect(a.errors).toBe(true);
    expect(
      a.items.map((i: any) => [i.index._id, i.index.status, i.index._version ?? null]),
    ).toEqual([
      ['a', 201, 1],
      ['b', 400, null],
      ['a', 200, 2],
    ]);
    expect(Object.keys(a.items[1].index)).toEqual(['_index', '_type', '_id', 'status', 'error']);
    expect(a.items[1].index.error.type).toBe('mapper_parsing_exception');
    expect(a.items[1].index.error.caused_by.type).toBe('json_e_o_f_exception');
    expect(a.items[2].index._seq_no).toBe(1);
  });

  it('reads a body that is not UTF-8 line by line, failing the bad item with Jackson words', async () => {
    const body = Buffer.concat([
      Buffer.from('{"index":{"_index":"uni3","_type":"_doc","_id":"1"}}\n{"x":"é"}\n'),
      Buffer.from('{"index":{"_index":"uni3","_type":"_doc","_id":"2"}}\n{"x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}\n'),
    ]);
    const r = await sendInPieces('/_bulk', body, [3]);
    expect(r.status).toBe(200);
    const a = JSON.parse(r.text);
    expect(a.items[0].index.status).toBe(201);
    expect(a.items[1].index.status).toBe(400);
    expect(a.items[1].index.error.caused_by.reason).toMatch(/^Invalid UTF-8 start byte 0xff/);
    const got = await node.req('GET', '/uni3/_doc/1');
    expect(got.json._source).toEqual({ x: 'é' });
  });

  it('refuses a malformed action line with its line number', async () => {
    const body = Buffer.from('{"index":{"_index":"uni4","_type":"_doc"}}\n{"t":"ü"}\n{"index":{"_id":"é","bogus":1}}\n{}\n'); // prettier-ignore
    const r = await sendInPieces('/_bulk', body, [body.indexOf(Buffer.from('ü')) + 1]);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error.reason).toBe(
      'Action/metadata line [3] contains an unknown parameter [bogus]',
    );
  });
});
