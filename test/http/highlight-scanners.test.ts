/**
 * The unified highlighter's boundary scanners, no_match_size and strict phrase highlighting
 * over HTTP, with the fragments ES 6.8's HighlighterSearchIT expects (same texts and options).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) => node.req(method, path, body);

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/docs', {
    mappings: { doc: { properties: { body: { type: 'text' }, tag: { type: 'keyword' } } } },
  });
  const docs: Record<string, unknown>[] = [
    { body: 'some quick and hairy brown:fox jumped over the lazy dog' },
    { body: 'A sentence with few words. Another sentence with even more words.' },
    { body: 'I am pretty long so some of me should get cut off. Second sentence', tag: 'x' },
    { body: 'the quick brown fox saw a brown quick dog and the quick red brown cat' },
  ];
  for (const [i, d] of docs.entries()) await req('PUT', `/docs/doc/${i + 1}`, d);
  await req('POST', '/docs/_refresh');
});
afterAll(async () => {
  await node.destroy();
});

const hl = async (id: string, query: unknown, field: Record<string, unknown>, name = 'body') => {
  const r = await req('POST', '/docs/_search', {
    query: { bool: { must: query, filter: { ids: { values: [id] } } } },
    highlight: { pre_tags: ['<xxx>'], post_tags: ['</xxx>'], fields: { [name]: field } },
  });
  expect(r.status).toBe(200);
  return r.json.hits.hits[0]?.highlight?.[name] as string[] | undefined;
};

describe('boundary_scanner', () => {
  it('word: each matched word is its own passage (fragment_size ignored)', async () => {
    const f = { boundary_scanner: 'word', fragment_size: 23, number_of_fragments: 1 };
    expect(await hl('1', { term: { body: 'some' } }, f)).toEqual(['<xxx>some</xxx>']);
  });

  it('sentence (the default) bounded by fragment_size, with or without a locale', async () => {
    const expected = ['A <xxx>sentence</xxx> with few words', 'Another <xxx>sentence</xxx> with'];
    const f = { fragment_size: 21, number_of_fragments: 2 };
    expect(await hl('2', { term: { body: 'sentence' } }, f)).toEqual(expected);
    expect(
      await hl('2', { term: { body: 'sentence' } }, { ...f, boundary_scanner: 'sentence' }),
    ).toEqual(expected);
    expect(
      await hl(
        '2',
        { term: { body: 'sentence' } },
        {
          ...f,
          boundary_scanner: 'sentence',
          boundary_scanner_locale: 'en-US',
        },
      ),
    ).toEqual(expected);
  });

  it('chars is refused by the unified highlighter', async () => {
    const r = await req('POST', '/docs/_search', {
      query: { term: { body: 'some' } },
      highlight: { fields: { body: { boundary_scanner: 'chars' } } },
    });
    expect(JSON.stringify(r.json)).toContain('Invalid boundary scanner type: chars');
  });
});

describe('no_match_size', () => {
  const q = { term: { tag: 'x' } };
  const f = { fragment_size: 21, number_of_fragments: 1, no_match_size: 20 };

  it('unified: the start of the text up to the next word boundary', async () => {
    expect(await hl('3', q, f)).toEqual(['I am pretty long so some']);
  });

  it('plain: up to the end of the last token within the size', async () => {
    expect(await hl('3', q, { ...f, type: 'plain' })).toEqual(['I am pretty long so']);
  });

  it('is the whole text when it is shorter, and nothing without no_match_size', async () => {
    expect(await hl('3', q, { ...f, no_match_size: 1000 })).toEqual([
      'I am pretty long so some of me should get cut off. Second sentence',
    ]);
    expect(await hl('3', q, { fragment_size: 21 })).toBeUndefined();
  });
});

describe('phrases highlight where they match', () => {
  const text = 'the <xxx>quick</xxx> <xxx>brown</xxx> fox saw a brown quick dog and the quick red brown cat'; // prettier-ignore

  it('match_phrase', async () => {
    expect(await hl('4', { match_phrase: { body: 'quick brown' } }, {})).toEqual([text]);
  });

  it('quoted query_string', async () => {
    const q = { query_string: { query: '"quick brown"', default_field: 'body' } };
    expect(await hl('4', q, {})).toEqual([text]);
  });

  it('a term also queried on its own is highlighted everywhere', async () => {
    const q = {
      bool: { should: [{ match_phrase: { body: 'quick brown' } }, { term: { body: 'dog' } }] },
    };
    expect(await hl('4', q, {})).toEqual([
      'the <xxx>quick</xxx> <xxx>brown</xxx> fox saw a brown quick <xxx>dog</xxx> and the quick red brown cat',
    ]);
  });

  it('sloppy phrases match within the slop, in any order', async () => {
    const q = { match_phrase: { body: { query: 'quick brown', slop: 1 } } };
    expect(await hl('4', q, {})).toEqual([
      'the <xxx>quick</xxx> <xxx>brown</xxx> fox saw a <xxx>brown</xxx> <xxx>quick</xxx> dog and the <xxx>quick</xxx> red <xxx>brown</xxx> cat',
    ]);
  });

  it('match_phrase_prefix', async () => {
    const q = { match_phrase_prefix: { body: 'red br' } };
    expect(await hl('4', q, {})).toEqual([
      'the quick brown fox saw a brown quick dog and the quick <xxx>red</xxx> <xxx>brown</xxx> cat',
    ]);
  });
});
