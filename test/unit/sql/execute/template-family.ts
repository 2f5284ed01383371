/**
 * Helpers of the literal-template tests: a node with one small index, and families of statements
 * run through one SqlService (where templates form) and each checked against the statement
 * planned alone (a fresh SqlService): same plan, same `_sql/translate` body or error, same rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';
import { sqlNodeOf } from '../../../../src/http/routes/sql.js';
import { SqlService, type SqlPage } from '../../../../src/sql/execute/session.js';
import { samePlan } from '../../../../src/sql/execute/literal-templates.js';

export type SqlNode = ReturnType<typeof sqlNodeOf>;

/**
 * A node holding `index` with `properties` and `docs` (refreshed, auto ids), its dispatcher (for
 * more indices or mapping changes), and how to close it.
 */
export async function templateNode(
  index: string,
  properties: Record<string, unknown>,
  docs: ReadonlyArray<Record<string, unknown>>,
): Promise<{
  sqlNode: SqlNode;
  d: ReturnType<typeof createDispatcher>;
  close: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), `quarry-sql-${index}-templates-`));
  const node = await openNode({ dataPath: dir });
  const d = createDispatcher(node.context);
  const r = await d('PUT', `/${index}`, { mappings: { _doc: { properties } } } as object);
  expect(r.status).toBe(200);
  const lines = docs.flatMap((doc) => [
    JSON.stringify({ index: { _index: index, _type: '_doc' } }),
    JSON.stringify(doc),
  ]);
  const b = await d('POST', '/_bulk?refresh=true', (lines.join('\n') + '\n') as never);
  expect(b.status).toBe(200);
  return {
    sqlNode: sqlNodeOf(node.context),
    d,
    close: async () => {
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Planned = { kind: string; plan?: unknown };
export const planOf = (s: SqlService, query: string) =>
  (s as unknown as { planStatement(t: string, r: object): Planned }).planStatement(query, {});

/** A result or the message of the error thrown. */
export function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return { error: (e as Error).message };
  }
}

async function rowsOf(s: SqlService, query: string): Promise<SqlPage | { error: string }> {
  try {
    return await s.execute({ query });
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * Runs a family of statements (in order) through one service, where templates form, and checks
 * each against the statement planned alone; returns how many came from a template and each
 * statement's answer (rows or error).
 */
export async function family(
  sqlNode: SqlNode,
  statements: readonly string[],
): Promise<{ templated: number; answers: unknown[] }> {
  const shared = new SqlService(sqlNode);
  const answers: unknown[] = [];
  for (const q of statements) {
    const alone = new SqlService(sqlNode);
    expect(
      outcome(() => shared.translate({ query: q })),
      q,
    ).toEqual(outcome(() => alone.translate({ query: q })));
    const a = outcome(() => planOf(shared, q)) as Planned;
    const b = outcome(() => planOf(alone, q)) as Planned;
    expect(a.kind, q).toBe(b.kind);
    if (a.plan !== undefined) expect(samePlan(a.plan, b.plan), q).toBe(true);
    const rows = await rowsOf(shared, q);
    expect(rows, q).toEqual(await rowsOf(alone, q));
    answers.push(rows);
  }
  return { templated: shared.templatedCount, answers };
}
