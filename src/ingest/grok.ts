/**
 * Grok: `%{PATTERN:field:type}` expressions expanded through a pattern bank into one JS regex
 * with named captures. The bank is ES 6.8's published pattern set (grok-patterns/patterns.txt).
 * Oniguruma syntax the bank uses and JS lacks (atomic groups, `\A`, `\Z`) is translated.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { illegalArgument } from '../common/errors.js';

let builtin: Readonly<Record<string, string>> | null = null;

/** The built-in pattern bank, loaded once (a later file's definition wins, as in ES). */
export function builtinPatterns(): Readonly<Record<string, string>> {
  if (builtin) return builtin;
  // beside this module under src/, or (compiled into dist/src/ingest/) in the source tree
  const here = new URL('./grok-patterns/patterns.txt', import.meta.url);
  const fromDist = new URL('../../../src/ingest/grok-patterns/patterns.txt', import.meta.url);
  const path = existsSync(fileURLToPath(here)) ? here : fromDist;
  const text = readFileSync(fileURLToPath(path), 'utf8');
  builtin = parsePatternBank(text);
  return builtin;
}

/** Lines of `NAME definition`; `#` comments and blank lines skipped. */
export function parsePatternBank(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s+/, '');
    if (line.startsWith('#') || line.length === 0) continue;
    const sp = line.search(/\s/);
    if (sp < 0) continue;
    out[line.slice(0, sp)] = line.slice(sp).replace(/^\s+/, '');
  }
  return out;
}

export type GrokType = 'string' | 'int' | 'long' | 'float' | 'double' | 'boolean';

interface Capture {
  readonly field: string;
  readonly type: GrokType;
}

export interface Grok {
  readonly regex: RegExp;
  /** Group name (g0, g1, ...) to the field it fills. */
  readonly captures: ReadonlyMap<string, Capture>;
  /** Group names of the alternatives, when several patterns are combined. */
  readonly alternatives: readonly string[];
}

const REF = /%\{(\w+)(?::([\w@\[\].-]+))?(?::(\w+))?(?:=((?:[^{}]|\{[^}]*\})*))?\}/;

function forbidCircular(
  bank: Record<string, string>,
  name: string,
  path: string[],
  pattern: string | undefined,
): void {
  if (pattern === undefined) return;
  if (pattern.includes(`%{${name}}`) || pattern.includes(`%{${name}:`)) {
    let msg: string;
    if (path.length === 0) msg = `circular reference in pattern [${name}][${pattern}]`;
    else {
      const last = path.pop()!;
      msg = `circular reference in pattern [${last}][${pattern}] back to pattern [${name}]`;
      if (path.length > 0) msg += ` via patterns [${path.join('=>')}]`;
    }
    throw illegalArgument(msg);
  }
  for (let i = pattern.indexOf('%{'); i !== -1; i = pattern.indexOf('%{', i + 1)) {
    const m = /^(\w+)/.exec(pattern.slice(i + 2));
    if (!m) continue;
    if (path.includes(m[1]!)) continue;
    forbidCircular(bank, name, [...path, m[1]!], bank[m[1]!]);
  }
}

/** Oniguruma constructs the bank uses, in JS terms. */
function toJsRegex(src: string): string {
  return (
    src
      .replace(/\(\?>/g, '(?:')
      .replace(/\\A/g, '^')
      .replace(/\\[Zz]/g, '$')
      // Oniguruma accepts a repeated optional (`.?*`); JS wants one quantifier
      .replace(/([^\\(])\?\*/g, '$1*')
  );
}

/**
 * Compiles grok patterns (several are tried in order, as ES's combined alternation); errors are
 * ES's IllegalArgumentExceptions.
 */
export function compileGrok(patterns: readonly string[], bank: Record<string, string>): Grok {
  for (const [name, p] of Object.entries(bank)) forbidCircular(bank, name, [], p);
  const captures = new Map<string, Capture>();
  let n = 0;
  const expand = (text: string, depth: number): string => {
    if (depth > 500) throw illegalArgument('grok pattern nesting too deep');
    let out = '';
    let rest = text;
    for (let m = REF.exec(rest); m; m = REF.exec(rest)) {
      out += rest.slice(0, m.index);
      const [, name, field, type] = m;
      const def = bank[name!];
      if (def === undefined)
        throw illegalArgument(`Unable to find pattern [${name}] in Grok's pattern dictionary`);
      if (def.includes(`%{${name}}`) || def.includes(`%{${name}:`))
        throw illegalArgument(`circular reference in pattern back [${name}]`);
      const inner = expand(def, depth + 1);
      if (field !== undefined) {
        const g = `g${n++}`;
        const t = (['int', 'long', 'float', 'double', 'boolean'].includes(type ?? '') ? type : 'string') as GrokType; // prettier-ignore
        captures.set(g, { field, type: t });
        out += `(?<${g}>${inner})`;
      } else out += `(?:${inner})`;
      rest = rest.slice(m.index + m[0].length);
    }
    return out + rest;
  };
  const alternatives: string[] = [];
  let source: string;
  if (patterns.length === 1) source = expand(patterns[0]!, 0);
  else {
    source = patterns
      .map((p, i) => {
        const g = `a${i}`;
        alternatives.push(g);
        return `(?<${g}>${expand(p, 0)})`;
      })
      .join('|');
  }
  // user patterns may name groups themselves, with names JS rejects (`(?<a.b>...)`)
  source = source.replace(/\(\?<([^>=!]+)>/g, (all, name: string) => {
    if (/^[ga]\d+$/.test(name) && (captures.has(name) || alternatives.includes(name))) return all;
    const g = `g${n++}`;
    captures.set(g, { field: name, type: 'string' });
    return `(?<${g}>`;
  });
  // inline option groups apply to the whole expression here (Oniguruma's `m` is JS's `s`)
  let flags = '';
  source = source.replace(/\(\?([imx]+)\)/g, (_, f: string) => {
    if (f.includes('i') && !flags.includes('i')) flags += 'i';
    if (f.includes('m') && !flags.includes('s')) flags += 's';
    return '';
  });
  let regex: RegExp;
  try {
    regex = new RegExp(toJsRegex(source), 'u' + flags);
  } catch {
    try {
      regex = new RegExp(toJsRegex(source), flags);
    } catch (e) {
      throw illegalArgument(onigurumaMessage((e as Error).message));
    }
  }
  return { regex, captures, alternatives };
}

/** V8's regex syntax errors as Oniguruma (joni, ES's grok engine) words them. */
const ONIGURUMA: ReadonlyArray<readonly [RegExp, string]> = [
  [/Unterminated group$/, 'end pattern with unmatched parenthesis'],
  [/Unmatched '\)'$/, 'unmatched close parenthesis'],
  [/Nothing to repeat$/, 'target of repeat operator is not specified'],
  [/Unterminated character class$/, 'premature end of char-class'],
  [/\\ at end of pattern$/, 'end pattern at escape'],
  [/Invalid group$/, 'undefined group option'],
  [/numbers out of order in \{\} quantifier$/, 'upper is smaller than lower in repeat range'],
  [/Range out of order in character class$/, 'empty range in char class'],
];

function onigurumaMessage(v8: string): string {
  for (const [re, msg] of ONIGURUMA) if (re.test(v8)) return msg;
  return v8;
}

function convert(v: string, type: GrokType): unknown {
  switch (type) {
    case 'int':
    case 'long': {
      const n = Number(v);
      if (!/^[+-]?\d+$/.test(v)) throw illegalArgument(`For input string: "${v}"`);
      return n;
    }
    case 'float':
      return Number(v);
    case 'double':
      return Number(v);
    case 'boolean':
      return v.toLowerCase() === 'true';
    default:
      return v;
  }
}

export interface GrokMatch {
  readonly fields: Record<string, unknown>;
  /** Index of the pattern that matched. */
  readonly patternIndex: number;
}

/** Grok.captures: the captured fields, or null when nothing matches. */
export function grokMatch(g: Grok, text: string): GrokMatch | null {
  const m = g.regex.exec(text);
  if (!m) return null;
  const fields: Record<string, unknown> = {};
  for (const [group, cap] of g.captures) {
    const v = m.groups?.[group];
    // the first participating group of a name wins
    if (v === undefined || cap.field in fields) continue;
    fields[cap.field] = convert(v, cap.type);
  }
  let patternIndex = 0;
  g.alternatives.forEach((a, i) => {
    if (m.groups?.[a] !== undefined && patternIndex === 0) patternIndex = i;
  });
  return { fields, patternIndex };
}
