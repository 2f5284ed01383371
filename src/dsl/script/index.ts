/**
 * The script language of Quarry: a Painless subset, compiled once into closures and evaluated
 * many times (bucket_script/bucket_selector, value scripts in aggregations, script queries,
 * update scripts, SQL's InternalSqlScriptUtils call chains). Also parses ES script objects
 * (`"src"` or `{source|inline|id, lang, params}`) with ES 6.8's errors.
 */
import { EsError, illegalArgument, parsingException } from '../../common/errors.js';
import { compileProgram, type CompiledProgram, type ScriptVars } from './compile.js';
import { compileErrorToEs, runtimeErrorToEs, ScriptCompileError } from './errors.js';
import { storedScript } from './stored.js';
import { parseScript } from './parser.js';
// Scripted analysis filters (condition, predicate_token_filter) compile through this engine.
import './analysis-predicates.js';

export type { ScriptVars } from './compile.js';
export type { ScriptDocLookup, ScriptDocValues, ColumnResolver } from './doc-values.js';
export { SegmentDocLookup, ScriptDate } from './doc-values.js';
export { javaDoubleToString, javaFloatToString } from './java-number.js';

export type ScriptMethods = Record<string, (...args: unknown[]) => unknown>;

export interface ScriptCompileOptions {
  lang?: string;
  params?: Record<string, unknown>;
  /** Functions callable as `Namespace.name(...)` (key "Namespace.name") or `name(...)`. */
  methods?: ScriptMethods;
  /** Extra variable names the caller passes to evaluate() (beyond params, doc, _score, ...). */
  variables?: readonly string[];
}

export interface CompiledScript {
  readonly source: string;
  readonly lang: string;
  readonly params: Record<string, unknown>;
  /** True when the script reads `_score` (callers then compute scores). */
  readonly needsScore: boolean;
  readonly usesDoc: boolean;
  /** Runs the script; `vars.params` (if given) replaces the compiled params. */
  evaluate(vars?: ScriptVars): unknown;
}

const cache = new Map<string, CompiledProgram>();
const cacheByMethods = new WeakMap<ScriptMethods, Map<string, CompiledProgram>>();

/**
 * Compiles `source`; syntax and name errors become ES's `script_exception` ("compile error").
 * Only `painless` (the default) and `expression` (same subset) are accepted.
 */
export function compileScript(source: string, opts: ScriptCompileOptions = {}): CompiledScript {
  const lang = opts.lang ?? 'painless';
  if (lang !== 'painless' && lang !== 'expression') {
    throw illegalArgument(`script_lang not supported [${lang}]`);
  }
  const params = opts.params ?? {};
  const methods = opts.methods ?? {};
  const variables = new Set(opts.variables ?? []);
  // Programs do not capture params (they are read per evaluation), so they can be shared: per
  // methods object (SQL's scripts call the same node-wide methods on every request) and
  // variable names.
  const key = `${lang}\u0000${[...variables].join(',')}\u0000${source}`;
  let programs = cache;
  if (opts.methods) {
    programs = cacheByMethods.get(opts.methods) ?? new Map<string, CompiledProgram>();
    cacheByMethods.set(opts.methods, programs);
  }
  let prog = programs.get(key);
  if (!prog) {
    try {
      const ast = parseScript(source);
      prog = compileProgram(ast.body, { variables, methods, params: {} }, ast.functions);
    } catch (e) {
      if (e instanceof ScriptCompileError) throw compileErrorToEs(e, source, lang);
      throw e;
    }
    if (programs.size > 1000) programs.clear();
    programs.set(key, prog);
  }
  const program = prog;
  return {
    source,
    lang,
    params,
    needsScore: program.usesScore,
    usesDoc: program.usesDoc,
    evaluate(vars?: ScriptVars): unknown {
      const v = vars ?? {};
      if (v.params === undefined) v.params = params;
      try {
        return program.run(v);
      } catch (e) {
        throw runtimeErrorToEs(e, source, lang);
      }
    },
  };
}

/** A script as written in a request: `"src"` or `{source|inline|id, lang, params, options}`. */
export interface ScriptSpec {
  source: string;
  lang: string;
  params: Record<string, unknown>;
}

/**
 * ES Script.parse: the string form, or the object form with ES's field errors. A stored script
 * (`id`) resolves to the lang and source stored under it (stored.ts).
 */
export function parseScriptSpec(json: unknown, where = 'script'): ScriptSpec {
  if (typeof json === 'string') return { source: json, lang: 'painless', params: {} };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw parsingException(`[${where}] value must be a string or an object`);
  }
  let source: string | null = null;
  let id: string | null = null;
  let lang: string | null = null;
  let params: Record<string, unknown> = {};
  let options = 0;
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    switch (k) {
      case 'source':
      case 'inline':
      case 'file':
      case 'id':
        if (typeof v !== 'string') throw parsingException(`Value must be of type String: [${k}]`);
        if (source !== null || id !== null)
          throw illegalArgument('must only use one of [source, id] when specifying a script');
        if (k === 'id') id = v;
        else source = v;
        break;
      case 'lang':
        if (typeof v !== 'string') throw parsingException(`Value must be of type String: [lang]`);
        lang = v;
        break;
      case 'params':
        if (v === null || typeof v !== 'object' || Array.isArray(v)) {
          throw parsingException(`Value must be of type Object: [params]`);
        }
        params = v as Record<string, unknown>;
        break;
      case 'options':
        if (v && typeof v === 'object') options = Object.keys(v).length;
        break;
      default:
        throw parsingException(`[script] unknown field [${k}], parser not found`);
    }
  }
  if (id !== null) {
    if (lang !== null) throw illegalArgument('illegally specified <lang> for a stored script');
    if (options > 0)
      throw illegalArgument('field [options] cannot be specified using a stored script');
    const stored = storedScript(id);
    return { source: stored.source, lang: stored.lang, params };
  }
  if (source === null)
    throw illegalArgument(
      'must specify either [source] for an inline script or [id] for a stored script',
    );
  return { source, lang: lang ?? 'painless', params };
}
