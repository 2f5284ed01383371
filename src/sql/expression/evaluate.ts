/**
 * Evaluates resolved expressions on runtime values (ES `Processor` trees): constant folding in the
 * optimizer, local relations (SELECT without FROM), and the computed columns ES SQL evaluates
 * itself over hit fields and aggregation results. `compile` turns an expression into a closure
 * once; leaves that read a row (fields, aggregates, SCORE()) come from the caller.
 */
import {
  add,
  and,
  convert,
  div,
  eq,
  gt,
  gte,
  inList,
  isNotNull,
  isNull,
  like,
  lt,
  lte,
  mod,
  mul,
  neg,
  neq,
  not,
  nulleq,
  or,
  rlike,
  sub,
} from '../../functions/index.js';
import { sqlIllegalArgument } from '../../functions/errors.js';
import type { EvalContext } from '../functions/definition.js';
import type { Cmp, Expr } from './nodes.js';

export type Row = unknown;
export type Compiled = (row: Row) => unknown;

/** Compiles the leaves the expression tree itself cannot evaluate; null = not a leaf here. */
export type LeafCompiler = (e: Expr) => Compiled | null;

const CMP: Record<Cmp['op'], (l: unknown, r: unknown) => unknown> = {
  '=': eq,
  '<=>': nulleq,
  '!=': neq,
  '<': lt,
  '<=': lte,
  '>': gt,
  '>=': gte,
};

const ARITH = { '+': add, '-': sub, '*': mul, '/': div, '%': mod } as const;

export function compile(e: Expr, ctx: EvalContext, leaf?: LeafCompiler): Compiled {
  const fromLeaf = leaf?.(e);
  if (fromLeaf) return fromLeaf;
  const c = (x: Expr) => compile(x, ctx, leaf);
  switch (e.kind) {
    case 'Literal': {
      const v = e.value;
      return () => v;
    }
    case 'Alias':
      return c(e.child);
    case 'Fn': {
      const def = e.def;
      const args = e.args.map(c);
      const fctx: EvalContext = {
        ...ctx,
        argTypes: e.args.map((a) => a.dataType),
        resultType: e.dataType,
      };
      const fn = def.evaluate;
      if (!fn) {
        return () => {
          throw sqlIllegalArgument('Cannot evaluate [{}] locally', [e.src.text]);
        };
      }
      if (def.lazy)
        return (row) =>
          fn(
            args.map((a) => () => a(row)),
            fctx,
          );
      if (args.length === 1) {
        const a0 = args[0]!;
        return (row) => fn([a0(row)], fctx);
      }
      return (row) =>
        fn(
          args.map((a) => a(row)),
          fctx,
        );
    }
    case 'Cast': {
      const child = c(e.child);
      const to = e.dataType;
      const from = e.child.dataType;
      return (row) => convert(child(row), to, from);
    }
    case 'Arith': {
      const l = c(e.left);
      const r = c(e.right);
      const op = ARITH[e.op];
      const t = e.dataType;
      return (row) => op(l(row), r(row), t);
    }
    case 'Neg': {
      const child = c(e.child);
      const t = e.dataType;
      return (row) => neg(child(row), t);
    }
    case 'Cmp': {
      const l = c(e.left);
      const r = c(e.right);
      const op = CMP[e.op];
      return (row) => op(l(row), r(row));
    }
    case 'And': {
      const l = c(e.left);
      const r = c(e.right);
      return (row) => and(l(row), r(row));
    }
    case 'Or': {
      const l = c(e.left);
      const r = c(e.right);
      return (row) => or(l(row), r(row));
    }
    case 'Not': {
      const child = c(e.child);
      return (row) => not(child(row));
    }
    case 'In': {
      const v = c(e.value);
      const list = e.list.map(c);
      return (row) =>
        inList(
          v(row),
          list.map((x) => x(row)),
        );
    }
    case 'Range': {
      const v = c(e.value);
      const lo = c(e.lower);
      const hi = c(e.upper);
      const lower = e.includeLower ? gte : gt;
      const upper = e.includeUpper ? lte : lt;
      return (row) => {
        const x = v(row);
        return and(lower(x, lo(row)), upper(x, hi(row)));
      };
    }
    case 'IsNull': {
      const child = c(e.child);
      return e.negated ? (row) => isNotNull(child(row)) : (row) => isNull(child(row));
    }
    case 'Like': {
      const child = c(e.child);
      const { pattern, escape } = e;
      return (row) => like(child(row), pattern, escape);
    }
    case 'RLike': {
      const child = c(e.child);
      const pattern = e.pattern;
      return (row) => rlike(child(row), pattern);
    }
    default:
      return () => {
        throw sqlIllegalArgument('Cannot evaluate [{}] locally', [e.src.text]);
      };
  }
}

/** Folds a constant expression (ES Expression.fold()). */
export function fold(e: Expr, ctx: EvalContext): unknown {
  if (e.kind === 'Literal') return e.value;
  return compile(e, ctx)(undefined);
}
