/**
 * Type resolution of the arithmetic operators (ES sql Add/Sub/Mul/Div/Mod with
 * DateTimeArithmeticOperation, ql Neg and the comparison operators): the result type, or ES's
 * verification message. `l`/`r` carry each operand's type, name (Expressions.name) and source text.
 */
import {
  isDateOrTimeBased,
  isInteger,
  isInterval,
  isNullOrInterval,
  isNullOrNumeric,
  isNumeric,
  type DataTypeName,
} from '../../functions/data-types.js';
import { commonType } from './common-type.js';

export interface OperandInfo {
  readonly type: DataTypeName;
  /** Expressions.name: the alias or the source text. */
  readonly name: string;
  /** The operand's own source text (used by "Cannot subtract a ...[x] from an interval[y]"). */
  readonly sourceText?: string;
}

export type ArithmeticOp = '+' | '-' | '*' | '/' | '%';

export type TypeResolution =
  | { readonly ok: true; readonly type: DataTypeName }
  | { readonly ok: false; readonly message: string };

const ok = (type: DataTypeName): TypeResolution => ({ ok: true, type });
const fail = (message: string): TypeResolution => ({ ok: false, message });

const incompatible = (op: string, l: DataTypeName, r: DataTypeName) =>
  fail(`[${op}] has arguments with incompatible types [${l}] and [${r}]`);

function numericArgs(
  op: string,
  opSourceText: string,
  l: OperandInfo,
  r: OperandInfo,
): TypeResolution | null {
  for (const [o, ord] of [
    [l, 'first'],
    [r, 'second'],
  ] as const) {
    if (!isNumeric(o.type) && o.type !== 'NULL') {
      return fail(
        `${ord} argument of [${opSourceText}] must be [numeric], found value [${o.name}] type [${o.type.toLowerCase()}]`,
      );
    }
  }
  void op;
  return null;
}

/**
 * Resolution of `l <op> r`. `opSourceText` is the whole expression's source text
 * (BinaryOperator.sourceText()) used in ES's "first argument of [a + b] ..." messages.
 */
export function resolveArithmetic(
  op: ArithmeticOp,
  l: OperandInfo,
  r: OperandInfo,
  opSourceText: string,
): TypeResolution {
  const lt = l.type;
  const rt = r.type;
  if (op === '*') {
    if (isNullOrNumeric(lt) && isNullOrNumeric(rt)) return ok(commonType(lt, rt) ?? 'NULL');
    if (isNullOrInterval(lt) && (isInteger(rt) || rt === 'NULL')) return ok(lt);
    if (isNullOrInterval(rt) && (isInteger(lt) || lt === 'NULL')) return ok(rt);
    return incompatible(op, lt, rt);
  }
  if (op === '+' || op === '-') {
    if (isNumeric(lt) && isNumeric(rt)) return ok(commonType(lt, rt)!);
    if (isInterval(lt) || isInterval(rt)) {
      const common = commonType(lt, rt);
      if (common === null) return incompatible(op, lt, rt);
      const dtOrInterval = (t: DataTypeName) =>
        isDateOrTimeBased(t) || isInterval(t) || t === 'NULL';
      if (!dtOrInterval(rt) || !dtOrInterval(lt)) return incompatible(op, lt, rt);
      if (op === '-' && isDateOrTimeBased(rt) && isInterval(lt)) {
        return fail(
          `Cannot subtract a ${rt.toLowerCase()}[${r.sourceText ?? r.name}] from an interval[${l.sourceText ?? l.name}]; do you mean the reverse?`,
        );
      }
      return ok(common);
    }
  }
  const bad = numericArgs(op, opSourceText, l, r);
  if (bad) return bad;
  return ok(commonType(lt, rt) ?? 'NULL');
}

/** Unary minus: numeric operand, same type (intervals are negated by the parser). */
export function resolveNeg(operand: OperandInfo, opSourceText: string): TypeResolution {
  if (isNumeric(operand.type) || operand.type === 'NULL' || isInterval(operand.type))
    return ok(operand.type);
  return fail(
    `argument of [${opSourceText}] must be [numeric], found value [${operand.name}] type [${operand.type.toLowerCase()}]`,
  );
}
