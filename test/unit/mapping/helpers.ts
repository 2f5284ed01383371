/**
 * Shared fixtures for the mapping tests: a MappingContext with the built-in analyzers of a fresh
 * 6.8 index, and helpers that capture EsError bodies.
 */
import { expect } from 'vitest';
import { EsError } from '../../../src/common/errors.js';
import type { MappingContext } from '../../../src/mapping/index.js';
import { mergeMapping, parseMapping } from '../../../src/mapping/index.js';
import type { RootMapping } from '../../../src/mapping/index.js';

const ANALYZERS = new Set([
  'standard',
  'simple',
  'whitespace',
  'keyword',
  'english',
  'stop',
  'my_analyzer',
]);

export function makeCtx(over: Partial<MappingContext> = {}): MappingContext {
  return {
    indexName: 'idx',
    analyzerExists: (n) => ANALYZERS.has(n),
    normalizerExists: (n) => n === 'lowercase_normalizer',
    ...over,
  };
}

export const ctx = makeCtx();

/** The EsError a function throws (fails the test when it does not throw one). */
export function caught(fn: () => unknown): EsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof EsError) return e;
    throw new Error(`expected an EsError, got ${String(e)}`);
  }
  throw new Error('expected an error');
}

/** `{type, reason}` of the error and of each cause, outermost first. */
export function chainOf(fn: () => unknown): [string, string | null][] {
  const out: [string, string | null][] = [];
  for (let e: EsError | undefined = caught(fn); e; e = e.causedBy) out.push([e.type, e.reason]);
  return out;
}

export function expectError(fn: () => unknown, type: string, reason: string): EsError {
  const e = caught(fn);
  expect([e.type, e.reason]).toEqual([type, reason]);
  return e;
}

/** A new index whose mapping is `body` (PUT _mapping on an empty index). */
export function mapping(body: unknown, c: MappingContext = ctx, type = '_doc'): RootMapping {
  return mergeMapping(null, parseMapping(type, body, c), c);
}
