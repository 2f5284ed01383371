import { describe, expect, it } from 'vitest';
import {
  resolveRepoLocation,
  selectRepositories,
  validateRepository,
} from '../../../src/engine/repositories.js';
import { EsError } from '../../../src/common/errors.js';

const caught = (f: () => unknown): EsError => {
  try {
    f();
  } catch (e) {
    return e as EsError;
  }
  throw new Error('no error');
};

describe('resolveRepoLocation (ES Environment.resolveRepoFile)', () => {
  it('resolves relative locations under path.repo and refuses ones outside it', () => {
    expect(resolveRepoLocation('a/b', ['/repos'])).toBe('/repos/a/b');
    expect(resolveRepoLocation('/repos/x', ['/other', '/repos'])).toBe('/repos/x');
    expect(resolveRepoLocation('../escape', ['/repos'])).toBeNull();
    expect(resolveRepoLocation('x', [])).toBeNull();
  });
});

describe('validateRepository', () => {
  it('keeps an fs repository with flat string settings', () => {
    const r = validateRepository(
      'r',
      { type: 'fs', settings: { location: 'loc', compress: true } },
      ['/repos'],
    );
    expect(r).toEqual({
      type: 'fs',
      settings: { location: 'loc', compress: 'true' },
      location: '/repos/loc',
    });
  });
  it('refuses a missing type, an unknown type and a location outside path.repo as ES does', () => {
    expect(caught(() => validateRepository('r', {}, ['/repos'])).status).toBe(400);
    const unknown = caught(() => validateRepository('r', { type: 's3' }, ['/repos']));
    expect(unknown.message).toBe('[r] repository type [s3] does not exist');
    const outside = caught(() =>
      validateRepository('r', { type: 'fs', settings: { location: '/tmp/x' } }, []),
    );
    expect(outside.message).toBe('[r] failed to create repository');
    expect(outside.causedBy?.message).toBe(
      "[r] location [/tmp/x] doesn't match any of the locations specified by path.repo because this setting is empty",
    );
  });
});

describe('selectRepositories', () => {
  const all = { a1: { type: 'fs', settings: {} }, b: { type: 'fs', settings: {} } };
  it('lists all, by name or by wildcard, and refuses a missing exact name', () => {
    expect(Object.keys(selectRepositories(all, []))).toEqual(['a1', 'b']);
    expect(Object.keys(selectRepositories(all, ['a*']))).toEqual(['a1']);
    expect(caught(() => selectRepositories(all, ['nope'])).status).toBe(404);
  });
});
