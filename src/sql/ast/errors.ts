/**
 * The errors the SQL parser raises, shaped like ES's: `parsing_exception` (status 400) whose
 * reason starts with `line L:C: `, plus the few non-ES exceptions ES lets escape from its parser
 * (Integer.parseInt, an UnsupportedOperationException). Messages are kept as ES writes them.
 */
import { EsError } from '../../common/errors.js';
import type { Loc } from './nodes.js';

/**
 * ES `new ParsingException(source, message)`: the reason reads `line L:C: message` where C is
 * the node's column + 1 (ES `Location.getColumnNumber()` is already charPositionInLine + 1 and
 * `ParsingException.getColumnNumber()` adds one again). `loc` null is ES `Source.EMPTY`
 * (`line -1:0: ...`).
 */
export function parsingError(loc: Loc | null, message: string, cause?: EsError): EsError {
  const where = loc === null ? 'line -1:0' : `line ${loc.line}:${loc.column + 1}`;
  return new EsError(
    'parsing_exception',
    `${where}: ${message}`,
    400,
    cause ? { causedBy: cause } : {},
  );
}

/**
 * A syntax error reported by ANTLR (ES `SqlParser` error listener): the column is the offending
 * token's charPositionInLine + 1. `causeType` is the ANTLR exception ES nests as `caused_by`
 * (`input_mismatch_exception`, `no_viable_alt_exception`), null when ANTLR passes none.
 */
export function syntaxError(
  line: number,
  charPositionInLine: number,
  message: string,
  causeType: string | null,
): EsError {
  const cause = causeType === null ? undefined : new EsError(causeType, null, 400);
  return new EsError(
    'parsing_exception',
    `line ${line}:${charPositionInLine + 1}: ${message}`,
    400,
    cause ? { causedBy: cause } : {},
  );
}

/** ES QlIllegalArgumentException, used as the `caused_by` of parameter conversion errors. */
export function qlIllegalArgument(message: string, cause?: EsError): EsError {
  return new EsError(
    'ql_illegal_argument_exception',
    message,
    500,
    cause ? { causedBy: cause } : {},
  );
}

/** A Java exception nested as a `caused_by` (NumberFormatException, DateTimeParseException...). */
export function javaException(type: string, message: string | null): EsError {
  return new EsError(type, message, 500);
}

/**
 * `Integer.parseInt` on a LIMIT/TOP count beyond Java's int range: ES lets the
 * NumberFormatException escape, which its REST layer renders as a 400.
 */
export function numberFormatError(text: string): EsError {
  return new EsError('number_format_exception', `For input string: "${text}"`, 400);
}

/** `JOIN ... USING (...)`: ES's LogicalPlanBuilder throws a bare UnsupportedOperationException. */
export function unsupportedOperation(): EsError {
  return new EsError('unsupported_operation_exception', null, 500);
}
