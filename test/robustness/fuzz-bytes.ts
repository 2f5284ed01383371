/**
 * Byte-level requests for the long fuzz run: the seed bodies of the other generators (queries,
 * documents, SQL, mappings, settings, index creation, bulk lines) as UTF-8 bytes, corrupted by
 * bit flips, inserted and deleted bytes, spliced sequences that are not UTF-8 (nasty-inputs.ts),
 * raw control bytes and byte order marks, and sent with the right content type, a wrong one, or
 * none. Reaches what the string-based generators cannot: bodies that are not UTF-8.
 */
import fc from 'fast-check';
import {
  BULK_ACTIONS,
  CREATE_BODIES,
  DOCS,
  MAPPINGS,
  QUERIES,
  SETTINGS,
  SQL_BODIES,
  UPDATES,
  type FuzzRequest,
} from './fuzz-requests.js';
import { CONTENT_TYPES, INVALID_UTF8, RAW_CONTROLS } from './nasty-inputs.js';

interface Place {
  method: string;
  path: string;
  seeds: readonly unknown[];
  ndjson?: true;
  writes?: true;
}

/** Where the corrupted bodies go: reads name `fz`, writes only scratch indices. */
const PLACES: Place[] = [
  { method: 'POST', path: '/fz/_search', seeds: QUERIES },
  { method: 'POST', path: '/fz/_count', seeds: QUERIES.map((q) => ({ query: (q as { query?: unknown }).query ?? {} })) }, // prettier-ignore
  { method: 'POST', path: '/fz/_msearch', seeds: QUERIES, ndjson: true },
  { method: 'POST', path: '/_sql', seeds: SQL_BODIES },
  { method: 'POST', path: '/_sql/translate', seeds: SQL_BODIES },
  { method: 'PUT', path: '/fzw/_doc/f{n}', seeds: DOCS, writes: true },
  { method: 'POST', path: '/fzw/_doc/f{n}/_update', seeds: UPDATES, writes: true },
  { method: 'POST', path: '/fzw/_doc/_bulk', seeds: DOCS, ndjson: true, writes: true },
  { method: 'PUT', path: '/fzw/_mapping/_doc', seeds: MAPPINGS, writes: true },
  { method: 'PUT', path: '/fzw/_settings', seeds: SETTINGS, writes: true },
  { method: 'PUT', path: '/fzc', seeds: CREATE_BODIES, writes: true },
  { method: 'POST', path: '/_analyze', seeds: [{ analyzer: 'standard', text: 'The quick brown fox' }, { tokenizer: 'keyword', filter: ['lowercase'], text: ['A', 'B'] }] }, // prettier-ignore
];

type Corruption =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'insert'; at: number; byte: number }
  | { op: 'delete'; at: number }
  | { op: 'splice'; at: number; bytes: number[] }
  | { op: 'truncate'; at: number }
  | { op: 'bom' };

const at = fc.nat();
const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('flip' as const), at, bit: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('insert' as const), at, byte: fc.nat(255) }) }, // prettier-ignore
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('splice' as const),
      at,
      bytes: fc.constantFrom(...INVALID_UTF8, ...RAW_CONTROLS).map((s) => s.bytes),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), at }) },
  { weight: 1, arbitrary: fc.constant({ op: 'bom' as const }) },
);

/** `bytes` with one corruption applied (positions wrap around the length). */
export function corrupt(bytes: Buffer, c: Corruption): Buffer {
  const n = bytes.length;
  const i = n === 0 ? 0 : c.op === 'bom' ? 0 : c.at % (n + 1);
  switch (c.op) {
    case 'flip': {
      if (n === 0) return bytes;
      const out = Buffer.from(bytes);
      out[i % n] ^= 1 << c.bit;
      return out;
    }
    case 'insert':
      return Buffer.concat([bytes.subarray(0, i), Buffer.from([c.byte]), bytes.subarray(i)]);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + 1)]);
    case 'splice':
      return Buffer.concat([bytes.subarray(0, i), Buffer.from(c.bytes), bytes.subarray(i)]);
    case 'truncate':
      return bytes.subarray(0, i);
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  }
}

/** The body's content type: mostly the right one, sometimes any of the corpus's, or none. */
const contentType = (ndjson: boolean): fc.Arbitrary<string | null> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(ndjson ? 'application/x-ndjson' : 'application/json') },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES.map((t) => t.type)) },
    { weight: 1, arbitrary: fc.constant(null) },
  );

export const byteRequest: fc.Arbitrary<FuzzRequest> = fc
  .constantFrom(...PLACES)
  .chain((p) =>
    fc.tuple(
      fc.constant(p),
      fc.constantFrom(...p.seeds),
      fc.array(corruption, { minLength: 1, maxLength: 3 }),
      contentType(p.ndjson === true),
      fc.nat(12),
    ),
  )
  .map(([p, seed, corruptions, type, n]) => {
    const json = corruptions.reduce(corrupt, Buffer.from(JSON.stringify(seed)) as Buffer);
    // NDJSON: the corrupted line after a valid header / action line
    const head = p.path.endsWith('_bulk') ? `{"index":{"_id":"f${n}"}}\n` : '{}\n';
    const body = p.ndjson ? Buffer.concat([Buffer.from(head), json, Buffer.from('\n')]) : json;
    return {
      target: 'bytes',
      method: p.method,
      path: p.path.replace('{n}', String(n)),
      writes: p.writes === true,
      body,
      ...(type !== null ? { contentType: type } : {}),
    };
  });
