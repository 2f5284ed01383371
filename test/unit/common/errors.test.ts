import { describe, expect, it } from 'vitest';
import {
  EsError,
  indexNotFound,
  mapperParsing,
  illegalArgument,
} from '../../../src/common/errors.js';

describe('EsError bodies', () => {
  it('renders index_not_found_exception as Elasticsearch 6.8 does', () => {
    expect(indexNotFound('foo').toBody()).toEqual({
      error: {
        root_cause: [
          {
            type: 'index_not_found_exception',
            reason: 'no such index',
            'resource.type': 'index_or_alias',
            'resource.id': 'foo',
            index_uuid: '_na_',
            index: 'foo',
          },
        ],
        type: 'index_not_found_exception',
        reason: 'no such index',
        'resource.type': 'index_or_alias',
        'resource.id': 'foo',
        index_uuid: '_na_',
        index: 'foo',
      },
      status: 404,
    });
  });

  it('keeps the outer exception as root cause and nests caused_by', () => {
    const e = mapperParsing(
      'failed to parse field [age] of type [long]',
      illegalArgument('For input string: "abc"'),
    );
    const body = e.toBody();
    expect(body.status).toBe(400);
    expect(body.error.root_cause).toEqual([
      { type: 'mapper_parsing_exception', reason: 'failed to parse field [age] of type [long]' },
    ]);
    expect(body.error.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: 'For input string: "abc"',
    });
  });

  it('is an Error', () => {
    expect(new EsError('x', 'y', 400)).toBeInstanceOf(Error);
  });
});
