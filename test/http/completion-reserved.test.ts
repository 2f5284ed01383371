/**
 * Completion inputs over HTTP, as ES 6.8 (Lucene 7.7 SuggestField) treats them: an input holding
 * a character the suggester reserves (0x1F separator, 0x1E hole, 0x00 end byte; 0x1D too on a
 * field with contexts) fails the document with "failed to parse" caused by Lucene's
 * illegal_argument_exception, and `preserve_separators: false` matches across token boundaries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) =>
  node.req(
    method,
    path,
    body,
    typeof body === 'string' ? { 'content-type': 'application/x-ndjson' } : {},
  );

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/bands', {
    mappings: {
      doc: {
        properties: {
          name: { type: 'completion' },
          loose: { type: 'completion', preserve_separators: false },
          tagged: {
            type: 'completion',
            contexts: [{ name: 'kind', type: 'category' }],
          },
        },
      },
    },
  });
});
afterAll(async () => {
  await node.destroy();
});

const reservedError = (what: string, input: string, code: string, at: number) => ({
  root_cause: [{ type: 'mapper_parsing_exception', reason: 'failed to parse' }],
  type: 'mapper_parsing_exception',
  reason: 'failed to parse',
  caused_by: {
    type: 'illegal_argument_exception',
    reason: `Illegal ${what} [${input}] UTF-16 codepoint [0x${code}] at position ${at} is a reserved character`,
  },
});

describe('reserved characters in completion inputs', () => {
  it('refuses the separator, hole and end characters as ES does', async () => {
    for (const [ch, code] of [
      ['\u001f', '1f'],
      ['\u001e', '1e'],
      ['\u0000', '0'],
    ] as const) {
      const input = `Foo${ch}Bar`;
      const r = await req('PUT', '/bands/doc/1', { name: input });
      expect(r.status).toBe(400);
      expect(r.json.error).toEqual(reservedError('input', input, code, 3));
    }
    const obj = await req('PUT', '/bands/doc/1', {
      name: { input: ['fine', 'x\u001fy'], weight: 3 },
    });
    expect(obj.status).toBe(400);
    expect(obj.json.error.caused_by.reason).toBe(
      'Illegal input [x\u001fy] UTF-16 codepoint [0x1f] at position 1 is a reserved character',
    );
    const get = await req('GET', '/bands/doc/1');
    expect(get.status).toBe(404);
  });

  it('reserves the context separator only on fields with contexts', async () => {
    const input = 'a\u001db';
    const bad = await req('PUT', '/bands/doc/2', {
      tagged: { input, contexts: { kind: 'x' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toEqual(reservedError('value', input, '1d', 1));
    const ok = await req('PUT', '/bands/doc/2?refresh=true', { name: input });
    expect(ok.status).toBe(201);
  });

  it('fails only the bad item of a bulk', async () => {
    const lines = [
      { index: { _index: 'bands', _type: 'doc', _id: '3' } },
      { name: 'ok' },
      { index: { _index: 'bands', _type: 'doc', _id: '4' } },
      { name: '\u0000' },
    ];
    const r = await req('POST', '/_bulk', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(r.status).toBe(200);
    expect(r.json.errors).toBe(true);
    expect(r.json.items[0].index.status).toBe(201);
    expect(r.json.items[1].index.status).toBe(400);
    expect(r.json.items[1].index.error.caused_by.reason).toBe(
      'Illegal input [\u0000] UTF-16 codepoint [0x0] at position 0 is a reserved character',
    );
  });
});

describe('preserve_separators', () => {
  it('matches across token boundaries only when separators are not preserved', async () => {
    await req('PUT', '/bands/doc/10?refresh=true', {
      name: 'Foo Fighters',
      loose: 'Foo Fighters',
    });
    const texts = async (field: string, prefix: string) => {
      const r = await req('POST', '/bands/_search', {
        suggest: { s: { prefix, completion: { field } } },
      });
      expect(r.status).toBe(200);
      return r.json.suggest.s[0].options.map((o: { text: string }) => o.text);
    };
    expect(await texts('loose', 'foof')).toEqual(['Foo Fighters']);
    expect(await texts('name', 'foof')).toEqual([]);
    expect(await texts('loose', 'foo fi')).toEqual(['Foo Fighters']);
    expect(await texts('name', 'foo fi')).toEqual(['Foo Fighters']);
  });
});
