/** Shared helpers for the SQL analysis/translation unit tests: plan or translate one statement. */
import { parseSql } from '../../../../src/sql/parse.js';
import { planQuery, translateQuery, type QueryPlan } from '../../../../src/sql/translate/index.js';
import { planOutput } from '../../../../src/sql/plan/logical.js';
import { toEsError } from '../../../../src/common/errors.js';
import type { Json } from '../../../../src/sql/translate/query-dsl.js';
import { fixtureCatalog, fixtureConfig } from './fixture-catalog.js';

function query(sql: string) {
  const stmt = parseSql(sql);
  if (stmt.kind !== 'Query') throw new Error(`not a query: ${sql}`);
  return stmt;
}

const opts = (sql: string) => ({ catalog: fixtureCatalog, cfg: fixtureConfig(), sql, zoneId: 'Z' });

export const plan = (sql: string): QueryPlan => planQuery(query(sql), opts(sql));

export const translate = (sql: string, fetchSize = 1000, filter: Json | null = null) =>
  translateQuery(query(sql), { ...opts(sql), fetchSize, filter }) as Record<string, any>;

/** Output columns (name and SQL type) of the optimized plan. */
export const columns = (sql: string) =>
  planOutput(plan(sql).optimized).map((a) => `${a.name}:${a.dataType}`);

/** The ES error (type and reason) a statement fails analysis/planning with. */
export function failure(sql: string): { type: string; reason: string } {
  try {
    plan(sql);
  } catch (e) {
    const err = toEsError(e);
    return { type: err.type, reason: err.reason ?? '' };
  }
  throw new Error(`expected ${sql} to fail`);
}
