/**
 * The web console (console/src, a browser bundle) stays apart from the server: it imports only its
 * own modules and the browser packages it bundles, and nothing under src/ imports it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const BROWSER_PACKAGES = /^(codemirror|@codemirror\/[a-z-]+|uplot(\/dist\/uPlot\.min\.css)?)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('console architecture', () => {
  it('imports only console modules and its bundled browser packages', () => {
    const problems: string[] = [];
    const files = walk(join(root, 'console/src'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s+'([^']+)'/g)) {
        const spec = m[1]!;
        if (spec.startsWith('.')) {
          const target = relative(root, resolve(dirname(file), spec)).replace(/\\/g, '/');
          if (!target.startsWith('console/src/')) problems.push(`${file} imports ${target}`);
        } else if (!BROWSER_PACKAGES.test(spec)) problems.push(`${file} imports package ${spec}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('is imported by nothing in the server', () => {
    const offenders = walk(join(root, 'src')).filter((f) =>
      /from\s+'(\.\.\/)+console\//.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
