/**
 * Compiles a parsed script to a tree of closures, once; evaluation then only calls closures.
 * Static types follow Java where the source makes them known (literals, casts, typed locals):
 * `5 / 2` is 2 and `(double) 5 / 2` is 2.5, while `def` values (params, doc values, method
 * results) use double arithmetic. Local variables live in a slot array resolved at compile time;
 * names that are not locals resolve to the script's variables (`params`, `doc`, `_score`, ...),
 * static members (Math.*, Integer.*, MovingFunctions.*) or caller-provided methods.
 */
import type { Expr, FunctionDecl, NumType, Param, Stmt } from './ast.js';
import { MATH_INT_PRESERVING, STATIC_FIELDS, STATIC_METHODS, type StaticFn } from './builtins.js';
import { JavaException, nullPointer, ScriptCompileError, ScriptRuntimeError } from './errors.js';
import { toJavaInt, toJavaLong } from './java-number.js';
import {
  add,
  arith,
  bitwise,
  callMethod,
  compare,
  equalsDef,
  getField,
  getIndex,
  instanceOf,
  intArith,
  javaString,
  setField,
  setIndex,
  StringBuilder,
  toBool,
  toNum,
} from './runtime.js';

export type ScriptVars = Record<string, unknown>;

export interface Env {
  vars: ScriptVars;
  locals: unknown[];
  ret: unknown;
  /** Loop statements left before the script is stopped (Painless's loop counter). */
  loops: number;
}

/**
 * Painless CompilerSettings.maxLoopCounter: one run of a script may execute this many statements
 * inside loops. Every iteration spends the number of statements of the loop's body (at least
 * one); reaching zero throws a PainlessError, so a script can never hold the event loop.
 */
export const MAX_LOOP_COUNTER = 1_000_000;
const LOOP_LIMIT =
  'The maximum number of statements that can be executed in a loop has been reached.';

function spendLoop(e: Env, statements: number): void {
  if ((e.loops -= statements) <= 0) throw new ScriptRuntimeError('painless_error', LOOP_LIMIT);
}

/** The statement count of a loop body (Painless SBlock.statementCount, at least one). */
const bodyStatements = (s: Stmt | null): number =>
  s !== null && s.kind === 'Block' ? Math.max(1, s.body.length) : 1;

type Fn = (e: Env) => unknown;
type SType = NumType | 'boolean' | 'String' | 'def';
interface CExpr {
  fn: Fn;
  type: SType;
}

const NORMAL = 0;
const RETURN = 1;
const BREAK = 2;
const CONTINUE = 3;
type Exec = (e: Env) => number;

export interface CompileOptions {
  /** Script variables besides locals (`params`, `doc`, `_score`, ... are always known). */
  variables: ReadonlySet<string>;
  /** Caller functions by `Namespace.method` or bare `method` name. */
  methods: Record<string, (...args: unknown[]) => unknown>;
  params: Record<string, unknown>;
}

export interface CompiledProgram {
  run(vars: ScriptVars): unknown;
  readonly usesScore: boolean;
  readonly usesDoc: boolean;
}

const isNum = (t: SType): t is NumType =>
  t === 'int' || t === 'long' || t === 'float' || t === 'double';

function promote(a: SType, b: SType): NumType | null {
  if (!isNum(a) || !isNum(b)) return null;
  if (a === 'double' || b === 'double') return 'double';
  if (a === 'float' || b === 'float') return 'float';
  if (a === 'long' || b === 'long') return 'long';
  return 'int';
}

function declType(t: string): SType {
  switch (t) {
    case 'int':
    case 'short':
    case 'byte':
    case 'char':
      return 'int';
    case 'long':
      return 'long';
    case 'float':
      return 'float';
    case 'double':
      return 'double';
    case 'boolean':
      return 'boolean';
    case 'String':
      return 'String';
    default:
      return 'def';
  }
}

function defaultValue(t: SType): unknown {
  return isNum(t) ? 0 : t === 'boolean' ? false : null;
}

/** Converts a value to a declared static type (Java assignment conversion/cast). */
function coerce(t: SType, v: unknown): unknown {
  switch (t) {
    case 'int':
      return typeof v === 'number' ? toJavaInt(v) : v === null ? nullish() : toJavaInt(toNum(v));
    case 'long':
      return typeof v === 'number' ? toJavaLong(v) : v === null ? nullish() : toJavaLong(toNum(v));
    case 'float':
      return Math.fround(toNum(v));
    case 'double':
      return toNum(v);
    default:
      return v;
  }
}
function nullish(): never {
  throw nullPointer();
}

class Scope {
  private readonly names = new Map<string, { slot: number; type: SType }>();
  constructor(readonly parent: Scope | null) {}
  lookup(name: string): { slot: number; type: SType } | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }
  declare(name: string, slot: number, type: SType): void {
    this.names.set(name, { slot, type });
  }
  hasOwn(name: string): boolean {
    return this.names.has(name);
  }
}

const ALWAYS_VARS = new Set([
  'params',
  'doc',
  '_score',
  '_value',
  'ctx',
  '_source',
  '_agg',
  '_aggs',
  'state',
  'states',
  'values',
  '_index',
  '_id',
]);

export function compileProgram(
  body: Stmt[],
  opts: CompileOptions,
  functions: readonly FunctionDecl[] = [],
): CompiledProgram {
  const c = new Compiler(opts);
  c.declareFunctions(functions);
  const exec = c.block(body, new Scope(null), true);
  const slots = () => c.slotCount;
  let busy = false;
  const shared: Env = { vars: {}, locals: [], ret: null, loops: MAX_LOOP_COUNTER };
  return {
    usesScore: c.usesScore,
    usesDoc: c.usesDoc,
    run(vars: ScriptVars): unknown {
      // One env reused across evaluations (scripts do not recurse); re-entrant calls allocate.
      const env: Env = busy
        ? { vars, locals: new Array(slots()), ret: null, loops: MAX_LOOP_COUNTER }
        : shared;
      env.vars = vars;
      env.ret = null;
      env.loops = MAX_LOOP_COUNTER;
      if (env.locals.length < slots()) env.locals = new Array(slots());
      const wasBusy = busy;
      busy = true;
      try {
        exec(env);
        return env.ret;
      } finally {
        busy = wasBusy;
      }
    },
  };
}

/** A compiled function or lambda body: runs over its own local slots of the caller's env. */
type FrameCall = (e: Env, args: readonly unknown[]) => unknown;

class Compiler {
  slotCount = 0;
  usesScore = false;
  usesDoc = false;
  /** The script's functions by `name/arity`; `call` is set once every body is compiled. */
  private readonly userFns = new Map<string, { returnType: SType; call: FrameCall | null }>();
  constructor(private readonly opts: CompileOptions) {}

  declareFunctions(fns: readonly FunctionDecl[]): void {
    for (const f of fns) {
      const key = `${f.name}/${f.params.length}`;
      if (this.userFns.has(key)) throw this.err(`Illegal duplicate functions [${key}].`, f.pos);
      this.userFns.set(key, { returnType: declType(f.returnType), call: null });
    }
    // Bodies after every signature is known, so functions may call each other (and themselves).
    for (const f of fns) {
      const entry = this.userFns.get(`${f.name}/${f.params.length}`)!;
      entry.call = this.frame(f.params, f.body, new Scope(null), entry.returnType);
    }
  }

  /**
   * A function or lambda body over slots of its own. A call saves and restores those slots and
   * the pending return value, so recursion and calls from inside expressions are safe; a lambda's
   * scope is its definition's, so it reads the enclosing locals.
   */
  private frame(
    params: readonly Param[],
    body: Stmt[],
    scope: Scope,
    returnType: SType,
  ): FrameCall {
    const start = this.slotCount;
    const slots = params.map((p) => {
      const slot = this.slotCount++;
      const type = declType(p.type);
      scope.declare(p.name, slot, type);
      return { slot, type };
    });
    const exec = this.block(body, scope, false);
    const end = this.slotCount;
    return (e, args) => {
      const saved = e.locals.slice(start, end);
      const savedRet = e.ret;
      try {
        for (let i = 0; i < slots.length; i++) {
          const p = slots[i]!;
          e.locals[p.slot] = p.type === 'def' ? args[i] : coerce(p.type, args[i]);
        }
        e.ret = null;
        exec(e);
        const r = e.ret;
        return returnType === 'def' ? r : coerce(returnType, r);
      } finally {
        for (let i = start; i < end; i++) e.locals[i] = saved[i - start];
        e.ret = savedRet;
      }
    };
  }

  private err(msg: string, pos: number): ScriptCompileError {
    return new ScriptCompileError(msg, pos);
  }

  // ---- statements -----------------------------------------------------------------------------

  /**
   * Painless SWhile/SDo/SFor analysis of a constant condition: a loop that never runs is
   * extraneous, a constant-true loop without a body has no escape (an empty do-while body is
   * extraneous whatever its condition).
   */
  private checkLoop(loop: string, test: Expr, body: Stmt | null, pos: number): void {
    const empty = body === null || (body.kind === 'Block' && body.body.length === 0);
    const extraneous = `Extraneous ${loop} loop.`;
    if (loop === 'do while' && empty) throw this.err(extraneous, pos);
    if (test.kind !== 'Bool') return;
    if (!test.value) throw this.err(extraneous, pos);
    if (empty && loop !== 'do while')
      throw this.err(`${loop[0]!.toUpperCase()}${loop.slice(1)} loop has no escape.`, pos);
  }

  block(stmts: Stmt[], scope: Scope, last: boolean): Exec {
    const execs = stmts.map((s, i) => this.stmt(s, scope, last && i === stmts.length - 1));
    if (execs.length === 1) return execs[0]!;
    return (e) => {
      for (let i = 0; i < execs.length; i++) {
        const r = execs[i]!(e);
        if (r !== NORMAL) return r;
      }
      return NORMAL;
    };
  }

  private stmt(s: Stmt, scope: Scope, last: boolean): Exec {
    switch (s.kind) {
      case 'ExprStmt': {
        const x = this.expr(s.expr, scope);
        const fn = x.fn;
        if (last) {
          return (e) => {
            e.ret = fn(e);
            return RETURN;
          };
        }
        return (e) => {
          fn(e);
          return NORMAL;
        };
      }
      case 'Return': {
        if (!s.expr) return () => RETURN;
        const fn = this.expr(s.expr, scope).fn;
        return (e) => {
          e.ret = fn(e);
          return RETURN;
        };
      }
      case 'Decl': {
        const type = declType(s.type);
        const inits: Exec[] = [];
        for (const v of s.vars) {
          if (scope.lookup(v.name)) {
            throw this.err(`variable [${v.name}] is already defined`, v.pos);
          }
          const init = v.init ? this.expr(v.init, scope) : null;
          const slot = this.slotCount++;
          scope.declare(v.name, slot, type);
          if (!init) {
            const d = defaultValue(type);
            inits.push((e) => {
              e.locals[slot] = d;
              return NORMAL;
            });
          } else {
            const f = init.fn;
            const conv = type !== 'def' && type !== init.type;
            inits.push(
              conv
                ? (e) => {
                    e.locals[slot] = coerce(type, f(e));
                    return NORMAL;
                  }
                : (e) => {
                    e.locals[slot] = f(e);
                    return NORMAL;
                  },
            );
          }
        }
        return inits.length === 1
          ? inits[0]!
          : (e) => {
              for (const i of inits) i(e);
              return NORMAL;
            };
      }
      case 'Block':
        return this.block(s.body, new Scope(scope), last);
      case 'If': {
        const test = this.cond(s.test, scope);
        const then = this.stmt(s.then, new Scope(scope), last);
        const other = s.otherwise ? this.stmt(s.otherwise, new Scope(scope), last) : null;
        return (e) => (test(e) ? then(e) : other ? other(e) : NORMAL);
      }
      case 'While': {
        this.checkLoop('while', s.test, s.body, s.pos);
        const test = this.cond(s.test, scope);
        const body = s.body ? this.stmt(s.body, new Scope(scope), false) : () => NORMAL;
        const n = bodyStatements(s.body);
        return (e) => {
          while (test(e)) {
            spendLoop(e, n);
            const r = body(e);
            if (r === BREAK) break;
            if (r === RETURN) return r;
          }
          return NORMAL;
        };
      }
      case 'DoWhile': {
        this.checkLoop('do while', s.test, s.body, s.pos);
        const test = this.cond(s.test, scope);
        const body = this.stmt(s.body, new Scope(scope), false);
        const n = bodyStatements(s.body);
        return (e) => {
          do {
            spendLoop(e, n);
            const r = body(e);
            if (r === BREAK) break;
            if (r === RETURN) return r;
          } while (test(e));
          return NORMAL;
        };
      }
      case 'For': {
        if (s.test) this.checkLoop('for', s.test, s.body, s.pos);
        const inner = new Scope(scope);
        const init = s.init ? this.stmt(s.init, inner, false) : null;
        const test = s.test ? this.cond(s.test, inner) : () => true;
        const update = s.update ? this.expr(s.update, inner).fn : null;
        const body = s.body ? this.stmt(s.body, new Scope(inner), false) : () => NORMAL;
        const n = bodyStatements(s.body);
        return (e) => {
          if (init) init(e);
          for (; test(e); update?.(e)) {
            spendLoop(e, n);
            const r = body(e);
            if (r === BREAK) break;
            if (r === RETURN) return r;
          }
          return NORMAL;
        };
      }
      case 'ForEach': {
        const iter = this.expr(s.iterable, scope).fn;
        const inner = new Scope(scope);
        const slot = this.slotCount++;
        const type = declType(s.type);
        inner.declare(s.name, slot, type);
        const body = this.stmt(s.body, new Scope(inner), false);
        const n = bodyStatements(s.body);
        return (e) => {
          const coll = iter(e);
          if (coll === null || coll === undefined) throw nullPointer();
          const items: Iterable<unknown> =
            Array.isArray(coll) ||
            typeof (coll as Iterable<unknown>)[Symbol.iterator] === 'function'
              ? (coll as Iterable<unknown>)
              : Object.keys(coll as object);
          for (const it of items) {
            spendLoop(e, n);
            e.locals[slot] = type === 'def' ? it : coerce(type, it);
            const r = body(e);
            if (r === BREAK) break;
            if (r === RETURN) return r;
          }
          return NORMAL;
        };
      }
      case 'Break':
        return () => BREAK;
      case 'Continue':
        return () => CONTINUE;
      case 'Throw': {
        const fn = this.expr(s.expr, scope).fn;
        return (e) => {
          const v = fn(e);
          if (v instanceof JavaException) throw new ScriptRuntimeError(v.esType, v.message);
          throw new ScriptRuntimeError('exception', javaString(v));
        };
      }
    }
  }

  private cond(x: Expr, scope: Scope): (e: Env) => boolean {
    const c = this.expr(x, scope);
    const fn = c.fn;
    if (c.type === 'boolean') return fn as (e: Env) => boolean;
    return (e) => toBool(fn(e));
  }

  // ---- expressions ----------------------------------------------------------------------------

  expr(x: Expr, scope: Scope): CExpr {
    switch (x.kind) {
      case 'Num': {
        const v = x.value;
        return { fn: () => v, type: x.numType };
      }
      case 'Str': {
        const v = x.value;
        return { fn: () => v, type: 'String' };
      }
      case 'Bool': {
        const v = x.value;
        return { fn: () => v, type: 'boolean' };
      }
      case 'Null':
        return { fn: () => null, type: 'def' };
      case 'Var':
        return this.variable(x.name, x.pos, scope);
      case 'Unary':
        return this.unary(x, scope);
      case 'Binary':
        return this.binary(x.op, this.expr(x.left, scope), this.expr(x.right, scope));
      case 'Logical': {
        const l = this.cond(x.left, scope);
        const r = this.cond(x.right, scope);
        return x.op === '&&'
          ? { fn: (e) => l(e) && r(e), type: 'boolean' }
          : { fn: (e) => l(e) || r(e), type: 'boolean' };
      }
      case 'Cond': {
        const t = this.cond(x.test, scope);
        const a = this.expr(x.then, scope);
        const b = this.expr(x.otherwise, scope);
        const type = a.type === b.type ? a.type : (promote(a.type, b.type) ?? 'def');
        const af = a.fn;
        const bf = b.fn;
        return { fn: (e) => (t(e) ? af(e) : bf(e)), type };
      }
      case 'Elvis': {
        const a = this.expr(x.left, scope).fn;
        const b = this.expr(x.right, scope).fn;
        return {
          fn: (e) => {
            const v = a(e);
            return v === null || v === undefined ? b(e) : v;
          },
          type: 'def',
        };
      }
      case 'Assign':
        return this.assign(x, scope);
      case 'IncDec':
        return this.incDec(x, scope);
      case 'Field':
        return this.field(x, scope);
      case 'Index': {
        const o = this.expr(x.object, scope).fn;
        const i = this.expr(x.index, scope).fn;
        return { fn: (e) => getIndex(o(e), i(e)), type: 'def' };
      }
      case 'Call':
        return this.call(x, scope);
      case 'LocalCall': {
        const user = this.userFns.get(`${x.name}/${x.args.length}`);
        if (user) {
          const args = x.args.map((a) => this.expr(a, scope).fn);
          return {
            fn: (e) =>
              user.call!(
                e,
                args.map((a) => a(e)),
              ),
            type: user.returnType,
          };
        }
        const f = this.opts.methods[x.name];
        if (!f)
          throw this.err(`Unknown call [${x.name}] with [${x.args.length}] arguments.`, x.pos);
        return this.callStatic(f, x.args, scope, 'def');
      }
      case 'Cast': {
        const inner = this.expr(x.operand, scope);
        const t = declType(x.type);
        const f = inner.fn;
        if (t === 'def' || t === inner.type) return { fn: f, type: t === 'def' ? inner.type : t };
        if (t === 'String') {
          return {
            fn: (e) => {
              const v = f(e);
              if (v !== null && typeof v !== 'string') {
                throw new ScriptRuntimeError(
                  'class_cast_exception',
                  `Cannot cast to java.lang.String`,
                );
              }
              return v;
            },
            type: 'String',
          };
        }
        if (t === 'boolean') return { fn: (e) => toBool(f(e)), type: 'boolean' };
        return { fn: (e) => coerce(t, f(e)), type: t };
      }
      case 'Instanceof': {
        const f = this.expr(x.operand, scope).fn;
        const t = x.type;
        return { fn: (e) => instanceOf(f(e), t), type: 'boolean' };
      }
      case 'ListInit': {
        const items = x.items.map((i) => this.expr(i, scope).fn);
        return { fn: (e) => items.map((f) => f(e)), type: 'def' };
      }
      case 'MapInit': {
        const entries = x.entries.map(
          ([k, v]) => [this.expr(k, scope).fn, this.expr(v, scope).fn] as const,
        );
        return {
          fn: (e) => {
            const m: Record<string, unknown> = {};
            for (const [k, v] of entries) m[String(k(e))] = v(e);
            return m;
          },
          type: 'def',
        };
      }
      case 'Lambda': {
        const call = this.frame(x.params, x.body, new Scope(scope), 'def');
        // A functional interface value: any of its (single abstract) methods runs the body.
        return {
          fn:
            (e) =>
            (...args: unknown[]) =>
              call(e, args),
          type: 'def',
        };
      }
      case 'New': {
        if (x.args.length > 1)
          throw this.err(
            `Unknown new call on type [${x.type}] with [${x.args.length}] arguments.`,
            x.pos,
          );
        switch (x.type) {
          case 'ArrayList':
          case 'LinkedList':
          case 'HashSet':
            if (x.args.length === 1) {
              const a = this.expr(x.args[0]!, scope).fn;
              return {
                fn: (e) => {
                  const v = a(e);
                  return Array.isArray(v) ? [...v] : [];
                },
                type: 'def',
              };
            }
            return { fn: () => [], type: 'def' };
          case 'HashMap':
          case 'TreeMap':
          case 'LinkedHashMap':
            return { fn: () => ({}), type: 'def' };
          case 'StringBuilder': {
            const init = x.args.length === 1 ? this.expr(x.args[0]!, scope).fn : null;
            return { fn: (e) => new StringBuilder(init ? init(e) : undefined), type: 'def' };
          }
        }
        if (JavaException.known(x.type)) {
          const type = x.type;
          const msg = x.args.length === 1 ? this.expr(x.args[0]!, scope).fn : null;
          return {
            fn: (e) => {
              const m = msg ? msg(e) : null;
              return new JavaException(type, m === null || m === undefined ? null : javaString(m));
            },
            type: 'def',
          };
        }
        throw this.err(`Not a type [${x.type}].`, x.pos);
      }
      case 'NewArray': {
        const t = declType(x.type);
        if (x.items) {
          const items = x.items.map((i) => this.expr(i, scope).fn);
          return { fn: (e) => items.map((f) => coerce(t, f(e))), type: 'def' };
        }
        const size = this.expr(x.size!, scope).fn;
        const d = defaultValue(t);
        return { fn: (e) => new Array(toNum(size(e))).fill(d), type: 'def' };
      }
    }
  }

  private variable(name: string, pos: number, scope: Scope): CExpr {
    const local = scope.lookup(name);
    if (local) {
      const slot = local.slot;
      return { fn: (e) => e.locals[slot], type: local.type };
    }
    if (name === 'params') {
      const dflt = this.opts.params;
      return { fn: (e) => e.vars.params ?? dflt, type: 'def' };
    }
    if (name === '_score') this.usesScore = true;
    if (name === 'doc') this.usesDoc = true;
    if (ALWAYS_VARS.has(name) || this.opts.variables.has(name)) {
      return { fn: (e) => e.vars[name] ?? null, type: name === '_score' ? 'double' : 'def' };
    }
    throw this.err(`Variable [${name}] is not defined.`, pos);
  }

  private isNamespace(x: Expr, scope: Scope): x is Extract<Expr, { kind: 'Var' }> {
    return (
      x.kind === 'Var' &&
      !scope.lookup(x.name) &&
      x.name !== 'params' &&
      !ALWAYS_VARS.has(x.name) &&
      !this.opts.variables.has(x.name)
    );
  }

  private field(x: Extract<Expr, { kind: 'Field' }>, scope: Scope): CExpr {
    if (this.isNamespace(x.object, scope)) {
      const fields = STATIC_FIELDS[x.object.name];
      if (fields && x.name in fields) {
        const v = fields[x.name];
        const type: SType =
          x.object.name === 'Integer' ? 'int' : x.object.name === 'Long' ? 'long' : 'double';
        return { fn: () => v, type };
      }
      throw this.err(`Variable [${x.object.name}] is not defined.`, x.object.pos);
    }
    const o = this.expr(x.object, scope).fn;
    const name = x.name;
    if (x.nullSafe) {
      return {
        fn: (e) => {
          const t = o(e);
          return t === null || t === undefined ? null : getField(t, name);
        },
        type: 'def',
      };
    }
    return { fn: (e) => getField(o(e), name), type: 'def' };
  }

  private call(x: Extract<Expr, { kind: 'Call' }>, scope: Scope): CExpr {
    if (this.isNamespace(x.object, scope)) {
      const ns = x.object.name;
      const user =
        this.opts.methods[`${ns}.${x.name}`] ??
        (STATIC_METHODS[ns] ? undefined : this.opts.methods[x.name]);
      if (user) return this.callStatic(user, x.args, scope, 'def');
      const builtin = STATIC_METHODS[ns]?.[x.name];
      if (builtin) {
        const args = x.args.map((a) => this.expr(a, scope));
        let type: SType = 'double';
        if (ns === 'Math' && MATH_INT_PRESERVING.has(x.name)) {
          const p = args.reduce<NumType | null>(
            (acc, a) => (acc === null ? null : promote(acc, a.type)),
            'int',
          );
          type = x.name === 'round' ? 'long' : (p ?? 'double');
          if (p === null) type = x.name === 'round' ? 'long' : 'def';
        } else if (ns !== 'Math' && ns !== 'MovingFunctions') type = 'def';
        return this.callStatic(builtin, x.args, scope, type, args);
      }
      if (STATIC_METHODS[ns]) {
        throw this.err(
          `Unknown call [${x.name}] with [${x.args.length}] arguments on type [${ns}].`,
          x.pos,
        );
      }
      throw this.err(`Variable [${ns}] is not defined.`, x.object.pos);
    }
    const o = this.expr(x.object, scope).fn;
    const name = x.name;
    const args = x.args.map((a) => this.expr(a, scope).fn);
    const nullSafe = x.nullSafe;
    if (args.length === 0) {
      return {
        fn: (e) => {
          const t = o(e);
          if (nullSafe && (t === null || t === undefined)) return null;
          return callMethod(t, name, []);
        },
        type: 'def',
      };
    }
    return {
      fn: (e) => {
        const t = o(e);
        if (nullSafe && (t === null || t === undefined)) return null;
        const vals = new Array(args.length);
        for (let i = 0; i < args.length; i++) vals[i] = args[i]!(e);
        return callMethod(t, name, vals);
      },
      type: 'def',
    };
  }

  private callStatic(
    f: StaticFn,
    argExprs: Expr[],
    scope: Scope,
    type: SType,
    compiled?: CExpr[],
  ): CExpr {
    const args = (compiled ?? argExprs.map((a) => this.expr(a, scope))).map((a) => a.fn);
    switch (args.length) {
      case 0:
        return { fn: () => f(), type };
      case 1: {
        const a = args[0]!;
        return { fn: (e) => f(a(e)), type };
      }
      case 2: {
        const a = args[0]!;
        const b = args[1]!;
        return { fn: (e) => f(a(e), b(e)), type };
      }
      case 3: {
        const [a, b, c] = args as [Fn, Fn, Fn];
        return { fn: (e) => f(a(e), b(e), c(e)), type };
      }
      default:
        return {
          fn: (e) => {
            const vals = new Array(args.length);
            for (let i = 0; i < args.length; i++) vals[i] = args[i]!(e);
            return f(...vals);
          },
          type,
        };
    }
  }

  private unary(x: Extract<Expr, { kind: 'Unary' }>, scope: Scope): CExpr {
    const o = this.expr(x.operand, scope);
    const f = o.fn;
    switch (x.op) {
      case '!':
        return { fn: (e) => !toBool(f(e)), type: 'boolean' };
      case '-':
        if (o.type === 'int') return { fn: (e) => -(f(e) as number) | 0, type: 'int' };
        if (isNum(o.type)) return { fn: (e) => -(f(e) as number), type: o.type };
        return { fn: (e) => -toNum(f(e)), type: 'def' };
      case '+':
        return { fn: (e) => toNum(f(e)), type: isNum(o.type) ? o.type : 'def' };
      case '~':
        return { fn: (e) => ~toNum(f(e)), type: o.type === 'long' ? 'long' : 'int' };
    }
  }

  binary(op: string, l: CExpr, r: CExpr): CExpr {
    const lf = l.fn;
    const rf = r.fn;
    const p = promote(l.type, r.type);
    switch (op) {
      case '+':
        if (l.type === 'String' || r.type === 'String') {
          const ld = l.type === 'double' || l.type === 'float';
          const rd = r.type === 'double' || r.type === 'float';
          return { fn: (e) => javaString(lf(e), ld) + javaString(rf(e), rd), type: 'String' };
        }
        if (p === 'int') return { fn: (e) => ((lf(e) as number) + (rf(e) as number)) | 0, type: p };
        if (p) return { fn: (e) => (lf(e) as number) + (rf(e) as number), type: p };
        return { fn: (e) => add(lf(e), rf(e)), type: 'def' };
      case '-':
      case '*':
      case '/':
      case '%':
        if (p === 'int' || p === 'long') {
          const bits32 = p === 'int';
          return { fn: (e) => intArith(op, lf(e) as number, rf(e) as number, bits32), type: p };
        }
        if (p) return { fn: (e) => arith(op, lf(e) as number, rf(e) as number), type: p };
        return { fn: (e) => arith(op, toNum(lf(e)), toNum(rf(e))), type: 'def' };
      case '==':
      case '!=': {
        const neg = op === '!=';
        if (p) return { fn: (e) => (lf(e) === rf(e)) !== neg, type: 'boolean' };
        return { fn: (e) => equalsDef(lf(e), rf(e)) !== neg, type: 'boolean' };
      }
      case '===':
      case '!==': {
        const neg = op === '!==';
        return { fn: (e) => (lf(e) === rf(e)) !== neg, type: 'boolean' };
      }
      case '<':
      case '<=':
      case '>':
      case '>=':
        if (p) {
          switch (op) {
            case '<':
              return { fn: (e) => (lf(e) as number) < (rf(e) as number), type: 'boolean' };
            case '<=':
              return { fn: (e) => (lf(e) as number) <= (rf(e) as number), type: 'boolean' };
            case '>':
              return { fn: (e) => (lf(e) as number) > (rf(e) as number), type: 'boolean' };
            default:
              return { fn: (e) => (lf(e) as number) >= (rf(e) as number), type: 'boolean' };
          }
        }
        return { fn: (e) => compare(op, lf(e), rf(e)), type: 'boolean' };
      default: {
        const type: SType =
          l.type === 'boolean' && r.type === 'boolean' ? 'boolean' : p === 'long' ? 'long' : 'def';
        return { fn: (e) => bitwise(op, lf(e), rf(e)), type };
      }
    }
  }

  private assign(x: Extract<Expr, { kind: 'Assign' }>, scope: Scope): CExpr {
    const value = this.expr(x.value, scope);
    const compound = x.op === '=' ? null : x.op.slice(0, -1);
    const t = x.target;
    if (t.kind === 'Var') {
      const local = scope.lookup(t.name);
      if (!local) {
        throw this.err(`Variable [${t.name}] is not defined.`, t.pos);
      }
      const slot = local.slot;
      const type = local.type;
      let f: Fn;
      if (compound) {
        const cur: CExpr = { fn: (e) => e.locals[slot], type };
        f = this.binary(compound, cur, value).fn;
      } else f = value.fn;
      const conv = type !== 'def' && (compound !== null || value.type !== type);
      return {
        fn: conv ? (e) => (e.locals[slot] = coerce(type, f(e))) : (e) => (e.locals[slot] = f(e)),
        type,
      };
    }
    if (t.kind === 'Field') {
      const o = this.expr(t.object, scope).fn;
      const name = t.name;
      const vf = value.fn;
      if (compound) {
        const bin = this.compoundOp(compound);
        return {
          fn: (e) => {
            const obj = o(e);
            const v = bin(getField(obj, name), vf(e));
            setField(obj, name, v);
            return v;
          },
          type: 'def',
        };
      }
      return {
        fn: (e) => {
          const obj = o(e);
          const v = vf(e);
          setField(obj, name, v);
          return v;
        },
        type: 'def',
      };
    }
    if (t.kind === 'Index') {
      const o = this.expr(t.object, scope).fn;
      const i = this.expr(t.index, scope).fn;
      const vf = value.fn;
      const bin = compound ? this.compoundOp(compound) : null;
      return {
        fn: (e) => {
          const obj = o(e);
          const idx = i(e);
          const v = bin ? bin(getIndex(obj, idx), vf(e)) : vf(e);
          setIndex(obj, idx, v);
          return v;
        },
        type: 'def',
      };
    }
    throw this.err('invalid assignment target', x.pos);
  }

  /** `a op= b` on a field or element: the operator compiled once over two dynamic operands. */
  private compoundOp(op: string): (cur: unknown, v: unknown) => unknown {
    const cell: { cur: unknown; v: unknown } = { cur: null, v: null };
    const f = this.binary(
      op,
      { fn: () => cell.cur, type: 'def' },
      { fn: () => cell.v, type: 'def' },
    ).fn;
    const dummy: Env = { vars: {}, locals: [], ret: null, loops: MAX_LOOP_COUNTER };
    return (cur, v) => {
      cell.cur = cur;
      cell.v = v;
      return f(dummy);
    };
  }

  private incDec(x: Extract<Expr, { kind: 'IncDec' }>, scope: Scope): CExpr {
    const delta = x.op === '++' ? 1 : -1;
    const t = x.target;
    const prefix = x.prefix;
    if (t.kind === 'Var') {
      const local = scope.lookup(t.name);
      if (!local) throw this.err(`Variable [${t.name}] is not defined.`, t.pos);
      const slot = local.slot;
      const type = local.type;
      return {
        fn: (e) => {
          const old = toNum(e.locals[slot]);
          const nv = type === 'int' ? (old + delta) | 0 : old + delta;
          e.locals[slot] = nv;
          return prefix ? nv : old;
        },
        type: isNum(type) ? type : 'def',
      };
    }
    const assign = this.assign(
      {
        kind: 'Assign',
        pos: x.pos,
        op: '+=',
        target: t,
        value: { kind: 'Num', pos: x.pos, value: delta, numType: 'int' },
      },
      scope,
    );
    if (prefix) return assign;
    const read = this.expr(t, scope).fn;
    const af = assign.fn;
    return {
      fn: (e) => {
        const old = read(e);
        af(e);
        return old;
      },
      type: 'def',
    };
  }
}
