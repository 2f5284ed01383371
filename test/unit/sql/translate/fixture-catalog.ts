/**
 * The catalog SQL goldens and unit tests analyze against: index `test` (fixtures/sql/translate/
 * test.mapping.json, every field family), and the QA data sets' `test_emp`/`emp`, `library`,
 * `logs` mappings read from ../shared, with a fixed clock and UTC.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseMapping } from '../../../../src/mapping/index.js';
import type { RootMapping } from '../../../../src/mapping/types.js';
import { mergeIndices } from '../../../../src/sql/analyze/es-index.js';
import type { Catalog } from '../../../../src/sql/analyze/relations.js';
import type { EvalContext } from '../../../../src/sql/functions/definition.js';
import { repoRoot } from '../../../helpers/golden.js';

const ctx = { indexName: 'x', analyzerExists: () => true, normalizerExists: () => true };

function load(path: string): RootMapping {
  const json = JSON.parse(readFileSync(resolve(repoRoot, path), 'utf8')) as { mappings: unknown };
  return parseMapping('_doc', json.mappings, ctx);
}

const SHARED = '../shared/conformance/sql';
const MAPPINGS: Record<string, () => RootMapping> = {
  test: () => load('fixtures/sql/translate/test.mapping.json'),
  test_emp: () => load(`${SHARED}/test_emp.mapping.json`),
  emp: () => load(`${SHARED}/test_emp.mapping.json`),
  library: () => load(`${SHARED}/library.mapping.json`),
  logs: () => load(`${SHARED}/logs.mapping.json`),
};

const cache = new Map<string, RootMapping>();
const mapping = (name: string): RootMapping => {
  let m = cache.get(name);
  if (!m) cache.set(name, (m = MAPPINGS[name]!()));
  return m;
};

/** Index names and simple `*` patterns over the fixture indices. */
export const fixtureCatalog: Catalog = {
  resolveIndex(pattern) {
    const names = Object.keys(MAPPINGS).filter((n) =>
      pattern
        .split(',')
        .some((p) =>
          p.includes('*') ? new RegExp(`^${p.replace(/\*/g, '.*')}$`).test(n) : p === n,
        ),
    );
    if (names.length === 0) return null;
    return mergeIndices(
      pattern,
      names.map((n) => ({ name: n, mapping: mapping(n) })),
    );
  },
};

/** 2020-05-06T07:08:09.123Z, UTC. */
export const FIXED_NOW = Date.UTC(2020, 4, 6, 7, 8, 9, 123);

export const fixtureConfig = (zone = 'Z'): EvalContext => ({
  zone,
  now: { millis: FIXED_NOW },
  clusterName: 'elasticsearch',
  username: null,
});
