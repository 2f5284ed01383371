/**
 * The REST examples of the SQL reference (../shared/conformance/sql/docs/rest.asciidoc and
 * getting-started.asciidoc) run in order against a node, as ES's docs tests run them: `setup:library`
 * (docs/setup-library.yml) before the marked snippets, `continued` snippets reuse the previous
 * response's cursor (`$body.cursor`), JSON/YAML results compare as values with the cursor taken
 * from the response, text results (`non_json`) compare with whitespace runs collapsed.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

const DOCS = resolve(__dirname, '../../../shared/conformance/sql/docs');

interface Snippet {
  readonly lang: string;
  readonly body: string;
  readonly notes: string[];
}

function snippets(file: string): Snippet[] {
  const text = readFileSync(resolve(DOCS, file), 'utf8');
  const out: Snippet[] = [];
  const re = /\[source,\s*([\w-]+)\]\n(-{4,})\n([\s\S]*?)\n\2\n((?:\/\/[^\n]*\n)*)/g;
  for (const m of text.matchAll(re)) {
    out.push({ lang: m[1]!, body: m[3]!, notes: m[4]!.split('\n').filter((l) => l !== '') });
  }
  return out;
}

interface Step {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly setup: boolean;
  readonly continued: boolean;
  readonly expected: Snippet | null;
}

function steps(file: string): Step[] {
  const all = snippets(file);
  const out: Step[] = [];
  all.forEach((s, i) => {
    if (s.lang !== 'console') return;
    const m = /^(GET|POST|PUT|DELETE) (\S+)\n?([\s\S]*)$/.exec(s.body);
    if (!m) return;
    const next = all[i + 1];
    out.push({
      method: m[1]!,
      path: m[2]!,
      body: m[3]!,
      setup: s.notes.some((n) => n.includes('TEST[setup:library]')),
      continued: s.notes.some((n) => n.includes('TEST[continued]')),
      expected: next && next.lang !== 'console' && next.lang !== 'bash' ? next : null,
    });
  });
  return out;
}

let node: TestNode;

async function setupLibrary(): Promise<void> {
  await node.req('DELETE', '/library');
  const doSteps = parseYaml(readFileSync(resolve(DOCS, 'setup-library.yml'), 'utf8')) as Array<{
    do: Record<string, Record<string, unknown>>;
  }>;
  for (const step of doSteps) {
    const [api, args] = Object.entries(step.do)[0]!;
    const r =
      api === 'indices.create'
        ? await node.req('PUT', `/${args.index}?include_type_name=true`, args.body)
        : await node.req(
            'POST',
            `/${args.index}/${args.type}/_bulk?refresh=true`,
            String(args.body),
            {
              'content-type': 'application/x-ndjson',
            },
          );
    expect(r.status).toBe(200);
  }
}

const squash = (s: string) => s.replace(/\r\n/g, '\n').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  node = await startTestNode();
}, 60_000);

afterAll(async () => {
  await node.destroy();
});

for (const file of ['getting-started.asciidoc', 'rest.asciidoc']) {
  describe(`SQL reference: ${file}`, () => {
    const list = steps(file);
    let lastCursor = '';

    it('has REST examples', () => {
      expect(list.filter((s) => s.path.startsWith('/_sql')).length).toBeGreaterThanOrEqual(1);
    });

    list.forEach((step, i) => {
      it(`#${i + 1} ${step.method} ${step.path} ${step.body.replace(/\s+/g, ' ').slice(0, 90)}`, async () => {
        if (i === 0 && !step.setup) await node.req('DELETE', '/library');
        if (step.setup) await setupLibrary();
        let body: string | undefined = step.body.trim() === '' ? undefined : step.body;
        const ndjson = step.path.includes('_bulk');
        if (body !== undefined && !ndjson) {
          const json = JSON.parse(body.replace(/\t/g, ' ')) as Record<string, unknown>;
          if (step.continued && 'cursor' in json) json.cursor = lastCursor;
          body = JSON.stringify(json);
        }
        const r = await node.req(
          step.method,
          step.path,
          ndjson ? body + '\n' : body,
          ndjson
            ? { 'content-type': 'application/x-ndjson' }
            : { 'content-type': 'application/json' },
        );
        expect(r.status, r.text).toBeLessThan(300);
        const headerCursor = r.headers.get('cursor');
        lastCursor = headerCursor ?? (r.json?.cursor as string | undefined) ?? lastCursor;
        const exp = step.expected;
        if (exp === null) return;
        if (exp.lang === 'console-result') {
          const want = JSON.parse(exp.body) as Record<string, unknown>;
          if ('cursor' in want) {
            expect(typeof r.json.cursor).toBe('string');
            want.cursor = r.json.cursor;
          }
          expect(r.json).toEqual(want);
        } else if (exp.lang === 'yaml') {
          const want = parseYaml(exp.body) as Record<string, unknown>;
          const got = parseYaml(r.text) as Record<string, unknown>;
          if ('cursor' in want) want.cursor = got.cursor;
          expect(got).toEqual(want);
        } else {
          expect(squash(r.text)).toBe(squash(exp.body));
        }
      });
    });
  });
}
