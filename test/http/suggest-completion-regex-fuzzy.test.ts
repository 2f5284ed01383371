/**
 * Over HTTP as ES 6.8 answers them: the completion suggester's top-level `regex` (a Lucene
 * RegExp the analyzed input must start with, with `completion.regex` options) and its `fuzzy`
 * option (FuzzyCompletionQuery: scores are the weight times the typed prefix kept).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) => node.req(method, path, body);

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/books', {
    settings: { number_of_shards: 1 },
    mappings: {
      doc: {
        properties: {
          title: { type: 'completion', analyzer: 'simple' },
          tagged: {
            type: 'completion',
            analyzer: 'simple',
            contexts: [{ name: 'kind', type: 'category' }],
          },
        },
      },
    },
  });
  const docs = [
    { title: { input: 'Lazy Dog Days', weight: 2 }, tagged: { input: 'Lazy Dog', contexts: { kind: 'pet' } } }, // prettier-ignore
    { title: { input: 'Lady Bird', weight: 5 }, tagged: { input: 'Lady Bird', contexts: { kind: 'bird' } } }, // prettier-ignore
    { title: { input: 'Lizard King', weight: 1 }, tagged: { input: 'Lizard', contexts: { kind: 'pet' } } }, // prettier-ignore
    { title: { input: 'Quick Brown Fox', weight: 3 } },
  ];
  for (const [i, d] of docs.entries()) await req('PUT', `/books/doc/${i + 1}`, d);
  await req('POST', '/books/_refresh');
}, 60_000);

afterAll(() => node?.close());

const suggest = (s: Record<string, unknown>) =>
  req('POST', '/books/_search', { size: 0, suggest: { s } });

const options = async (s: Record<string, unknown>) => {
  const r = await suggest(s);
  expect(r.status).toBe(200);
  return r.json.suggest.s[0] as { text: string; options: Array<Record<string, unknown>> };
};

describe('completion regex', () => {
  it('matches inputs whose analyzed form starts with the expression', async () => {
    const e = await options({ regex: 'l[a-z]zy', completion: { field: 'title' } });
    expect(e.text).toBe('l[a-z]zy');
    expect(e.options.map((o) => [o.text, o._score])).toEqual([['Lazy Dog Days', 2]]);
    const all = await options({ regex: 'l.*d', completion: { field: 'title' } });
    expect(all.options.map((o) => o.text)).toEqual(['Lady Bird', 'Lazy Dog Days', 'Lizard King']);
  });

  it('takes regex options, and a prefix wins over the regex', async () => {
    const e = await options({
      regex: 'q~(x)',
      completion: { field: 'title', regex: { flags: 'NONE', max_determinized_states: 100 } },
    });
    // without COMPLEMENT `~` is a literal
    expect(e.options).toEqual([]);
    const p = await options({ prefix: 'liz', regex: 'q.*', completion: { field: 'title' } });
    expect(p.options.map((o) => o.text)).toEqual(['Lizard King']);
  });

  it('fails with ES errors on a bad expression or fuzzy options', async () => {
    const bad = await suggest({ regex: 'l[a-z', completion: { field: 'title' } });
    expect(bad.status).toBe(400);
    // Lucene RegExp's message, as the shard's suggest phase throws it
    expect(bad.json.error.root_cause[0]).toEqual({
      type: 'illegal_argument_exception',
      reason: "expected ']' at position 5",
    });
    const both = await suggest({ regex: 'la', completion: { field: 'title', fuzzy: true } });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.json)).toContain("can not use 'fuzzy' options with 'regex");
    const flags = await suggest({
      regex: 'la',
      completion: { field: 'title', regex: { flags: 'BOGUS' } },
    });
    expect(flags.status).toBe(400);
    expect(JSON.stringify(flags.json)).toContain('Unknown regexp flag [BOGUS]');
  });
});

describe('completion fuzzy', () => {
  it('finds suggestions one typo away, scored by weight times the prefix kept', async () => {
    const e = await options({ prefix: 'lazu', completion: { field: 'title', fuzzy: true } });
    expect(e.text).toBe('lazu');
    // "laz" is the accepted prefix of "lazy dog days": 3 units shared with "lazu", weight 2
    expect(e.options.map((o) => [o.text, o._score])).toEqual([['Lazy Dog Days', 6]]);
    const two = await options({
      prefix: 'lzay',
      completion: { field: 'title', fuzzy: { fuzziness: 2 } },
    });
    // "iza" (of "lizard") is two edits from "zay" too
    expect(two.options.map((o) => o.text).sort()).toEqual([
      'Lady Bird',
      'Lazy Dog Days',
      'Lizard King',
    ]);
  });

  it('keeps the first prefix_length characters exact and does not fuzz short prefixes', async () => {
    const m = await options({ prefix: 'mazy', completion: { field: 'title', fuzzy: true } });
    expect(m.options).toEqual([]);
    const m0 = await options({
      prefix: 'mazy',
      completion: { field: 'title', fuzzy: { prefix_length: 0 } },
    });
    expect(m0.options.map((o) => o.text)).toEqual(['Lazy Dog Days']);
    const short = await options({ prefix: 'lz', completion: { field: 'title', fuzzy: true } });
    expect(short.options).toEqual([]);
  });

  it('combines with contexts and skip_duplicates', async () => {
    const e = await options({
      prefix: 'lazu',
      completion: {
        field: 'tagged',
        fuzzy: { fuzziness: 'AUTO' },
        contexts: { kind: [{ context: 'pet', boost: 2 }] },
      },
    });
    // context boost 2 plus the fuzzy boost 3, times weight 1
    expect(e.options.map((o) => [o.text, o._score, o.contexts])).toEqual([
      ['Lazy Dog', 5, { kind: ['pet'] }],
    ]);
  });

  it('rejects bad fuzzy options as ES does', async () => {
    const r = await suggest({ prefix: 'la', completion: { field: 'title', fuzzy: { nope: 1 } } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain('[fuzzy] unknown field [nope], parser not found');
    const f = await suggest({
      prefix: 'la',
      completion: { field: 'title', fuzzy: { fuzziness: -1 } },
    });
    expect(f.status).toBe(400);
    expect(JSON.stringify(f.json)).toContain('fuzziness must be between 0 and 2');
  });
});
