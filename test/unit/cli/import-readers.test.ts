/**
 * The import's readers on small files read a few bytes at a time (so every boundary is crossed):
 * lines with offsets and numbers, JSON array elements (strings with brackets, escapes, multi-byte
 * characters), resuming at an offset, CSV records and values, the progress text and options.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines, type Line } from '../../../src/cli/import/line-reader.js';
import { readJsonArray, type Element } from '../../../src/cli/import/json-array.js';
import {
  csvDocument,
  csvField,
  csvOpen,
  inferValue,
  mappingTypes,
  parseCsvRecord,
} from '../../../src/cli/import/csv.js';
import { progressBar, progressLine } from '../../../src/cli/progress.js';
import { intOption, parseToolArgs } from '../../../src/cli/tool-args.js';
import { fieldValue, hitLine, mappingFields } from '../../../src/cli/export.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
async function all<T>(g: AsyncGenerator<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const xs of g) out.push(...xs);
  return out;
}

describe('readLines', () => {
  it('gives each line its number and the byte offset past it, across tiny reads', async () => {
    const p = file('l.txt', '\uFEFFa\r\nbé\n\nlast');
    for (const chunk of [1, 2, 3, 64]) {
      const ls: Line[] = await all(readLines(p, 0, 1, chunk));
      expect(ls).toEqual([
        { text: 'a', line: 1, end: 6 },
        { text: 'bé', line: 2, end: 10 },
        { text: '', line: 3, end: 11 },
        { text: 'last', line: 4, end: 15 },
      ]);
    }
    expect(await all(readLines(p, 10, 3, 2))).toEqual([
      { text: '', line: 3, end: 11 },
      { text: 'last', line: 4, end: 15 },
    ]);
  });
});

describe('readJsonArray', () => {
  const docs = [{ a: 'x]}', b: [1, { c: '\\"[' }] }, { é: 'ü' }, { n: 3 }];
  it('splits the elements whatever the read size, with lines and offsets to resume from', async () => {
    const text = JSON.stringify(docs, null, 1);
    const p = file('a.json', text);
    for (const chunk of [1, 5, 17, 4096]) {
      const es: Element[] = await all(readJsonArray(p, 0, 1, chunk));
      expect(es.map((e) => JSON.parse(e.text))).toEqual(docs);
      expect(es.map((e) => e.line)).toEqual([2, 11, 14]);
    }
    const es = await all(readJsonArray(p, 0, 1, 7));
    const resumed = await all(readJsonArray(p, es[0]!.end, es[0]!.next, 3));
    expect(resumed.map((e) => JSON.parse(e.text))).toEqual(docs.slice(1));
    expect(resumed.map((e) => e.line)).toEqual([11, 14]);
  });

  it('gives scalars and broken elements as text for the caller to refuse', async () => {
    const p = file('b.json', '[1, "s", {"ok": true}, {"broken": ]');
    const es = await all(readJsonArray(p, 0, 1, 4));
    expect(es.map((e) => e.text.trim())).toEqual(['1', '"s"', '{"ok": true}', '{"broken": ]']);
    await expect(all(readJsonArray(file('c.json', '{"a": 1}')))).rejects.toThrow(
      'must start with [',
    );
  });
});

describe('CSV', () => {
  it('parses quoted fields, knows an open record, infers and converts values', () => {
    expect(parseCsvRecord('a,"b,c","d ""e""",')).toEqual(['a', 'b,c', 'd "e"', '']);
    expect(csvOpen('a,"b\nc')).toBe(true);
    expect(csvOpen('a,"b\nc"')).toBe(false);
    expect([inferValue('12'), inferValue('-1.5e3'), inferValue('007'), inferValue('true'), inferValue('')]).toEqual([12, -1500, '007', true, undefined]); // prettier-ignore
    const m = mappingTypes({ mappings: { _doc: { properties: { n: { type: 'long' }, geo: { properties: { city: { type: 'keyword' } } } } } } }); // prettier-ignore
    expect([...m.types]).toEqual([
      ['n', 'long'],
      ['geo.city', 'keyword'],
    ]);
    expect(csvDocument(['n', 'geo.city', 'x'], ['5', '42', '1.0'], m.types)).toEqual({ n: 5, geo: { city: '42' }, x: 1 }); // prettier-ignore
    expect(() => csvDocument(['n'], ['five'], m.types)).toThrow('[five] is not a long');
    expect(() => csvDocument(['n', 'x'], ['1'], m.types)).toThrow(
      '1 fields where the header has 2',
    );
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField([1, 2])).toBe('"[1,2]"');
  });
});

describe('export lines', () => {
  it('flattens mapping fields and reads dotted values', () => {
    expect(mappingFields({ a: { type: 'long' }, o: { properties: { b: { type: 'text', fields: { k: {} } } } } })).toEqual(['a', 'o.b']); // prettier-ignore
    expect(fieldValue({ o: { b: 1 }, 'x.y': 2 }, 'o.b')).toBe(1);
    expect(fieldValue({ o: { b: 1 }, 'x.y': 2 }, 'x.y')).toBe(2);
    const hit = { _index: 'i', _id: '7', _source: { a: 1, o: { b: 'p,q' } } };
    expect(hitLine(hit, 'ndjson', [])).toBe('{"a":1,"o":{"b":"p,q"}}\n');
    expect(hitLine(hit, 'bulk', [])).toBe('{"index":{"_id":"7"}}\n{"a":1,"o":{"b":"p,q"}}\n');
    expect(hitLine(hit, 'csv', ['a', 'o.b', 'z'])).toBe('1,"p,q",\n');
  });
});

describe('progress and options', () => {
  it('draws the bar with docs/s and the time left; a plain line otherwise', () => {
    expect(progressBar({ fraction: 0.25, docs: 5000, elapsedMs: 2000 }, 8)).toBe('[##------]  25% 5,000 docs 2,500 docs/s ETA 0:06'); // prettier-ignore
    expect(progressLine('import', { fraction: 0.5, docs: 10, elapsedMs: 1000 })).toBe('import: 50% 10 docs 10 docs/s'); // prettier-ignore
  });

  it('parses values, flags and aliases, refusing unknown options', () => {
    const a = parseToolArgs(['f.csv', '-u', 'bob', '--concurrency=8', '--resume'], { values: ['user', 'concurrency'], flags: ['resume'], aliases: { '-u': '--user' } }); // prettier-ignore
    expect(a.positional).toEqual(['f.csv']);
    expect(a.values.get('user')).toBe('bob');
    expect(intOption(a, 'concurrency', 4)).toBe(8);
    expect(a.flags.has('resume')).toBe(true);
    expect(() => parseToolArgs(['--nope'], { values: [], flags: [] })).toThrow(
      'unknown option [--nope]',
    );
    expect(() => intOption(parseToolArgs(['--n', '0'], { values: ['n'], flags: [] }), 'n', 1)).toThrow('positive integer'); // prettier-ignore
  });
});
