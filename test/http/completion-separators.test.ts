/**
 * Completion suggester token separators as in ES 6.8 (Lucene's CompletionAnalyzer): tokens are
 * separated by 0x1F, not by a space, so a space inside a single token (keyword analyzer) is not
 * a separator; `preserve_separators: false` runs tokens together ("foof" finds "Foo Fighters");
 * `preserve_position_increments` keeps the place of a removed stop word ("b" does not find
 * "The Beatles" unless it is false).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) => node.req(method, path, body);

beforeAll(async () => {
  node = await startTestNode();
  const completion = (extra: Record<string, unknown>) => ({ type: 'completion', ...extra });
  const r = await req('PUT', '/songs', {
    mappings: {
      doc: {
        properties: {
          simple: completion({ analyzer: 'simple' }),
          kw_search: completion({ analyzer: 'simple', search_analyzer: 'keyword' }),
          kw: completion({ analyzer: 'keyword' }),
          nosep: completion({ analyzer: 'simple', preserve_separators: false }),
          stop: completion({ analyzer: 'stop' }),
          stop_nogaps: completion({ analyzer: 'stop', preserve_position_increments: false }),
        },
      },
    },
  });
  expect(r.status).toBe(200);
  const v = 'Foo Fighters';
  await req('PUT', '/songs/doc/1', { simple: v, kw_search: v, kw: v, nosep: v });
  await req('PUT', '/songs/doc/2', { stop: 'The Beatles', stop_nogaps: 'The Beatles' });
  await req('POST', '/songs/_refresh');
});
afterAll(async () => {
  await node.destroy();
});

const suggest = async (field: string, prefix: string): Promise<string[]> => {
  const r = await req('POST', '/songs/_search', {
    suggest: { s: { prefix, completion: { field } } },
  });
  expect(r.status).toBe(200);
  return r.json.suggest.s[0].options.map((o: { text: string }) => o.text);
};

describe('completion token separators', () => {
  it('matches across the separator with the same analyzer', async () => {
    expect(await suggest('simple', 'foo f')).toEqual(['Foo Fighters']);
    expect(await suggest('simple', 'foo')).toEqual(['Foo Fighters']);
    expect(await suggest('simple', 'foof')).toEqual([]);
  });

  it('a space inside one token is not a separator', async () => {
    // indexed as foo<0x1F>fighters, searched as the single token "foo f"
    expect(await suggest('kw_search', 'foo f')).toEqual([]);
    expect(await suggest('kw_search', 'foo')).toEqual(['Foo Fighters']);
    // indexed as the single token "Foo Fighters": the space matches itself only
    expect(await suggest('kw', 'Foo F')).toEqual(['Foo Fighters']);
    expect(await suggest('kw', 'foo f')).toEqual([]);
  });

  it('preserve_separators: false runs tokens together', async () => {
    expect(await suggest('nosep', 'foof')).toEqual(['Foo Fighters']);
    expect(await suggest('nosep', 'foo f')).toEqual(['Foo Fighters']);
  });

  it('preserve_position_increments keeps a stop word its place', async () => {
    expect(await suggest('stop', 'b')).toEqual([]);
    expect(await suggest('stop', 'the b')).toEqual(['The Beatles']);
    expect(await suggest('stop_nogaps', 'b')).toEqual(['The Beatles']);
  });
});
