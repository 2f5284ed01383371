/**
 * Every `_sql/translate` example of the SQL reference (../shared/conformance/sql/docs/*.asciidoc)
 * against the docs' `library` setup (docs/setup-library.yml): the body `POST /_sql/translate`
 * returns equals the documented one modulo key order; aggregation names (random-ish ids in ES,
 * counters here) are matched by structure, renamed in order of appearance on both sides.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

const DOCS = resolve(__dirname, '../../../shared/conformance/sql/docs');

interface Example {
  file: string;
  path: string;
  request: unknown;
  response: unknown;
}

/** `[source,console]` translate requests and the `[source,console-result]` block after each. */
function examples(): Example[] {
  const out: Example[] = [];
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith('.asciidoc'))) {
    const text = readFileSync(resolve(DOCS, file), 'utf8');
    const blocks = [
      ...text.matchAll(/\[source,(console|console-result)\]\n-{4,}\n([\s\S]*?)\n-{4,}/g),
    ];
    blocks.forEach((b, i) => {
      const body = b[2]!;
      const m = /^(POST|GET) (\/(?:_xpack\/)?_sql\/translate\S*)\n([\s\S]*)$/.exec(body);
      if (b[1] !== 'console' || !m) return;
      const result = blocks[i + 1];
      if (!result || result[1] !== 'console-result') return;
      out.push({
        file,
        path: m[2]!,
        request: JSON.parse(m[3]!),
        response: JSON.parse(result[2]!),
      });
    });
  }
  return out;
}

/** Renames aggregation names (and the paths naming them) to #1, #2, ... by first appearance. */
function normalizeAggIds(json: unknown): unknown {
  const names = new Map<string, string>();
  const rename = (n: string) => {
    if (!names.has(n)) names.set(n, `#${names.size + 1}`);
    return names.get(n)!;
  };
  const walk = (v: unknown, key: string | null): unknown => {
    if (Array.isArray(v)) {
      // composite sources: one-key objects named by the source id
      if (key === 'sources')
        return v.map((s) =>
          Object.fromEntries(Object.entries(s as object).map(([k, x]) => [rename(k), walk(x, k)])),
        );
      return v.map((x) => walk(x, key));
    }
    if (v === null || typeof v !== 'object') {
      if (key === 'buckets_path_value' && typeof v === 'string')
        return v.replace(/^[^.>[]+/, (n) => (n === '_count' || n === '_key' ? n : rename(n)));
      return v;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    if (key === 'aggregations' || key === 'aggs')
      return Object.fromEntries(entries.map(([k, x]) => [rename(k), walk(x, k)]));
    if (key === 'buckets_path')
      return Object.fromEntries(entries.map(([k, x]) => [k, walk(x, 'buckets_path_value')]));
    return Object.fromEntries(entries.map(([k, x]) => [k, walk(x, k)]));
  };
  return walk(json, null);
}

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const steps = parseYaml(readFileSync(resolve(DOCS, 'setup-library.yml'), 'utf8')) as Array<{
    do: Record<string, Record<string, unknown>>;
  }>;
  for (const step of steps) {
    const [api, args] = Object.entries(step.do)[0]!;
    if (api === 'indices.create') {
      const r = await node.req('PUT', `/${args.index}?include_type_name=true`, args.body);
      expect(r.status).toBe(200);
    } else if (api === 'bulk') {
      const r = await node.req(
        'POST',
        `/${args.index}/${args.type}/_bulk?refresh=${args.refresh}`,
        String(args.body),
        { 'content-type': 'application/x-ndjson' },
      );
      expect(r.status).toBe(200);
    } else throw new Error(`unexpected setup step ${api}`);
  }
}, 60_000);

afterAll(async () => {
  await node.destroy();
});

describe('SQL reference: _sql/translate examples', () => {
  const all = examples();

  it('finds the examples', () => {
    expect(all.length).toBeGreaterThanOrEqual(1);
  });

  for (const ex of all) {
    it(`${ex.file}: ${JSON.stringify(ex.request)}`, async () => {
      const r = await node.req('POST', ex.path, ex.request);
      expect(r.status).toBe(200);
      expect(normalizeAggIds(r.json)).toEqual(normalizeAggIds(ex.response));
    });
  }

  it('matches aggregation names by structure', () => {
    const es = {
      aggregations: {
        groupby: {
          composite: { sources: [{ '0fa1': { terms: { field: 'a' } } }] },
          aggregations: {
            '9c2e': { avg: { field: 'b' } },
            'having.9c2e': { bucket_selector: { buckets_path: { a0: '9c2e' } } },
          },
        },
      },
    };
    const ours = {
      aggregations: {
        groupby: {
          composite: { sources: [{ '0': { terms: { field: 'a' } } }] },
          aggregations: {
            '1': { avg: { field: 'b' } },
            'having.1': { bucket_selector: { buckets_path: { a0: '1' } } },
          },
        },
      },
    };
    expect(normalizeAggIds(ours)).toEqual(normalizeAggIds(es));
    const swapped = structuredClone(ours);
    swapped.aggregations.groupby.aggregations['having.1'].bucket_selector.buckets_path.a0 = '0';
    expect(normalizeAggIds(swapped)).not.toEqual(normalizeAggIds(es));
  });
});
