/**
 * SQL -> Query DSL goldens: every fixtures/sql/translate/<area>/<case>.sql (line 1 a `--` intent)
 * translates to the whole `_search` body in <case>.dsl.json, as `POST /_sql/translate` returns it
 * (fetch_size 1000, UTC, fixed clock; <case>.options.json may set time_zone, fetch_size, filter and
 * params). Aggregation names are deterministic per request, so the whole JSON is compared.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseSql, type SqlParam } from '../../src/sql/parse.js';
import { translateQuery } from '../../src/sql/translate/index.js';
import type { Json } from '../../src/sql/translate/query-dsl.js';
import { zoneOf } from '../../src/functions/datetime/zones.js';
import {
  expectGoldenJson,
  findFiles,
  fixtureIntent,
  readText,
  repoRoot,
} from '../helpers/golden.js';
import { fixtureCatalog, fixtureConfig } from '../unit/sql/translate/fixture-catalog.js';

const dir = resolve(repoRoot, 'fixtures/sql/translate');
const cases = findFiles(dir, '.sql');

interface Options {
  time_zone?: string;
  fetch_size?: number;
  filter?: Json;
  params?: SqlParam[];
}

function optionsFor(file: string): Options {
  const f = file.replace(/\.sql$/, '.options.json');
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Options) : {};
}

describe('SQL translate goldens', () => {
  it('cover every clause family with at least 120 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(120);
    const areas = new Set(cases.map((f) => relative(dir, f).split('/')[0]));
    for (const area of [
      'select',
      'where',
      'orderby',
      'limit',
      'groupby',
      'having',
      'aggregates',
      'functions',
      'fulltext',
      'pivot',
      'implicit',
      'local',
    ]) {
      expect(areas.has(area), area).toBe(true);
    }
  });

  for (const file of cases) {
    it(relative(dir, file), () => {
      const sql = readText(file);
      expect(fixtureIntent(sql), 'line 1 states the intent').not.toBe('');
      const o = optionsFor(file);
      const zone = zoneOf(o.time_zone ?? 'Z');
      const stmt = parseSql(sql, o.params ?? []);
      if (stmt.kind !== 'Query') throw new Error('not a query');
      const body = translateQuery(stmt, {
        catalog: fixtureCatalog,
        cfg: fixtureConfig(zone.id),
        sql,
        zoneId: zone.id,
        fetchSize: o.fetch_size ?? 1000,
        filter: o.filter ?? null,
      });
      expectGoldenJson(file.replace(/\.sql$/, '.dsl.json'), body);
    });
  }
});
