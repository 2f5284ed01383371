/**
 * ES QueryTranslator's geo optimisation: ST_Distance(field, constant point) below a number is a
 * geo_distance query; anything else about ST_Distance stays a script. And the Verifier's rule that
 * geo_shape / shape fields (no doc values) are not filtered, grouped or sorted on.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMapping } from '../../../../src/mapping/index.js';
import { mergeIndices } from '../../../../src/sql/analyze/es-index.js';
import type { Catalog } from '../../../../src/sql/analyze/relations.js';
import { parseSql } from '../../../../src/sql/parse.js';
import { planQuery, translateQuery } from '../../../../src/sql/translate/index.js';
import { toEsError } from '../../../../src/common/errors.js';
import { repoRoot } from '../../../helpers/golden.js';
import { fixtureConfig } from './fixture-catalog.js';

const geo = parseMapping(
  '_doc',
  (
    JSON.parse(
      readFileSync(resolve(repoRoot, '../shared/conformance/sql/geo/geosql.json'), 'utf8'),
    ) as { mappings: unknown }
  ).mappings,
  { indexName: 'geo', analyzerExists: () => true, normalizerExists: () => true },
);
const catalog: Catalog = {
  resolveIndex: (p) => (p === 'geo' ? mergeIndices(p, [{ name: 'geo', mapping: geo }]) : null),
};

function query(sql: string): Record<string, unknown> {
  const stmt = parseSql(sql);
  if (stmt.kind !== 'Query') throw new Error('not a query');
  const body = translateQuery(stmt, {
    catalog,
    cfg: fixtureConfig(),
    sql,
    zoneId: 'Z',
    fetchSize: 1000,
    filter: null,
  }) as Record<string, unknown>;
  return body.query as Record<string, unknown>;
}

const near = "ST_Distance(location, ST_WktToSQL('POINT (-71 42)'))";

describe('ST_Distance in WHERE', () => {
  it('is a geo_distance query for < and <= against a number', () => {
    const expected = {
      geo_distance: {
        location: [-71, 42],
        distance: 5000000,
        distance_type: 'arc',
        validation_method: 'STRICT',
        ignore_unmapped: false,
        boost: 1.0,
      },
    };
    expect(query(`SELECT city FROM geo WHERE ${near} < 5000000`)).toEqual(expected);
    expect(query(`SELECT city FROM geo WHERE ${near} <= 5000000`)).toEqual(expected);
    // through an alias, as the csv-spec writes it
    expect(query(`SELECT city, ${near} distance FROM geo WHERE distance < 5000000`)).toEqual(
      expected,
    );
  });
  it('stays a script for > and for a non-point or non-field argument', () => {
    expect(Object.keys(query(`SELECT city FROM geo WHERE ${near} > 5000000`))).toEqual(['script']);
    expect(
      Object.keys(
        query(
          "SELECT city FROM geo WHERE ST_Distance(ST_WktToSQL(region_point), ST_WktToSQL('POINT (1 2)')) < 10",
        ),
      ),
    ).toEqual(['script']);
  });
});

function failure(sql: string): string {
  const stmt = parseSql(sql);
  if (stmt.kind !== 'Query') throw new Error('not a query');
  try {
    planQuery(stmt, { catalog, cfg: fixtureConfig(), sql, zoneId: 'Z' });
  } catch (e) {
    return toEsError(e).reason ?? '';
  }
  throw new Error(`expected ${sql} to fail`);
}

describe('geo shapes in the verifier', () => {
  it('refuses them in WHERE, GROUP BY and ORDER BY', () => {
    expect(failure("SELECT city FROM geo WHERE ST_AsWKT(geoshape) = 'point (10 20)'")).toBe(
      'Found 1 problem\nline 1:37: geo shapes cannot be used for filtering',
    );
    expect(failure('SELECT ST_X(shape) FROM geo GROUP BY ST_X(shape)')).toBe(
      'Found 1 problem\nline 1:43: shapes cannot be used in grouping',
    );
    expect(failure('SELECT ST_X(geoshape) FROM geo ORDER BY ST_Z(geoshape)')).toBe(
      'Found 1 problem\nline 1:46: geo shapes cannot be used for sorting',
    );
  });
  it('accepts them in SELECT (read from _source)', () => {
    const stmt = parseSql('SELECT ST_X(geoshape) FROM geo');
    if (stmt.kind !== 'Query') throw new Error('not a query');
    const sql = 'SELECT ST_X(geoshape) FROM geo';
    const body = translateQuery(stmt, {
      catalog,
      cfg: fixtureConfig(),
      sql,
      zoneId: 'Z',
      fetchSize: 1000,
      filter: null,
    }) as Record<string, unknown>;
    expect(body._source).toEqual({ includes: ['geoshape'], excludes: [] });
  });
});
