/**
 * Small constructors for function definitions: defaults follow ES's base classes (ScalarFunction is
 * foldable when all its arguments are, AggregateFunction never is, no checks unless given).
 */
import type { DataTypeName } from '../../functions/data-types.js';
import {
  ARITY,
  type AggregateInfo,
  type ScriptInfo,
  type ArityKind,
  type EvalContext,
  type FunctionDefinition,
  type FunctionType,
} from './definition.js';
import type { ArgInfo, Resolution } from './type-resolutions.js';

export interface DefSpec {
  readonly names: readonly [string, ...string[]];
  readonly type?: FunctionType;
  readonly arity: ArityKind;
  readonly distinct?: boolean;
  readonly extractViable?: boolean;
  readonly configurationAware?: boolean;
  readonly resolve?: (args: readonly ArgInfo[], sourceText: string) => Resolution;
  readonly dataType: DataTypeName | ((args: readonly ArgInfo[]) => DataTypeName);
  readonly foldable?: (args: readonly ArgInfo[]) => boolean;
  readonly aggregate?: AggregateInfo;
  /** Script call; a string is shorthand for `{ prefix: 'sql', method }`. */
  readonly script?: ScriptInfo | string;
  readonly lazy?: boolean;
  readonly evaluate?: (args: readonly unknown[], ctx: EvalContext) => unknown;
}

export const allFoldable = (args: readonly ArgInfo[]): boolean => args.every((a) => a.foldable);

export function def(spec: DefSpec): FunctionDefinition {
  const [name, ...aliases] = spec.names;
  const dt = spec.dataType;
  const type = spec.type ?? 'SCALAR';
  const d: FunctionDefinition = {
    name,
    aliases,
    type,
    arity: ARITY[spec.arity],
    distinct: spec.distinct ?? false,
    extractViable: spec.extractViable ?? false,
    configurationAware: spec.configurationAware ?? false,
    resolveType: spec.resolve ?? (() => null),
    dataType: typeof dt === 'function' ? dt : () => dt,
    foldable:
      spec.foldable ??
      (type === 'AGGREGATE' || type === 'GROUPING' || type === 'SCORE' ? () => false : allFoldable),
    ...(spec.aggregate ? { aggregate: spec.aggregate } : {}),
    ...(spec.script
      ? {
          script:
            typeof spec.script === 'string'
              ? { prefix: 'sql' as const, method: spec.script }
              : spec.script,
        }
      : {}),
    ...(spec.lazy ? { lazy: true } : {}),
    ...(spec.evaluate ? { evaluate: spec.evaluate } : {}),
  };
  return Object.freeze(d);
}

/** The static type of argument i, when the evaluator knows it. */
export const argType = (ctx: EvalContext, i: number): DataTypeName | undefined => ctx.argTypes?.[i];
