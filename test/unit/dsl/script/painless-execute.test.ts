/**
 * The Painless execute API (ES PainlessExecuteAction): request parsing and validation, the
 * painless_test context's Objects.toString result, and filter/score scripts over a document
 * parsed with an index's mapping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { IndexService } from '../../../../src/engine/index-service.js';
import {
  executePainless,
  parsePainlessExecuteRequest,
} from '../../../../src/dsl/script/painless-execute.js';
import { Store } from '../../../../src/store/store.js';

let dir: string;
let store: Store;
let idx: IndexService;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-pexec-'));
  store = Store.open(dir);
  idx = new IndexService(
    {
      name: 'my-index',
      uuid: 'u1',
      creationDate: 0,
      settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '0' },
      mapping: {
        type: 'doc',
        json: {
          properties: {
            rank: { type: 'long' },
            field: { type: 'keyword' },
            text: { type: 'text' },
          },
        },
      },
      aliases: {},
      state: 'open',
      primaryTerm: 1,
      version: 1,
    },
    store,
  );
});
afterAll(async () => {
  idx.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (body: unknown, index: IndexService | null = null) =>
  executePainless(parsePainlessExecuteRequest(body), index);

function caught(fn: () => unknown): EsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('painless_test context (the default)', () => {
  it('answers the result as Java Objects.toString', () => {
    const s = { source: 'params.count / params.total', params: { count: 100.0, total: 1000.0 } };
    expect(run({ script: s })).toBe('0.1');
    const d = { source: 'params.var1 - params.var2', params: { var1: 10, var2: 100 } };
    expect(run({ script: d, context: 'painless_test' })).toBe('-90');
    expect(run({ script: { source: 'null' } })).toBe('null');
    expect(run({ script: { source: '[1, 2]' } })).toBe('[1, 2]');
  });
});

describe('filter and score contexts', () => {
  it('read the document through the mapping of context_setup.index', () => {
    const filter = {
      script: { source: "doc['field'].value.length() <= params.max_length", params: { max_length: 4 } }, // prettier-ignore
      context: 'filter',
      context_setup: { document: { field: 'four' }, index: 'my-index' },
    };
    expect(run(filter, idx)).toBe(true);
    const longer = {
      ...filter,
      context_setup: { document: { field: 'fours' }, index: 'my-index' },
    };
    expect(run(longer, idx)).toBe(false);
    const score = {
      script: { source: "doc['rank'].value / params.max_rank", params: { max_rank: 5.0 } },
      context: 'score',
      context_setup: { document: { rank: 4 }, index: 'my-index' },
    };
    expect(run(score, idx)).toBeCloseTo(0.8, 12);
  });

  it("score scripts see the document's score for context_setup.query", () => {
    const score = (query: unknown) =>
      run(
        {
          script: { source: '_score * 2' },
          context: 'score',
          context_setup: {
            document: { field: 'four', text: 'quick fox' },
            index: 'my-index',
            query,
          },
        },
        idx,
      );
    expect(score({ match_all: {} })).toBe(2);
    expect(score({ constant_score: { filter: { term: { field: 'four' } }, boost: 3 } })).toBe(6);
    expect(score({ term: { field: 'other' } })).toBe(0);
    expect(score({ match: { text: 'fox' } })).toBeGreaterThan(0);
  });

  it('a result of the wrong type is a script runtime error', () => {
    const e = caught(() =>
      run(
        {
          script: { source: "doc['field'].value" },
          context: 'filter',
          context_setup: { document: { field: 'x' }, index: 'my-index' },
        },
        idx,
      ),
    );
    expect(e.type).toBe('script_exception');
    expect(e.toBody().error).toMatchObject({ caused_by: { type: 'class_cast_exception' } });
  });
});

describe('request validation', () => {
  it('needs index and document for filter/score, inline scripts and a known context', () => {
    const v = caught(() =>
      parsePainlessExecuteRequest({ script: { source: '1' }, context: 'score' }),
    );
    expect(v.type).toBe('action_request_validation_exception');
    expect(v.reason).toBe(
      'Validation Failed: 1: index is a required parameter for current context;2: document is a required parameter for current context;',
    );
    const u = caught(() => parsePainlessExecuteRequest({ script: { source: '1' }, context: 'x' }));
    expect(u.type).toBe('unsupported_operation_exception');
    expect(u.reason).toBe('unsupported script context name [x]');
    const s = caught(() => parsePainlessExecuteRequest({ script: { id: 'stored' } }));
    expect(s.reason).toBe('Validation Failed: 1: only inline scripts are supported;');
    expect(caught(() => parsePainlessExecuteRequest({})).reason).toBe('Required [script]');
  });
});
