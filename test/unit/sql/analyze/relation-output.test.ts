/**
 * A relation's output over a mapping the catalog hands out again: every statement gets fresh
 * attributes (new ids, its own qualifier and source) with the same fields, parents and nested
 * parents, whether or not the flattened mapping was already known.
 */
import { describe, expect, it } from 'vitest';
import { parseMapping } from '../../../../src/mapping/index.js';
import { mergeIndices } from '../../../../src/sql/analyze/es-index.js';
import { relationOutput } from '../../../../src/sql/analyze/relations.js';
import { NO_SRC } from '../../../../src/sql/expression/nodes.js';

const index = mergeIndices('logs', [
  {
    name: 'logs',
    mapping: parseMapping(
      '_doc',
      {
        properties: {
          status: { type: 'long' },
          host: { properties: { name: { type: 'keyword' } } },
          events: { type: 'nested', properties: { code: { type: 'integer' } } },
          message: { type: 'text', fields: { raw: { type: 'keyword' } } },
        },
      },
      { indexName: 'logs', analyzerExists: () => true, normalizerExists: () => true },
    ),
  },
]);

describe('relationOutput', () => {
  it('mints fresh attributes over the same flattened fields on every call', () => {
    let id = 0;
    const newId = () => ++id;
    const first = relationOutput(index, 'logs', NO_SRC, newId);
    const second = relationOutput(index, 'l', NO_SRC, newId);
    expect(first.map((f) => f.name)).toEqual([
      'events',
      'events.code',
      'host',
      'host.name',
      'message',
      'message.raw',
      'status',
    ]);
    expect(second.map((f) => f.name)).toEqual(first.map((f) => f.name));
    expect(first.map((f) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(second.map((f) => f.id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect(second.every((f) => f.qualifier === 'l')).toBe(true);
    second.forEach((f, i) => expect(f.field).toBe(first[i]!.field));
    const byName = new Map(second.map((f) => [f.name, f]));
    expect(byName.get('events.code')).toMatchObject({
      nestedParent: 'events',
      parentName: 'events',
      parentIsObject: true,
      dataType: 'INTEGER',
    });
    expect(byName.get('host.name')).toMatchObject({
      nestedParent: null,
      parentName: 'host',
      parentIsObject: true,
    });
    expect(byName.get('message.raw')).toMatchObject({
      parentName: 'message',
      parentIsObject: false,
    });
    expect(byName.get('status')).toMatchObject({ parentName: null, nestedParent: null });
  });
});
