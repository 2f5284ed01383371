import { describe, expect, it } from 'vitest';
import {
  parseFullTextFields,
  parseFullTextOptions,
} from '../../../../src/sql/functions/fulltext.js';

describe('MATCH/QUERY options (FullTextUtils)', () => {
  it('parses settings', () => {
    expect([...parseFullTextOptions('operator=or;cutoff_frequency=0.2')]).toEqual([
      ['operator', 'or'],
      ['cutoff_frequency', '0.2'],
    ]);
    expect(parseFullTextOptions('').size).toBe(0);
    expect(() => parseFullTextOptions('operator=or;')).toThrow(
      'Cannot parse entry  in options operator=or;',
    );
    expect(() => parseFullTextOptions('a=1;a=2')).toThrow(
      'Duplicate option a=2 detected in options a=1;a=2',
    );
  });
  it('parses boosted field lists', () => {
    expect([...parseFullTextFields('name^5,author^2')]).toEqual([
      ['author', 2],
      ['name', 5],
    ]);
    expect([...parseFullTextFields('title')]).toEqual([['title', 1]]);
    expect(() => parseFullTextFields('name^x')).toThrow('Cannot parse boosting for name^x');
  });
});
