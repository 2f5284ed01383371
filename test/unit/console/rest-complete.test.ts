/** Dev Tools completion: methods, paths and parameters from the specs, indices, fields, DSL keys. */
import { describe, expect, it } from 'vitest';
import {
  fieldsOfMappings,
  jsonPosition,
  restCompletion,
  type RestKnowledge,
} from '../../../console/src/rest-complete.js';
import { compactSpecs } from '../../../scripts/build-console.mjs';

const specs = compactSpecs();
const fields = fieldsOfMappings({
  bank: {
    mappings: {
      account: {
        properties: {
          address: { type: 'text', fields: { keyword: { type: 'keyword' } } },
          age: { type: 'long' },
          owner: { properties: { name: { type: 'text' } } },
        },
      },
    },
  },
  logs: { mappings: { _doc: { properties: { message: { type: 'text' } } } } },
});
const k: RestKnowledge = { specs, indices: ['bank', 'logs'], fields };

const at = (text: string) => {
  const c = restCompletion(text, text.length, k);
  return c && { word: text.slice(c.from), labels: c.options.map((o) => o.label) };
};

describe('console REST completion', () => {
  it('derives the endpoints and parameters from the REST API specs', () => {
    expect(Object.keys(specs).length).toBeGreaterThan(100);
    expect(specs['search']![1]).toContain('/{index}/_search');
    expect(specs['search']![2]).toContain('request_cache');
  });

  it('reads field names of every index from GET /_mapping, objects and multi-fields included', () => {
    expect(fields.get('bank')).toEqual([
      'address',
      'address.keyword',
      'age',
      'owner',
      'owner.name',
    ]);
    expect(fields.get('logs')).toEqual(['message']);
  });

  it('completes methods, index names and API paths', () => {
    expect(at('PO')).toEqual({ word: 'PO', labels: ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'] });
    const idx = at('GET /_cat/indices\n\nGET /ba')!;
    expect(idx.word).toBe('ba');
    expect(idx.labels).toContain('bank');
    const api = at('GET /bank/_se')!;
    expect(api.word).toBe('_se');
    expect(api.labels).toContain('_search');
    expect(at('GET /_cat/in')!.labels).toContain('indices');
    expect(at('GET /bank,lo')).toMatchObject({ word: 'lo', labels: ['logs'] });
  });

  it('completes query parameters of the APIs the path names', () => {
    const p = at('GET /bank/_search?pretty&request_')!;
    expect(p.word).toBe('request_');
    expect(p.labels).toContain('request_cache');
    expect(p.labels).toContain('filter_path');
  });

  it('completes DSL keys by position and fields of the indices the path names', () => {
    expect(at('GET /bank/_search\n{\n  "')!.labels).toContain('aggs');
    expect(at('GET /bank/_search\n{"query":{"')!.labels).toContain('match_phrase');
    expect(at('GET /bank/_search\n{"query":{"bool":{"')!.labels).toContain('must_not');
    const f = at('GET /bank/_search\n{"query":{"match":{"ad')!;
    expect(f.word).toBe('ad');
    expect(f.labels).toEqual(['address', 'address.keyword', 'age', 'owner', 'owner.name']);
    expect(at('GET /logs/_search\n{"query":{"term":{"')!.labels).toEqual(['message']);
    expect(at('GET /bank/_search\n{"aggs":{"a":{"')!.labels).toContain('date_histogram');
    expect(at('GET /bank/_search\n{"aggs":{"a":{"terms":{"')!.labels).toContain('min_doc_count');
    expect(at('GET /bank/_search\n{"aggs":{"a":{"terms":{"field":"a')!.labels).toContain('age');
    expect(at('GET /bank/_search\n{"_source":["x","o')!.labels).toContain('owner.name');
  });

  it('offers methods again on a line after a finished body', () => {
    expect(at('GET /bank/_search\n{"size":0}\nDE')!.labels).toContain('DELETE');
  });

  it('tracks the key chain of an unfinished body', () => {
    expect(jsonPosition('{"query":{"bool":{"must":[{"match":{')).toEqual({
      keys: [null, 'query', 'bool', 'must', 'must', 'match'],
      atKey: true,
      valueOf: null,
    });
    expect(jsonPosition('{"size": ').valueOf).toBe('size');
  });
});
