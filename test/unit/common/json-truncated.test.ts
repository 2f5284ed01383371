import { describe, expect, it } from 'vitest';
import { closeTruncatedJson } from '../../../src/common/json-truncated.js';

describe('closeTruncatedJson', () => {
  it('closes the containers left open at the end', () => {
    expect(closeTruncatedJson('{"query": {"unknown": {} }')).toBe('{"query": {"unknown": {} }}');
    expect(closeTruncatedJson('{"query": {"match": {')).toBe('{"query": {"match": {}}}');
    expect(closeTruncatedJson('{"a": [1, {"b": "x"')).toBe('{"a": [1, {"b": "x"}]}');
    expect(closeTruncatedJson('{"a": "}"')).toBe('{"a": "}"}');
  });

  it('gives up where no value can end the text', () => {
    expect(closeTruncatedJson('{"a": ')).toBeNull();
    expect(closeTruncatedJson('{"a": 1,')).toBeNull();
    expect(closeTruncatedJson('{"a": "unterminated')).toBeNull();
    expect(closeTruncatedJson('{"a"')).toBeNull();
    expect(closeTruncatedJson('{"a": 1}')).toBeNull();
    expect(closeTruncatedJson('{"a": 1]')).toBeNull();
  });
});
