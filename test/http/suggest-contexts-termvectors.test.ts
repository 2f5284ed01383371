/**
 * Over HTTP as ES 6.8 answers them: completion suggestions filtered and boosted by contexts (with
 * the contexts that matched in each option), the phrase suggester's collate query, and term
 * vectors of stored, artificial and filtered documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) => node.req(method, path, body);

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/places', {
    settings: { number_of_shards: 1 },
    mappings: {
      doc: {
        properties: {
          name: {
            type: 'completion',
            contexts: [
              { name: 'kind', type: 'category', path: 'kind' },
              { name: 'at', type: 'geo', precision: 4 },
            ],
          },
          kind: { type: 'keyword' },
          body: { type: 'text', term_vector: 'with_positions_offsets' },
        },
      },
    },
  });
  const docs = [
    { name: { input: 'Cafe Rouge', contexts: { at: { lat: 52.37, lon: 4.89 } } }, kind: 'cafe', body: 'the red cafe' }, // prettier-ignore
    { name: { input: 'Cafe Bleu', contexts: { at: { lat: 48.85, lon: 2.35 } } }, kind: 'cafe', body: 'the blue cafe' }, // prettier-ignore
    { name: { input: 'Cake Shop', weight: 3, contexts: { at: { lat: 52.37, lon: 4.89 } } }, kind: 'shop', body: 'cake cake shop' }, // prettier-ignore
  ];
  for (const [i, d] of docs.entries()) await req('PUT', `/places/doc/${i + 1}`, d);
  await req('POST', '/places/_refresh');
}, 60_000);

afterAll(() => node?.close());

const complete = async (completion: Record<string, unknown>, prefix = 'ca') => {
  const r = await req('POST', '/places/_search', {
    size: 0,
    suggest: { s: { prefix, completion: { field: 'name', ...completion } } },
  });
  expect(r.status).toBe(200);
  return r.json.suggest.s[0].options as Array<Record<string, unknown>>;
};

describe('completion contexts', () => {
  it('filters by a category read from the path field and reports the matched contexts', async () => {
    const opts = await complete({ contexts: { kind: 'cafe' } });
    expect(opts.map((o) => o.text).sort()).toEqual(['Cafe Bleu', 'Cafe Rouge']);
    expect(opts[0]!.contexts).toEqual({ kind: ['cafe'] });
  });

  it('boosts by the context that matched', async () => {
    const opts = await complete({ contexts: { kind: [{ context: 'cafe', boost: 5 }, 'shop'] } });
    expect(opts.map((o) => [o.text, o._score])).toEqual([
      // equal scores: the earlier document first
      ['Cafe Rouge', 5],
      ['Cafe Bleu', 5],
      ['Cake Shop', 3],
    ]);
  });

  it('filters by geo cell around a point, with coarser neighbours on request', async () => {
    const near = await complete({ contexts: { at: { lat: 52.36, lon: 4.9 } } });
    expect(near.map((o) => o.text).sort()).toEqual(['Cafe Rouge', 'Cake Shop']);
    const wide = await complete({
      contexts: { at: { context: { lat: 52.36, lon: 4.9 }, precision: 1, neighbours: [1] } },
    });
    expect(wide.map((o) => o.text).sort()).toEqual(['Cafe Bleu', 'Cafe Rouge', 'Cake Shop']);
  });

  it('rejects unknown context names and contexts on fields without them', async () => {
    const r = await req('POST', '/places/_search', {
      suggest: { s: { prefix: 'ca', completion: { field: 'name', contexts: { nope: 'x' } } } },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain('Unknown context name [nope], must be one of [at, kind]'); // prettier-ignore
  });
});

describe('phrase collate', () => {
  it('drops corrections no document matches, or marks them with prune', async () => {
    const phrase = (prune: boolean) =>
      req('POST', '/places/_search', {
        size: 0,
        suggest: {
          p: {
            text: 'the red cafx',
            phrase: {
              field: 'body',
              confidence: 0,
              max_errors: 2,
              direct_generator: [{ field: 'body', suggest_mode: 'always', min_word_length: 1 }],
              collate: {
                query: { source: { match_phrase: { body: '{{suggestion}}' } } },
                prune,
              },
            },
          },
        },
      });
    const kept = (await phrase(false)).json.suggest.p[0].options;
    expect(kept.map((o: { text: string }) => o.text)).toEqual(['the red cafe']);
    const marked = (await phrase(true)).json.suggest.p[0].options;
    expect(marked.length).toBeGreaterThan(1);
    for (const o of marked) expect(o.collate_match).toBe(o.text === 'the red cafe');
  });
});

describe('term vectors', () => {
  it('answers a stored document with term statistics', async () => {
    const r = await req('GET', '/places/doc/3/_termvectors?term_statistics=true');
    expect(r.json).toMatchObject({ _index: 'places', _type: 'doc', _id: '3', _version: 1, found: true }); // prettier-ignore
    expect(r.json.term_vectors.body).toEqual({
      field_statistics: { sum_doc_freq: 8, doc_count: 3, sum_ttf: 9 },
      terms: {
        cake: {
          doc_freq: 1,
          ttf: 2,
          term_freq: 2,
          tokens: [
            { position: 0, start_offset: 0, end_offset: 4 },
            { position: 1, start_offset: 5, end_offset: 9 },
          ],
        },
        shop: { doc_freq: 1, ttf: 1, term_freq: 1, tokens: [{ position: 2, start_offset: 10, end_offset: 14 }] }, // prettier-ignore
      },
    });
  });

  it('counts a realtime document the last refresh missed in the statistics', async () => {
    await req('PUT', '/fresh', {
      settings: { number_of_shards: 1, refresh_interval: -1 },
      mappings: { doc: { properties: { body: { type: 'text', term_vector: 'yes' } } } },
    });
    await req('PUT', '/fresh/doc/1', { body: 'old news' });
    await req('POST', '/fresh/_refresh');
    await req('PUT', '/fresh/doc/2', { body: 'news news' });
    const hidden = await req('GET', '/fresh/doc/2/_termvectors?realtime=false');
    expect(hidden.json.found).toBe(false);
    const r = await req('GET', '/fresh/doc/2/_termvectors?term_statistics=true');
    expect(r.json.term_vectors.body).toEqual({
      field_statistics: { sum_doc_freq: 3, doc_count: 2, sum_ttf: 4 },
      terms: { news: { doc_freq: 2, ttf: 3, term_freq: 2 } },
    });
  });

  it('generates vectors for an artificial document and a field asked for', async () => {
    const r = await req('POST', '/places/doc/_termvectors', {
      doc: { body: 'red red fox', kind: 'cafe' },
      fields: ['body', 'kind'],
      offsets: false,
    });
    expect(r.json).not.toHaveProperty('_id');
    expect(r.json.found).toBe(true);
    expect(r.json.term_vectors.kind.terms).toEqual({ cafe: { term_freq: 1, tokens: [{ position: 0 }] } }); // prettier-ignore
    expect(r.json.term_vectors.body.terms.red).toEqual({
      term_freq: 2,
      tokens: [{ position: 0 }, { position: 1 }],
    });
  });

  it('keeps the best terms by tf-idf with a filter, and says found: false for a missing id', async () => {
    const r = await req('POST', '/places/doc/1/_termvectors', {
      filter: { max_num_terms: 1 },
      positions: false,
      offsets: false,
    });
    const terms = r.json.term_vectors.body.terms;
    expect(Object.keys(terms)).toEqual(['red']);
    expect(terms.red.score).toBeGreaterThan(0);
    const miss = await req('GET', '/places/doc/9/_termvectors');
    expect(miss.json).toMatchObject({ _id: '9', found: false });
    expect(miss.json).not.toHaveProperty('term_vectors');
  });
});
