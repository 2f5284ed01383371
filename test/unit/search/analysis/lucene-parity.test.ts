/**
 * Analysis parity beyond the YAML tests: the input → output pairs of Lucene 7.7's own analysis
 * tests (fixtures/analysis/lucene/*.tsv, one file per language) run through the chain the Lucene
 * test built (the language analyzer, or a tokenizer plus the filter under test) and must give
 * exactly Lucene's terms, and, where the test states them, its offsets, types and positions.
 * fixtures/analysis/lucene/exceptions.tsv lists the few pairs Quarry knowingly differs on, and why.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeToTokens } from '../../../../src/search/analysis/index.js';

const DIR = join(__dirname, '../../../../fixtures/analysis/lucene');

interface Case {
  readonly line: number;
  readonly settings: string;
  readonly input: string;
  readonly terms: readonly string[];
  readonly offsets?: readonly string[];
  readonly types?: readonly string[];
  readonly positions?: readonly number[];
}

const unescape = (s: string) =>
  s.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const words = (s: string | undefined) =>
  s === undefined || s === '' ? [] : s === '""' ? [''] : s.split(' ');

function cases(file: string): Case[] {
  const out: Case[] = [];
  let settings = '';
  readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (l === '' || l.startsWith('#')) return;
      if (l.startsWith('@ ')) {
        settings = l.slice(2);
        return;
      }
      const [input, terms, offsets, types, positions] = l.split('\t').map(unescape);
      out.push({
        line: i + 1,
        settings,
        input: input!,
        terms: words(terms),
        ...(offsets ? { offsets: words(offsets) } : {}),
        ...(types ? { types: words(types) } : {}),
        ...(positions ? { positions: words(positions).map(Number) } : {}),
      });
    });
  return out;
}

/** `file:line` of the pairs Quarry knowingly differs on (see exceptions.tsv for why). */
const EXCEPTIONS = new Set(
  readFileSync(join(DIR, 'exceptions.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t')[0]!),
);

const registries = new Map<string, AnalysisRegistry>();
function analyzer(settings: string) {
  let reg = registries.get(settings);
  if (reg === undefined) {
    reg = AnalysisRegistry.fromIndexSettings(JSON.parse(settings));
    registries.set(settings, reg);
  }
  return reg.analyzer('a')!;
}

/** What Quarry gives, in the shape of the expectation (only the attributes the test states). */
function actual(c: Case) {
  const toks = analyzeToTokens(analyzer(c.settings), c.input);
  return {
    terms: toks.map((t) => t.token),
    ...(c.offsets ? { offsets: toks.map((t) => `${t.start_offset}-${t.end_offset}`) } : {}),
    ...(c.types ? { types: toks.map((t) => t.type) } : {}),
    ...(c.positions ? { positions: toks.map((t) => t.position) } : {}),
  };
}
const expected = (c: Case) => {
  const { line: _l, settings: _s, input: _i, ...rest } = c;
  return rest;
};

const files = readdirSync(DIR).filter((f) => f.endsWith('.tsv') && f !== 'exceptions.tsv');

describe("Lucene 7.7's analysis test pairs", () => {
  for (const file of files) {
    const all = cases(file);
    const checked = all.filter((c) => !EXCEPTIONS.has(`${file}:${c.line}`));
    it(`${file.replace(/\.tsv$/, '')}: ${checked.length} of ${all.length} pairs`, () => {
      expect(all.length).toBeGreaterThan(0);
      const wrong = checked
        .map((c) => ({
          at: `${file}:${c.line}`,
          input: c.input,
          want: expected(c),
          got: actual(c),
        }))
        .filter((r) => JSON.stringify(r.want) !== JSON.stringify(r.got));
      expect(wrong).toEqual([]);
    });
  }
  it('lists only exceptions that still differ', () => {
    for (const at of EXCEPTIONS) {
      const [file, line] = at.split(':');
      const c = cases(file!).find((x) => x.line === Number(line));
      expect(c, at).toBeDefined();
      expect(JSON.stringify(actual(c!)), at).not.toBe(JSON.stringify(expected(c!)));
    }
  });
});
