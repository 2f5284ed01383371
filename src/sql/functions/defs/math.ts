/**
 * Math functions (ES SqlFunctionRegistry "Math" group): MathFunction subclasses take one numeric
 * argument and return DOUBLE; ABS/ROUND/TRUNCATE keep the argument type, CEIL/FLOOR round to an
 * integral type, SIGN is INTEGER, MOD is the `%` operator as a function.
 */
import { asIntegerType } from '../../../functions/convert.js';
import * as m from '../../../functions/math.js';
import { commonType } from '../../types/common-type.js';
import { argType, def } from '../build.js';
import type { FunctionDefinition } from '../definition.js';
import { checkInteger, checkNumeric, firstFailure } from '../type-resolutions.js';

const numericUnary = (
  names: [string, ...string[]],
  f: (v: unknown) => number | null,
): FunctionDefinition =>
  def({
    names,
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: 'DOUBLE',
    script: names[0].toLowerCase(), // MathFunction: the class name, lower case
    evaluate: ([v]) => f(v),
  });

const numericBinary = (
  names: [string, ...string[]],
  f: (l: unknown, r: unknown) => number | null,
) =>
  def({
    names,
    arity: 'two',
    resolve: (a, src) =>
      firstFailure(
        () => checkNumeric(a[0]!, src, 'FIRST'),
        () => checkNumeric(a[1]!, src, 'SECOND'),
      ),
    dataType: 'DOUBLE',
    script: names[0].toLowerCase(),
    evaluate: ([l, r]) => f(l, r),
  });

const optionalScale = (
  names: [string, ...string[]],
  f: (l: unknown, r?: unknown) => number | null,
) =>
  def({
    names,
    arity: 'oneOrTwo',
    resolve: (a, src) =>
      firstFailure(
        () => checkNumeric(a[0]!, src, 'FIRST'),
        () => (a[1] ? checkInteger(a[1], src, 'SECOND') : null),
      ),
    dataType: (a) => a[0]!.type,
    script: names[0].toLowerCase(),
    evaluate: ([l, r]) => f(l, r),
  });

export const MATH_FUNCTIONS: readonly FunctionDefinition[] = [
  def({
    names: ['ABS'],
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: (a) => a[0]!.type,
    script: 'abs',
    evaluate: ([v], ctx) => m.abs(v, argType(ctx, 0)),
  }),
  numericUnary(['ACOS'], m.acos),
  numericUnary(['ASIN'], m.asin),
  numericUnary(['ATAN'], m.atan),
  numericBinary(['ATAN2'], m.atan2),
  numericUnary(['CBRT'], m.cbrt),
  def({
    names: ['CEIL', 'CEILING'],
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: (a) => asIntegerType(a[0]!.type),
    script: 'ceil',
    evaluate: ([v], ctx) => m.ceil(v, ctx.resultType),
  }),
  numericUnary(['COS'], m.cos),
  numericUnary(['COSH'], m.cosh),
  numericUnary(['COT'], m.cot),
  numericUnary(['DEGREES'], m.degrees),
  def({
    names: ['E'],
    arity: 'none',
    dataType: 'DOUBLE',
    foldable: () => true,
    script: { prefix: 'sql', method: 'e', inline: 'Math.E' },
    evaluate: () => m.e(),
  }),
  numericUnary(['EXP'], m.exp),
  numericUnary(['EXPM1'], m.expm1),
  def({
    names: ['FLOOR'],
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: (a) => asIntegerType(a[0]!.type),
    script: 'floor',
    evaluate: ([v], ctx) => m.floor(v, ctx.resultType),
  }),
  numericUnary(['LOG'], m.log),
  numericUnary(['LOG10'], m.log10),
  // SQL and ODBC require MOD as a function: it is the `%` operator (ES Mod)
  def({
    names: ['MOD'],
    arity: 'two',
    resolve: (a, src) =>
      firstFailure(
        () => checkNumeric(a[0]!, src, 'FIRST'),
        () => checkNumeric(a[1]!, src, 'SECOND'),
      ),
    dataType: (a) => commonType(a[0]!.type, a[1]!.type) ?? 'NULL',
    script: 'mod',
    evaluate: ([l, r], ctx) => m.mod(l, r, ctx.resultType),
  }),
  def({
    names: ['PI'],
    arity: 'none',
    dataType: 'DOUBLE',
    foldable: () => true,
    script: { prefix: 'sql', method: 'pi', inline: 'Math.PI' },
    evaluate: () => m.pi(),
  }),
  numericBinary(['POWER'], m.power),
  numericUnary(['RADIANS'], m.radians),
  numericUnary(['RANDOM', 'RAND'], (v) => m.random(v)),
  optionalScale(['ROUND'], m.round),
  def({
    names: ['SIGN', 'SIGNUM'],
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: 'INTEGER',
    script: 'sign',
    evaluate: ([v], ctx) => m.sign(v, argType(ctx, 0)),
  }),
  numericUnary(['SIN'], m.sin),
  numericUnary(['SINH'], m.sinh),
  numericUnary(['SQRT'], m.sqrt),
  numericUnary(['TAN'], m.tan),
  optionalScale(['TRUNCATE', 'TRUNC'], m.truncate),
];
