/**
 * Finding test suites on disk and selecting tests: ids are `folder/file.yml/test name`, filters
 * and skip-list selectors name a folder (`index`), a file (`search/10_source_filtering`, `.yml`
 * optional) or one test (`bulk/10_basic.yml/Array of objects`). The skip list
 * (`rest-skip.txt`) holds `selector # reason` lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSuite, type Section, type Suite } from './suite.js';

export interface Selector {
  folder: string;
  file?: string;
  name?: string;
}

export function testId(folder: string, file: string, name: string): string {
  return `${folder}/${file}/${name}`;
}

/** Parses `folder[/file[.yml][/test name]]`; test names may themselves contain `/`. */
export function parseSelector(text: string): Selector {
  const s = text.trim().replace(/^\/+/, '');
  const i = s.indexOf('/');
  if (i < 0) return { folder: s };
  const folder = s.slice(0, i);
  const rest = s.slice(i + 1);
  const j = rest.indexOf('/');
  const rawFile = j < 0 ? rest : rest.slice(0, j);
  const file = /\.ya?ml$/.test(rawFile) ? rawFile : rawFile === '' ? undefined : `${rawFile}.yml`;
  const name = j < 0 ? undefined : rest.slice(j + 1);
  return { folder, ...(file ? { file } : {}), ...(name ? { name } : {}) };
}

export function selectorMatches(
  sel: Selector,
  folder: string,
  file: string,
  name: string,
): boolean {
  return (
    sel.folder === folder &&
    (sel.file === undefined || sel.file === file) &&
    (sel.name === undefined || sel.name === name)
  );
}

export interface SkipEntry {
  selector: Selector;
  text: string;
  reason: string;
}

/** Reads the skip list: `selector # reason`, blank lines and `#` comment lines ignored. */
export function parseSkipList(text: string): SkipEntry[] {
  const out: SkipEntry[] = [];
  text.split('\n').forEach((raw, idx) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const hash = line.indexOf(' #');
    if (hash < 0)
      throw new Error(`rest-skip.txt line ${idx + 1}: a reason is required ("selector # reason")`);
    const sel = line.slice(0, hash).trim();
    const reason = line.slice(hash + 2).trim();
    if (reason === '') throw new Error(`rest-skip.txt line ${idx + 1}: empty reason`);
    out.push({ selector: parseSelector(sel), text: sel, reason });
  });
  return out;
}

export interface LoadedSuite {
  folder: string;
  file: string;
  suite: Suite | null;
  /** Set when the file could not be parsed. */
  error?: string;
}

export interface TestRef {
  id: string;
  folder: string;
  file: string;
  name: string;
  suite: Suite;
  section: Section;
}

/** Loads every `<folder>/*.yml` under `testsDir`, sorted by folder then file. */
export function loadSuites(testsDir: string): LoadedSuite[] {
  const out: LoadedSuite[] = [];
  for (const folder of readdirSync(testsDir).sort()) {
    const dir = join(testsDir, folder);
    if (!statSync(dir).isDirectory()) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!/\.ya?ml$/.test(file)) continue;
      try {
        out.push({
          folder,
          file,
          suite: parseSuite(folder, file, readFileSync(join(dir, file), 'utf8')),
        });
      } catch (e) {
        out.push({ folder, file, suite: null, error: (e as Error).message });
      }
    }
  }
  return out;
}

/** Every test section, in file order. */
export function listTests(suites: readonly LoadedSuite[]): TestRef[] {
  const out: TestRef[] = [];
  for (const s of suites) {
    if (!s.suite) continue;
    for (const section of s.suite.tests) {
      out.push({
        id: testId(s.folder, s.file, section.name),
        folder: s.folder,
        file: s.file,
        name: section.name,
        suite: s.suite,
        section,
      });
    }
  }
  return out;
}
