/**
 * Loading YAML the way the upstream runner's Jackson/SnakeYAML parser sees it: multi-document
 * test files, flow collections whose continuation lines are indented less than the YAML 1.2 rules
 * allow (SnakeYAML accepts them; a few 6.8 files rely on it), scalar texts for request parameters
 * (`parser.text()`), and float/long literals kept exact for request bodies.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  parse as parseYaml,
  type Document,
  type Node,
} from 'yaml';
import { NumberLiteral } from './json-value.js';

export interface LoadedYaml {
  docs: Document.Parsed[];
  lineCounter: LineCounter;
}

/** Parses every `---` document; retries once with flow collections joined onto one line. */
export function loadYamlDocuments(text: string): LoadedYaml {
  const first = tryLoad(text);
  if (first.errors.length === 0) return first.loaded;
  const second = tryLoad(relaxFlowCollections(text));
  if (second.errors.length === 0) return second.loaded;
  throw new Error(first.errors[0]!);
}

function tryLoad(text: string): { loaded: LoadedYaml; errors: string[] } {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [];
  const errors = list.flatMap((d) => d.errors.map((e) => e.message));
  return { loaded: { docs: list, lineCounter }, errors };
}

/** Parses a YAML response body (Content-Type: application/yaml). */
export function parseYamlBody(text: string): unknown {
  return parseYaml(text);
}

/**
 * Joins a flow collection (`{ ... }`, `[ ... ]`) that starts on a block line and continues over
 * several lines into that first line, leaving the continuation lines empty so line numbers stay.
 * Inside flow context a line break is folded to a space, so the joined text means the same.
 */
export function relaxFlowCollections(text: string): string {
  const lines = text.split('\n');
  let blockScalarIndent = -1; // > -1 while inside a `|` / `>` block scalar body
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = line.length - line.trimStart().length;
    if (blockScalarIndent >= 0) {
      if (line.trim() === '' || indent > blockScalarIndent) continue;
      blockScalarIndent = -1;
    }
    const scan = scanFlow(line, { depth: 0, quote: null });
    if (scan.depth === 0 && scan.quote === null) {
      if (/(?:^|[:\-]\s*|\s)[|>][-+0-9]*\s*(?:#.*)?$/.test(scan.content))
        blockScalarIndent = indent;
      continue;
    }
    let joined = scan.content.trimEnd();
    let state = { depth: scan.depth, quote: scan.quote };
    let j = i + 1;
    for (; j < lines.length && (state.depth > 0 || state.quote !== null); j++) {
      const next = scanFlow(lines[j]!.trimStart(), state);
      joined += ' ' + next.content.trim();
      state = { depth: next.depth, quote: next.quote };
      lines[j] = '';
    }
    lines[i] = joined;
    i = j - 1;
  }
  return lines.join('\n');
}

interface FlowState {
  depth: number;
  quote: '"' | "'" | null;
}

/** Walks one line: bracket depth outside quotes; returns the line without its comment. */
function scanFlow(line: string, start: FlowState): FlowState & { content: string } {
  let { depth, quote } = start;
  let prev = ' ';
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (quote === '"') {
      if (c === '\\') k++;
      else if (c === '"') quote = null;
    } else if (quote === "'") {
      if (c === "'" && line[k + 1] === "'") k++;
      else if (c === "'") quote = null;
    } else if (c === '#' && /\s/.test(prev)) {
      return { depth, quote, content: line.slice(0, k) };
    } else if ((c === '"' || c === "'") && /[\s:\-[{,]/.test(prev)) {
      quote = c;
    } else if (c === '{' || c === '[') {
      if (depth > 0 || /[\s:\-[{,]/.test(prev)) depth++;
    } else if ((c === '}' || c === ']') && depth > 0) {
      depth--;
    }
    prev = c;
  }
  return { depth, quote, content: line };
}

export interface ValueOptions {
  /** Keep floats and unsafe integers as `NumberLiteral` (request bodies). */
  literals: boolean;
}

/** Converts a YAML node into plain values (objects, arrays, strings, numbers, booleans, null). */
export function nodeToValue(node: unknown, doc: Document, opts: ValueOptions): unknown {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return nodeToValue(node.resolve(doc), doc, opts);
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? scalarText(pair.key) : String(pair.key);
      out[key] = nodeToValue(pair.value, doc, opts);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((n) => nodeToValue(n, doc, opts));
  if (isScalar(node)) {
    const v = node.value;
    if (typeof v === 'number' && opts.literals) {
      const src = node.source ?? String(v);
      const isFloat = /[.eEnN]/.test(src) || !Number.isInteger(v);
      if (isFloat) return new NumberLiteral(Number.isFinite(v) ? src : String(v), true);
      if (!Number.isSafeInteger(v)) return new NumberLiteral(src, false);
    }
    if (typeof v === 'bigint') return new NumberLiteral(v.toString(), false);
    return v === undefined ? null : v;
  }
  return null;
}

/** Jackson's `parser.text()` of a scalar: the string, or the literal text of a number/boolean. */
export function scalarText(node: unknown): string {
  if (!isScalar(node)) return String(node);
  const v = node.value;
  if (typeof v === 'string') return v;
  if (v === null) return node.source ?? 'null';
  return node.source ?? String(v);
}

/** 1-based line of a node, for failure messages. */
export function lineOf(node: Node | null | undefined, lc: LineCounter): number {
  const off = node?.range?.[0];
  return off === undefined ? 0 : lc.linePos(off).line;
}
