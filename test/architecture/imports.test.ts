/**
 * Dependencies point one way (server → sql → dsl/engine → store/search → common). Every relative
 * import of every module under src/ and grammar/ is checked against this table.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

/** Layer of a file, and the layers it may import. */
const LAYERS: Array<{ name: string; match: RegExp; may: string[] }> = [
  { name: 'grammar', match: /^grammar\//, may: ['grammar'] },
  { name: 'common', match: /^src\/common\//, may: ['common'] },
  { name: 'functions', match: /^src\/functions\//, may: ['functions', 'common'] },
  { name: 'mapping', match: /^src\/mapping\//, may: ['mapping', 'common'] },
  { name: 'search', match: /^src\/search\//, may: ['search', 'mapping', 'common'] },
  { name: 'store', match: /^src\/store\//, may: ['store', 'common'] },
  { name: 'security', match: /^src\/security\//, may: ['security', 'common'] },
  {
    name: 'engine',
    match: /^src\/engine\//,
    may: ['engine', 'store', 'search', 'mapping', 'common'],
  },
  { name: 'cat', match: /^src\/cat\//, may: ['cat', 'engine', 'common'] },
  {
    // node-to-node transport, coordination on etcd, allocation, replication, distributed search
    name: 'cluster',
    match: /^src\/cluster\//,
    may: [
      'cluster',
      'dsl',
      'engine',
      'store',
      'search',
      'mapping',
      'functions',
      'common',
      'security',
    ],
  },
  {
    name: 'dsl',
    match: /^src\/dsl\//,
    may: ['dsl', 'engine', 'search', 'mapping', 'functions', 'common', 'grammar'],
  },
  {
    name: 'ingest',
    match: /^src\/ingest\//,
    may: ['ingest', 'dsl', 'engine', 'mapping', 'functions', 'common'],
  },
  {
    name: 'sql',
    match: /^src\/sql\//,
    may: ['sql', 'dsl', 'engine', 'search', 'mapping', 'functions', 'common', 'grammar'],
  },
  { name: 'repl', match: /^src\/repl\//, may: ['repl', 'sql', 'common'] },
  {
    name: 'http',
    match: /^src\/http\//,
    may: [
      'http',
      'sql',
      'dsl',
      'engine',
      'cat',
      'store',
      'search',
      'mapping',
      'functions',
      'common',
      'node',
      'security',
      'cluster',
      'ingest',
    ],
  },
  {
    name: 'node',
    match: /^src\/(node|node-context)\.ts$/,
    may: [
      'node',
      'http',
      'sql',
      'dsl',
      'engine',
      'store',
      'search',
      'mapping',
      'common',
      'functions',
      'security',
      'cluster',
      'ingest',
    ],
  },
  {
    name: 'cli',
    match: /^src\/cli\//,
    may: ['cli', 'node', 'repl', 'sql', 'common', 'security'],
  },
];

function layerOf(path: string): string | null {
  return LAYERS.find((l) => l.match.test(path))?.name ?? null;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('architecture', () => {
  it('keeps imports pointing down the layer table', () => {
    const problems: string[] = [];
    for (const file of [...walk(join(root, 'src')), ...walk(join(root, 'grammar'))]) {
      const rel = relative(root, file).replace(/\\/g, '/');
      const from = layerOf(rel);
      if (!from) {
        problems.push(`${rel}: not in any layer`);
        continue;
      }
      const allowed = LAYERS.find((l) => l.name === from)!.may;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from\s+'(\.[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), m[1]!))
          .replace(/\\/g, '/')
          .replace(/\.js$/, '.ts');
        const to = layerOf(target);
        if (to && !allowed.includes(to))
          problems.push(`${rel} imports ${target} (${from} → ${to})`);
      }
      // Type-only imports of Fastify are fine (node.ts exposes the app to tests).
      if (from !== 'http' && /^import (?!type )[^;]*from\s+'fastify'/m.test(text)) {
        problems.push(`${rel} imports fastify outside src/http`);
      }
    }
    expect(problems).toEqual([]);
  });
});
