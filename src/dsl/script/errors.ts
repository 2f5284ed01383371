/**
 * Script errors shaped like Elasticsearch 6.8's ScriptException as Painless raises it: a
 * `script_exception` with reason `compile error` or `runtime error`, a `script_stack` snippet
 * (25 characters either side of the offending offset, PainlessScriptEngine.convertToScriptException),
 * the script, its lang, and the underlying Java exception as `caused_by`.
 */
import { EsError } from '../../common/errors.js';

/** Raised by the lexer/parser/compiler with the offset of the offending token. */
export class ScriptCompileError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly javaType = 'illegal_argument_exception',
  ) {
    super(reason);
  }
}

/** Raised while evaluating (Java runtime exceptions: type in snake case, reason may be null). */
export class ScriptRuntimeError extends Error {
  constructor(
    readonly javaType: string,
    readonly reason: string | null,
  ) {
    super(reason ?? javaType);
  }
}

/** The java.lang exceptions Painless scripts may construct and throw (its whitelist). */
const JAVA_EXCEPTIONS = new Set([
  'Exception',
  'RuntimeException',
  'IllegalArgumentException',
  'IllegalStateException',
  'UnsupportedOperationException',
  'ArithmeticException',
  'NullPointerException',
  'ClassCastException',
  'IndexOutOfBoundsException',
  'ArrayIndexOutOfBoundsException',
  'StringIndexOutOfBoundsException',
  'NegativeArraySizeException',
  'NumberFormatException',
  'SecurityException',
]);

/** `new IllegalArgumentException("...")` in a script: thrown, it is that runtime error. */
export class JavaException {
  constructor(
    readonly className: string,
    readonly message: string | null,
  ) {}

  /** ES's name for it (ElasticsearchException.getExceptionName: the class name in snake case). */
  get esType(): string {
    return this.className.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();
  }

  static known(className: string): boolean {
    return JAVA_EXCEPTIONS.has(className);
  }
}

/** The script stack ES prints: "... " + source[offset-25, offset+25) + " ...", and the pointer. */
export function scriptStack(source: string, offset: number): string[] {
  if (offset < 0) return ['<<< unknown portion of script >>>'];
  const start = Math.max(0, offset - 25);
  const end = Math.min(source.length, offset + 25);
  let snippet = start > 0 ? '... ' : '';
  snippet += source.slice(start, end);
  if (end < source.length) snippet += ' ...';
  let pointer = start > 0 ? '    ' : '';
  pointer += ' '.repeat(offset - start) + '^---- HERE';
  return [snippet, pointer];
}

export function compileErrorToEs(e: ScriptCompileError, source: string, lang: string): EsError {
  const cause = new EsError(e.javaType, e.reason, 400);
  // 6.8's ScriptException keeps ElasticsearchException's 500 (the 400 came with 7.0).
  return new EsError('script_exception', 'compile error', 500, {
    meta: { script_stack: scriptStack(source, e.offset), script: source, lang },
    causedBy: cause,
  });
}

/** Runtime failures: ES reports the script source and no position for our closures. */
export function runtimeErrorToEs(e: unknown, source: string, lang: string): EsError {
  if (e instanceof EsError && e.type === 'script_exception') return e;
  let cause: EsError;
  if (e instanceof ScriptRuntimeError) {
    const status = e.javaType === 'illegal_argument_exception' ? 400 : 500;
    cause = new EsError(e.javaType, e.reason, status);
  } else if (e instanceof EsError) cause = e;
  else cause = new EsError('exception', e instanceof Error ? e.message : String(e), 500);
  return new EsError('script_exception', 'runtime error', 500, {
    meta: { script_stack: [], script: source, lang },
    causedBy: cause,
  });
}

export const nullPointer = () => new ScriptRuntimeError('null_pointer_exception', null);
export const classCast = (msg: string) => new ScriptRuntimeError('class_cast_exception', msg);
export const arithmetic = (msg: string) => new ScriptRuntimeError('arithmetic_exception', msg);
export const illegalArg = (msg: string) =>
  new ScriptRuntimeError('illegal_argument_exception', msg);
