/**
 * Runtime errors of the SQL functions with Elasticsearch's exception types: ql/sql
 * IllegalArgumentExceptions (ES SQL's QlIllegalArgumentException / SqlIllegalArgumentException,
 * HTTP 500 unless caused by a Java IllegalArgumentException, then 400), Java's ArithmeticException
 * and NumberFormatException. Messages use ES's `{}` placeholders (LoggerMessageFormat).
 */
import { EsError } from '../common/errors.js';
import { javaToString } from './java-text.js';

/** ES LoggerMessageFormat.format: each `{}` takes the next argument's Java toString. */
export function formatMessage(template: string, ...args: unknown[]): string {
  if (args.length === 0) return template;
  let out = '';
  let argIdx = 0;
  let i = 0;
  while (i < template.length) {
    const j = template.indexOf('{}', i);
    if (j < 0 || argIdx >= args.length) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, j) + javaToString(args[argIdx++]);
    i = j + 2;
  }
  return out;
}

/** ES: QlIllegalArgumentException ("ql_illegal_argument_exception"). */
export function qlIllegalArgument(
  template: string,
  args: unknown[] = [],
  opts: { status?: number; causedBy?: EsError } = {},
): EsError {
  return new EsError(
    'ql_illegal_argument_exception',
    formatMessage(template, ...args),
    opts.status ?? (opts.causedBy?.status === 400 ? 400 : 500),
    opts.causedBy ? { causedBy: opts.causedBy } : {},
  );
}

/** ES: SqlIllegalArgumentException ("sql_illegal_argument_exception"). */
export function sqlIllegalArgument(
  template: string,
  args: unknown[] = [],
  opts: { status?: number; causedBy?: EsError } = {},
): EsError {
  return new EsError(
    'sql_illegal_argument_exception',
    formatMessage(template, ...args),
    opts.status ?? (opts.causedBy?.status === 400 ? 400 : 500),
    opts.causedBy ? { causedBy: opts.causedBy } : {},
  );
}

/** java.lang.ArithmeticException ("integer overflow", "long overflow", "/ by zero"). */
export const arithmeticException = (msg: string): EsError =>
  new EsError('arithmetic_exception', msg, 500);

/** java.lang.NumberFormatException (an IllegalArgumentException, hence 400). */
export const numberFormatException = (msg: string): EsError =>
  new EsError('number_format_exception', msg, 400);

/** java.lang.IllegalArgumentException. */
export const javaIllegalArgument = (msg: string): EsError =>
  new EsError('illegal_argument_exception', msg, 400);
