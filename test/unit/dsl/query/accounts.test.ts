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
