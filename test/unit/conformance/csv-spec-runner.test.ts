/**
 * The csv-spec runner's handling of upstream-muted (`-Ignore`) cases and of REST-body snippets,
 * against a stub SQL session (no node): a muted case that passes counts, one that fails is skipped.
 */
import { describe, expect, it } from 'vitest';
import { parseCsvSpec } from '../../conformance/sql/csv-spec-parser.js';
import { CASE_NOW, caseId, requestOf, runCase, specCases } from '../../conformance/sql/runner.js';
import type { SqlRequest, SqlService } from '../../../src/sql/execute/session.js';

/** A session answering every statement with one integer column `x` holding `value`. */
function stub(value: number, seen: SqlRequest[] = []): SqlService {
  return {
    execute: async (req: SqlRequest) => {
      seen.push(req);
      return { columns: [{ name: 'x', type: 'integer' }], rows: [[value]], cursor: null };
    },
  } as unknown as SqlService;
}

const [muted] = parseCsvSpec('m-Ignore\nSELECT 1;\nx:i\n1\n;\n');

describe('csv-spec runner', () => {
  it('counts a muted case that passes as passed', async () => {
    expect(await runCase(stub(1), muted!, 'f')).toEqual({
      id: 'f:m-Ignore',
      file: 'f',
      status: 'passed',
      reason: null,
    });
  });

  it('reports a muted case that fails as skipped, with why it fails', async () => {
    const r = await runCase(stub(2), muted!, 'f');
    expect(r.status).toBe('skipped');
    expect(r.reason).toMatch(/^marked -Ignore upstream; here: .*expected:<1> but was:<2>/);
  });

  it('fails a case that is not muted', async () => {
    const [plain] = parseCsvSpec('p\nSELECT 1;\nx:i\n1\n;\n');
    expect((await runCase(stub(2), plain!, 'f')).status).toBe('failed');
  });

  it('sends a REST-body snippet as its query and time zone', async () => {
    expect(requestOf('SELECT 1')).toEqual({ query: 'SELECT 1' });
    expect(requestOf('{\n"query" : "SELECT 1",\n"time_zone" : "Europe/Athens"\n}')).toEqual({
      query: 'SELECT 1',
      timeZone: 'Europe/Athens',
    });
    const seen: SqlRequest[] = [];
    const [rest] = parseCsvSpec(
      'r\n{\n"query" : "SELECT 1",\n"time_zone" : "+03:00"\n}\nx:i\n1\n;\n',
    );
    expect((await runCase(stub(1, seen), rest!, 'f')).status).toBe('passed');
    expect(seen).toEqual([{ query: 'SELECT 1', timeZone: '+03:00', mode: 'jdbc' }]);
  });
});

describe('per-case clocks', () => {
  it('name only existing clock-printing -Ignore docs snippets', () => {
    const byId = new Map(
      ['docs/docs', 'es-6.8/docs'].flatMap((f) => specCases(f).map((c) => [caseId(c, f), c])),
    );
    expect(CASE_NOW.size).toBeGreaterThan(0);
    for (const id of CASE_NOW.keys()) {
      const c = byId.get(id);
      expect(c, id).toBeDefined();
      expect(c!.ignored).toBe(true);
      expect(c!.query).toMatch(/CURRENT_|CURDATE|CURTIME|NOW\(|TODAY\(/i);
    }
  });
});
