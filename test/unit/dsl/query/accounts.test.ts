/**
 * End-to-end on the "bank" accounts sample data (ES getting-started): dynamic-style mapping,
 * five shards routed like ES, match / bool / range queries checked against ES 6.8 results.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bench } from './harness.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const text = (extra: object = {}) => ({
  type: 'text',
  fields: { keyword: { type: 'keyword', ignore_above: 256 } },
  ...extra,
});

function accounts(shards: number): Bench {
  const raw = readFileSync(
    path.resolve(repoRoot, '../shared/conformance/data/accounts.json'),
    'utf8',
  );
  const lines = raw.split('\n').filter((l) => l.trim().length > 0);
  const docs: Array<[string, Record<string, unknown>]> = [];
  for (let i = 0; i < lines.length; i += 2) {
    const action = JSON.parse(lines[i]!) as { index: { _id: string } };
    docs.push([action.index._id, JSON.parse(lines[i + 1]!) as Record<string, unknown>]);
  }
  const mapping = {
    properties: {
      account_number: { type: 'long' },
      balance: { type: 'long' },
      age: { type: 'long' },
      firstname: text(),
      lastname: text(),
      gender: text(),
      address: text(),
      employer: text(),
      email: text(),
      city: text(),
      state: text(),
    },
  };
  return new Bench(mapping, { shards, index: 'bank' }).index(docs);
}

describe('bank accounts', () => {
  const bank = accounts(5);

  it('match address "mill lane": 19 hits, account 136 first', () => {
    const r = bank.search({ match: { address: 'mill lane' } }, 10);
    expect(r.total).toBe(19);
    expect(r.hits[0]!.id).toBe('136');
  });
});

describe('bank accounts, checked against the raw data', () => {
  const bank = accounts(5);
  const raw = readFileSync(
    path.resolve(repoRoot, '../shared/conformance/data/accounts.json'),
    'utf8',
  )
    .split('\n')
    .filter((l) => l.trim().length > 0);
  const rows: Array<Record<string, unknown> & { _id: string }> = [];
  for (let i = 0; i < raw.length; i += 2) {
    const id = (JSON.parse(raw[i]!) as { index: { _id: string } }).index._id;
    rows.push({ _id: id, ...(JSON.parse(raw[i + 1]!) as Record<string, unknown>) });
  }
  const tokens = (s: unknown) =>
    String(s)
      .toLowerCase()
      .split(/[^a-z0-9]+/);
  const where = (p: (r: Record<string, unknown>) => boolean) =>
    rows
      .filter(p)
      .map((r) => r._id)
      .sort();
  const ids = (q: unknown) =>
    bank
      .search(q, 2000)
      .hits.map((h) => h.id)
      .sort();

  it('full-text and boolean queries', () => {
    expect(ids({ match: { address: 'mill' } })).toEqual(
      where((r) => tokens(r.address).includes('mill')),
    );
    expect(
      ids({ bool: { must: [{ match: { address: 'mill' } }, { match: { address: 'lane' } }] } }),
    ).toEqual(
      where((r) => tokens(r.address).includes('mill') && tokens(r.address).includes('lane')),
    );
    expect(
      ids({ bool: { must_not: [{ match: { address: 'mill' } }, { match: { address: 'lane' } }] } }),
    ).toEqual(
      where((r) => !tokens(r.address).includes('mill') && !tokens(r.address).includes('lane')),
    );
    expect(ids({ match_phrase: { address: 'mill lane' } })).toEqual(
      where((r) => String(r.address).toLowerCase().includes('mill lane')),
    );
  });

  it('filters on numbers and keywords', () => {
    expect(
      ids({
        bool: {
          must: { match_all: {} },
          filter: { range: { balance: { gte: 20000, lte: 30000 } } },
        },
      }),
    ).toEqual(where((r) => (r.balance as number) >= 20000 && (r.balance as number) <= 30000));
    expect(ids({ term: { 'state.keyword': 'ID' } })).toEqual(where((r) => r.state === 'ID'));
    expect(ids({ terms: { age: [20, 21] } })).toEqual(where((r) => r.age === 20 || r.age === 21));
    expect(
      ids({
        bool: {
          must: { match: { age: 40 } },
          must_not: { match: { state: 'ID' } },
        },
      }),
    ).toEqual(where((r) => r.age === 40 && r.state !== 'ID'));
    expect(ids({ prefix: { 'firstname.keyword': 'Am' } })).toEqual(
      where((r) => String(r.firstname).startsWith('Am')),
    );
    expect(ids({ query_string: { query: 'gender:F AND age:[30 TO 35}' } })).toEqual(
      where((r) => r.gender === 'F' && (r.age as number) >= 30 && (r.age as number) < 35),
    );
  });

  it('scores are per shard (query_then_fetch): every shard sees its own statistics', () => {
    const whole = accounts(1).search({ match: { address: 'mill lane' } }, 1);
    const sharded = bank.search({ match: { address: 'mill lane' } }, 1);
    expect(whole.hits[0]!.id).toBe('136');
    expect(sharded.hits[0]!.id).toBe('136');
    expect(whole.hits[0]!.score).not.toBe(sharded.hits[0]!.score);
  });
});
