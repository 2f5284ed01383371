/**
 * Every `q=` URI query and every `query_string` / `simple_query_string` body in Elasticsearch's
 * REST YAML suites (search*, count) must parse, or fail the way the suite's `catch` expects.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../../../src/dsl/query-string/parse.js';
import { parseSimpleQueryString } from '../../../../src/dsl/query-string/simple.js';
import { isEsError, type EsError } from '../../../../src/common/errors.js';
import { B, PFX, T, sh, mu } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const suites = path.resolve(repoRoot, '../shared/conformance/rest-api-spec/test');

interface Found {
  file: string;
  kind: 'q' | 'query_string' | 'simple_query_string';
  params: Record<string, unknown>;
  catch?: string;
}

function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      visit(k, v);
      walk(v, visit);
    }
  }
}

function collect(): Found[] {
  const out: Found[] = [];
  const dirs = readdirSync(suites).filter((d) => d.startsWith('search') || d === 'count');
  for (const dir of dirs) {
    for (const f of readdirSync(path.join(suites, dir)).filter((n) => n.endsWith('.yml'))) {
      const file = `${dir}/${f}`;
      for (const doc of parseAllDocuments(readFileSync(path.join(suites, file), 'utf8'))) {
        walk(doc.toJS(), (key, value) => {
          if (key !== 'do' || !value || typeof value !== 'object') return;
          const step = value as Record<string, unknown>;
          const c = typeof step.catch === 'string' ? step.catch : undefined;
          for (const api of ['search', 'count']) {
            const call = step[api] as Record<string, unknown> | undefined;
            if (!call) continue;
            if (typeof call.q === 'string') out.push({ file, kind: 'q', params: call, catch: c });
            walk(call.body, (k, v) => {
              if (k === 'query_string' || k === 'simple_query_string') {
                out.push({ file, kind: k, params: v as Record<string, unknown>, catch: c });
              }
            });
          }
        });
      }
    }
  }
  return out;
}

function run(f: Found): unknown {
  const p = f.params;
  const op = String(p.default_operator ?? 'OR').toUpperCase() === 'AND' ? 'AND' : 'OR';
  if (f.kind === 'simple_query_string') {
    return parseSimpleQueryString(String(p.query), {
      defaultOperator: op,
      flags: p.flags as string | number | undefined,
    });
  }
  const query = String(f.kind === 'q' ? p.q : p.query);
  const df = (f.kind === 'q' ? p.df : p.default_field) as string | undefined;
  return parseQueryString(query, {
    defaultOperator: op,
    defaultField: df ?? (p.fields ? null : '*'),
    lenient: p.lenient === true,
    maxRegexLength: 1000, // index.max_regex_length default
  });
}

function reasons(e: EsError): string[] {
  const out: string[] = [];
  for (let c: EsError | undefined = e; c; c = c.causedBy) out.push(c.reason ?? '');
  return out;
}

describe('query-string queries of the ES REST suites', () => {
  const found = collect();
  it('finds the suites', () => {
    expect(found.length).toBeGreaterThanOrEqual(12);
    expect(found.some((f) => f.kind === 'query_string')).toBe(true);
  });
  for (const f of found) {
    const label = `${f.file}: ${f.kind} ${JSON.stringify(f.params.q ?? f.params.query).slice(0, 60)}`;
    it(label, () => {
      const expected = f.catch?.startsWith('/') ? new RegExp(f.catch.slice(1, -1)) : undefined;
      if (!expected) {
        expect(() => run(f)).not.toThrow();
        return;
      }
      let err: unknown;
      try {
        run(f);
      } catch (e) {
        err = e;
      }
      expect(isEsError(err)).toBe(true);
      expect(reasons(err as EsError).some((r) => expected.test(r))).toBe(true);
    });
  }

  it('search/60_query_string.yml queries parse to the expected trees', () => {
    const q = (s: string, o: { df?: string; op?: 'AND' | 'OR' } = {}) =>
      parseQueryString(s, { defaultOperator: o.op ?? 'OR', defaultField: o.df ?? '*' });
    expect(q('bar', { df: 'field' })).toEqual(T('bar'));
    expect(q('field:foo field:xyz')).toEqual(B(sh(T('foo', 'field')), sh(T('xyz', 'field'))));
    expect(q('field:foo field:xyz', { op: 'AND' })).toEqual(
      B(mu(T('foo', 'field')), mu(T('xyz', 'field'))),
    );
    expect(q('field:BA*')).toEqual(PFX('BA', 'field'));
    expect(q('number:foo')).toEqual(T('foo', 'number'));
    expect(q('stupendousl*', { df: 'text' })).toEqual(PFX('stupendousl'));
  });
});
