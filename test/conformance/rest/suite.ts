/**
 * Parses one YAML test file into a suite (ES: section/ClientYamlTestSuite, ClientYamlTestSection,
 * SetupSection, TeardownSection, SkipSection, DoSection, the assertion and set sections). Request
 * params keep the scalar text Jackson's `parser.text()` gives (lists joined with `,`); bodies keep
 * float and long literals exact; string bodies are parsed as a stream of JSON objects.
 */
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Pair } from 'yaml';
import { parseVersionRanges, type SkipSpec } from './es-version.js';
import { parseJsonStream } from './json-value.js';
import { lineOf, loadYamlDocuments, nodeToValue, scalarText } from './yaml-load.js';
import type { CompareOp } from './assertions.js';

export interface DoStep {
  kind: 'do';
  line: number;
  api: string;
  params: Map<string, string>;
  /** null: no body. Several entries: a bulk-style body. */
  bodies: unknown[] | null;
  catch: string | null;
  headers: Map<string, string>;
  warnings: string[];
  allowedWarnings: string[];
  hasNodeSelector: boolean;
}

export type Step =
  | DoStep
  | {
      kind: 'match' | 'length' | 'contains' | CompareOp;
      line: number;
      field: string;
      expected: unknown;
    }
  | { kind: 'is_true' | 'is_false'; line: number; field: string }
  | { kind: 'set' | 'transform_and_set'; line: number; pairs: [string, string][] };

export interface Section {
  name: string;
  line: number;
  skip: SkipSpec | null;
  steps: Step[];
}

export interface Suite {
  /** API folder, e.g. `search.aggregation`. */
  folder: string;
  /** File name with extension, e.g. `10_basic.yml`. */
  file: string;
  setup: Section | null;
  teardown: Section | null;
  tests: Section[];
}

export class SuiteParseError extends Error {}

const ASSERTIONS = new Set(['match', 'length', 'contains', 'gt', 'gte', 'lt', 'lte']);

export function parseSuite(folder: string, file: string, text: string): Suite {
  if (text.length === 0) throw new SuiteParseError(`test suite file ${folder}/${file} is empty`);
  if (!text.endsWith('\n')) {
    throw new SuiteParseError(`test suite [${folder}/${file}] doesn't end with line feed (\\n)`);
  }
  const { docs, lineCounter } = loadYamlDocuments(text);
  const suite: Suite = { folder, file, setup: null, teardown: null, tests: [] };
  const names = new Set<string>();
  for (const doc of docs) {
    const root = doc.contents;
    if (root === null || root === undefined) continue;
    if (!isMap(root))
      throw new SuiteParseError(
        `expected a map of test sections at line ${lineOf(root, lineCounter)}`,
      );
    for (const pair of root.items as Pair[]) {
      const name = scalarText(pair.key);
      const section = parseSection(name, pair, doc, lineCounter);
      if (name === 'setup' || name === 'teardown') {
        if (suite[name]) throw new SuiteParseError(`duplicate [${name}] section`);
        suite[name] = section;
      } else {
        if (names.has(name)) throw new SuiteParseError(`duplicate test section [${name}]`);
        names.add(name);
        suite.tests.push(section);
      }
    }
  }
  return suite;
}

function parseSection(name: string, pair: Pair, doc: Document, lc: LineCounter): Section {
  const line = lineOf(pair.key as never, lc);
  const fail = (msg: string, at = line): never => {
    throw new SuiteParseError(`Error parsing test named [${name}] at line ${at}: ${msg}`);
  };
  const list = pair.value;
  if (!isSeq(list)) return fail('expected a list of steps');
  const section: Section = { name, line, skip: null, steps: [] };
  list.items.forEach((item, idx) => {
    const at = lineOf(item as never, lc);
    if (!isMap(item) || item.items.length !== 1)
      return fail('each step must be a map with one key', at);
    const step = item.items[0] as Pair;
    const key = scalarText(step.key);
    if (key === 'skip') {
      if (idx !== 0) return fail('[skip] must be the first step', at);
      section.skip = parseSkip(step.value, doc, (m) => fail(m, at));
      return;
    }
    try {
      section.steps.push(parseStep(key, step.value, doc, at));
    } catch (e) {
      fail((e as Error).message, at);
    }
  });
  return section;
}

function parseSkip(node: unknown, doc: Document, fail: (m: string) => never): SkipSpec {
  if (!isMap(node)) return fail('the skip section is not properly indented');
  let version: string | null = null;
  let reason: string | null = null;
  const features: string[] = [];
  for (const p of node.items as Pair[]) {
    const k = scalarText(p.key);
    if (k === 'version') version = scalarText(p.value);
    else if (k === 'reason') reason = scalarText(p.value);
    else if (k === 'features') {
      if (isSeq(p.value)) for (const f of p.value.items) features.push(scalarText(f));
      else features.push(scalarText(p.value));
    } else fail(`field ${k} not supported within skip section`);
  }
  void doc;
  if ((version === null || version === '') && features.length === 0) {
    fail('version or features is mandatory within skip section');
  }
  if (version && !reason) fail('reason is mandatory within skip version section');
  return { ranges: version ? parseVersionRanges(version) : [], features, reason };
}

function parseStep(key: string, node: unknown, doc: Document, line: number): Step {
  if (key === 'do') return parseDo(node, doc, line);
  if (ASSERTIONS.has(key)) {
    if (!isMap(node)) throw new Error(`[${key}] expects a map with one entry`);
    if (node.items.length !== 1) {
      throw new Error(
        `expected key value pair but found an object with ${node.items.length} fields`,
      );
    }
    const p = node.items[0] as Pair;
    const expected = nodeToValue(p.value, doc, { literals: false });
    return { kind: key as 'match', line, field: scalarText(p.key), expected };
  }
  if (key === 'is_true' || key === 'is_false') {
    if (!isScalar(node) && node !== null) throw new Error(`[${key}] expects a field name`);
    return { kind: key, line, field: node === null ? '' : scalarText(node) };
  }
  if (key === 'set' || key === 'transform_and_set') {
    if (!isMap(node) || node.items.length === 0)
      throw new Error(`${key} section must set at least a value`);
    const pairs = (node.items as Pair[]).map((p): [string, string] => [
      scalarText(p.key),
      scalarText(p.value),
    ]);
    return { kind: key, line, pairs };
  }
  throw new Error(`unknown section [${key}]`);
}

function parseDo(node: unknown, doc: Document, line: number): DoStep {
  if (!isMap(node)) throw new Error('the do section is not properly indented');
  const step: DoStep = {
    kind: 'do',
    line,
    api: '',
    params: new Map(),
    bodies: null,
    catch: null,
    headers: new Map(),
    warnings: [],
    allowedWarnings: [],
    hasNodeSelector: false,
  };
  for (const p of node.items as Pair[]) {
    const k = scalarText(p.key);
    const v = p.value;
    if (k === 'catch') {
      if (!isScalar(v)) throw new Error('[catch] must be a value');
      step.catch = scalarText(v);
    } else if (k === 'warnings' || k === 'allowed_warnings') {
      if (!isSeq(v) || !v.items.every((x) => isScalar(x) && typeof x.value === 'string')) {
        throw new Error(`[${k}] must be a string array`);
      }
      const list = v.items.map(scalarText);
      if (k === 'warnings') step.warnings = list;
      else step.allowedWarnings = list;
    } else if (k === 'headers') {
      if (!isMap(v)) throw new Error('[headers] must be a map');
      for (const h of v.items as Pair[]) step.headers.set(scalarText(h.key), scalarText(h.value));
    } else if (k === 'node_selector') {
      step.hasNodeSelector = true;
    } else if (isMap(v) || v === null || (isScalar(v) && v.value === null)) {
      if (step.api) throw new Error(`more than one api in a do section: [${step.api}], [${k}]`);
      step.api = k;
      if (isMap(v)) parseApiCall(step, v.items as Pair[], doc);
    } else {
      throw new Error(`unsupported field [${k}]`);
    }
  }
  for (const w of step.warnings) {
    if (step.allowedWarnings.includes(w))
      throw new Error(`the warning [${w}] was both allowed and expected`);
  }
  if (!step.api) throw new Error('client call section is mandatory within a do section');
  return step;
}

function parseApiCall(step: DoStep, items: Pair[], doc: Document): void {
  for (const p of items) {
    const name = scalarText(p.key);
    const v = p.value;
    if (name === 'body') {
      step.bodies = [...(step.bodies ?? []), ...parseBodies(v, doc)];
    } else if (isSeq(v)) {
      // ApiCallSection.addParam joins repeated values with commas; `[]` adds nothing.
      if (v.items.length > 0) step.params.set(name, v.items.map(scalarText).join(','));
    } else if (isScalar(v) || v === null) {
      step.params.set(name, v === null ? 'null' : scalarText(v));
    } else {
      throw new Error(`param [${name}] must be a value or a list of values`);
    }
  }
}

function parseBodies(node: unknown, doc: Document): unknown[] {
  if (isMap(node)) return [nodeToValue(node, doc, { literals: true })];
  if (isSeq(node)) {
    return node.items.flatMap((item) =>
      isMap(item) ? [nodeToValue(item, doc, { literals: true })] : parseStringBody(item),
    );
  }
  return parseStringBody(node);
}

/** A string body is parsed as consecutive JSON objects (DoSection: `mapOrdered()` in a loop). */
function parseStringBody(node: unknown): unknown[] {
  const text = isScalar(node) ? scalarText(node) : '';
  const values = parseJsonStream(text);
  for (const v of values) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new Error(`body must hold JSON objects, found [${JSON.stringify(v)}]`);
    }
  }
  return values;
}
