import { describe, expect, it } from 'vitest';
import { parseContentType, refusedContentType } from '../../../src/http/content-type.js';

describe('parseContentType', () => {
  it('gives the same type for a header seen again, and each header its own', () => {
    expect(parseContentType('application/json')).toBe('JSON');
    expect(parseContentType('application/json')).toBe('JSON');
    expect(parseContentType('application/yaml; charset=UTF-8')).toBe('YAML');
    expect(parseContentType('text/plain')).toBeNull();
    expect(parseContentType('text/plain')).toBeNull();
    expect(parseContentType('application/json')).toBe('JSON');
  });

  it('refuses a malformed header every time, whatever came before', () => {
    for (let i = 0; i < 2; i++) {
      expect(parseContentType('application/json')).toBe('JSON');
      expect(() => parseContentType('not a type')).toThrow(/invalid Content-Type header/);
    }
  });

  it('answers 406 for bodies ES has no parser for', () => {
    expect(refusedContentType('application/json', false)).toBeNull();
    expect(refusedContentType('text/plain', false)?.status).toBe(406);
    expect(refusedContentType('application/x-ndjson', true)).toBeNull();
    expect(refusedContentType('application/x-ndjson', false)?.status).toBe(406);
  });
});
