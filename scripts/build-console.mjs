#!/usr/bin/env node
/**
 * Builds the web console (console/) into dist/console/: one minified ES module and one stylesheet
 * with content-hashed names (served with immutable caching), index.html naming them, and a
 * gzipped copy of each file for clients that accept it. The REST API specs, when present, are
 * reduced to a compact list of endpoints and parameters for completion; nothing is fetched at run
 * time. Usable as a module (`buildConsole()`) by the browser test.
 */
import { build } from 'esbuild';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const specDir = resolve(root, '../shared/conformance/rest-api-spec/api');

/** `{ api: [methods, paths, params] }` from the specs: what completion needs, nothing else. */
export function compactSpecs(dir = specDir) {
  const out = {};
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json') || file.startsWith('_')) continue;
    const spec = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const [api, def] of Object.entries(spec)) {
      const url = def.url ?? {};
      const params = Object.keys(url.params ?? {});
      out[api] = [def.methods ?? [], url.paths ?? [url.path], params];
    }
  }
  return out;
}

export async function buildConsole(target = join(root, 'dist/console')) {
  // built aside and swapped in, so a node serving the folder (a test running beside another
  // that builds) sees the old files or the new ones, never half of them
  const outDir = `${target}.tmp-${process.pid}`;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const specs = compactSpecs();
  const result = await build({
    entryPoints: { main: join(root, 'console/src/main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    outdir: outDir,
    entryNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { __API_SPECS__: JSON.stringify(specs) },
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  const html = readFileSync(join(root, 'console/index.html'), 'utf8')
    .replace('%MAIN_JS%', js)
    .replace('%MAIN_CSS%', css);
  writeFileSync(join(outDir, 'index.html'), html);
  let gzipped = 0;
  for (const f of readdirSync(outDir)) {
    const gz = gzipSync(readFileSync(join(outDir, f)), { level: 9 });
    writeFileSync(join(outDir, f + '.gz'), gz);
    gzipped += gz.length;
  }
  const old = `${target}.old-${process.pid}`;
  try {
    if (existsSync(target)) renameSync(target, old);
    renameSync(outDir, target);
  } catch (e) {
    // another build swapped its copy in meanwhile: the build is deterministic, keep that one
    if (!['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes(e.code)) throw e;
    rmSync(outDir, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return { outDir: target, files: [js, css, 'index.html'], gzipped };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { outDir, gzipped } = await buildConsole();
  process.stdout.write(`console: ${outDir} (${(gzipped / 1024).toFixed(0)} KiB gzipped)\n`);
}
