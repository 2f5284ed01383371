/**
 * String functions (ES SqlFunctionRegistry "String" group, ql STARTS_WITH). Text arguments must be
 * exact (have a keyword variant), numbers are checked as numeric or integer per ES's classes.
 */
import * as s from '../../../functions/string.js';
import { def } from '../build.js';
import type { FunctionDefinition } from '../definition.js';
import {
  checkInteger,
  checkNumeric,
  checkStringAndExact,
  firstFailure,
  type ArgInfo,
  type Ordinal,
} from '../type-resolutions.js';
import type { DataTypeName } from '../../../functions/data-types.js';

type Check = (a: ArgInfo, op: string, o: Ordinal) => string | null;

const checks =
  (...cs: Check[]) =>
  (a: readonly ArgInfo[], src: string) =>
    firstFailure(
      ...cs.map(
        (c, i) => () =>
          a[i] ? c(a[i]!, src, (['FIRST', 'SECOND', 'THIRD', 'FOURTH'] as const)[i]!) : null,
      ),
    );

/** StringUtils.underscoreToLowerCamelCase: BIT_LENGTH -> bitLength. */
const camel = (n: string) =>
  n.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

const unaryString = (
  name: string,
  dataType: DataTypeName,
  f: (v: unknown) => unknown,
): FunctionDefinition =>
  def({
    names: [name],
    arity: 'one',
    resolve: (a, src) => checkStringAndExact(a[0]!, src, 'DEFAULT'),
    dataType,
    script: camel(name),
    evaluate: ([v]) => f(v),
  });

const unaryInt = (name: string, method: string, f: (v: unknown) => unknown): FunctionDefinition =>
  def({
    names: [name],
    arity: 'one',
    resolve: (a, src) => checkInteger(a[0]!, src, 'DEFAULT'),
    dataType: 'KEYWORD',
    script: method,
    evaluate: ([v]) => f(v),
  });

const stringNumeric = (name: string, f: (a: unknown, b: unknown) => unknown): FunctionDefinition =>
  def({
    names: [name],
    arity: 'two',
    resolve: checks(checkStringAndExact, checkNumeric),
    dataType: 'KEYWORD',
    script: name.toLowerCase(),
    evaluate: ([a, b]) => f(a, b),
  });

export const STRING_FUNCTIONS: readonly FunctionDefinition[] = [
  unaryString('ASCII', 'INTEGER', s.ascii),
  unaryString('BIT_LENGTH', 'INTEGER', s.bitLength),
  unaryInt('CHAR', 'character', s.char),
  def({
    names: ['CHAR_LENGTH', 'CHARACTER_LENGTH'],
    arity: 'one',
    resolve: (a, src) => checkStringAndExact(a[0]!, src, 'DEFAULT'),
    dataType: 'INTEGER',
    script: 'charLength',
    evaluate: ([v]) => s.charLength(v),
  }),
  def({
    names: ['CONCAT'],
    arity: 'two',
    resolve: checks(checkStringAndExact, checkStringAndExact),
    dataType: 'KEYWORD',
    script: 'concat',
    evaluate: ([a, b]) => s.concat(a, b),
  }),
  def({
    names: ['INSERT'],
    arity: 'four',
    resolve: checks(checkStringAndExact, checkNumeric, checkNumeric, checkStringAndExact),
    dataType: 'KEYWORD',
    script: 'insert',
    evaluate: ([a, b, c, d]) => s.insert(a, b, c, d),
  }),
  unaryString('LCASE', 'KEYWORD', s.lcase),
  stringNumeric('LEFT', s.left),
  unaryString('LENGTH', 'INTEGER', s.length),
  def({
    names: ['LOCATE'],
    arity: 'twoOrThree',
    resolve: checks(checkStringAndExact, checkStringAndExact, checkNumeric),
    dataType: 'INTEGER',
    script: 'locate',
    evaluate: ([p, v, st]) => s.locate(p, v, st),
  }),
  unaryString('LTRIM', 'KEYWORD', s.ltrim),
  unaryString('OCTET_LENGTH', 'INTEGER', s.octetLength),
  def({
    names: ['POSITION'],
    arity: 'two',
    resolve: checks(checkStringAndExact, checkStringAndExact),
    dataType: 'INTEGER',
    script: 'position',
    evaluate: ([a, b]) => s.position(a, b),
  }),
  stringNumeric('REPEAT', s.repeat),
  def({
    names: ['REPLACE'],
    arity: 'three',
    resolve: checks(checkStringAndExact, checkStringAndExact, checkStringAndExact),
    dataType: 'KEYWORD',
    script: 'replace',
    evaluate: ([a, b, c]) => s.replace(a, b, c),
  }),
  stringNumeric('RIGHT', s.right),
  unaryString('RTRIM', 'KEYWORD', s.rtrim),
  unaryInt('SPACE', 'space', s.space),
  // ql StartsWith is registered as a configuration-aware bi-function, which also (by accident)
  // makes it EXTRACT-viable in ES 7.10
  def({
    names: ['STARTS_WITH'],
    arity: 'two',
    extractViable: true,
    configurationAware: true,
    resolve: checks(checkStringAndExact, checkStringAndExact),
    dataType: 'BOOLEAN',
    script: { prefix: 'ql', method: 'startsWith', extra: [true] },
    evaluate: ([a, b]) => s.startsWith(a, b, true),
  }),
  def({
    names: ['SUBSTRING'],
    arity: 'three',
    resolve: checks(checkStringAndExact, checkInteger, checkInteger),
    dataType: 'KEYWORD',
    script: 'substring',
    evaluate: ([a, b, c]) => s.substring(a, b, c),
  }),
  unaryString('TRIM', 'KEYWORD', s.trim),
  unaryString('UCASE', 'KEYWORD', s.ucase),
];
