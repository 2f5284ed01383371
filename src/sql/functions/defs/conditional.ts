/**
 * Conditional functions (ES sql.expression.predicate.conditional): CASE, COALESCE, IFNULL/ISNULL/NVL,
 * IIF, NULLIF, GREATEST, LEAST. Types must be compatible with the first non-null argument; the result
 * type widens over all arguments (commonType). CASE is built by the parser from WHEN/THEN/ELSE, so
 * its checks are exported separately (resolveCase & co.).
 */
import * as c from '../../../functions/conditional.js';
import { DATA_TYPES, type DataTypeName } from '../../../functions/data-types.js';
import { areCompatible, commonType } from '../../types/common-type.js';
import { def } from '../build.js';
import type { FunctionDefinition } from '../definition.js';
import {
  checkBoolean,
  isNullArg,
  ordinal,
  type ArgInfo,
  type Resolution,
} from '../type-resolutions.js';

/** ConditionalFunction.resolveType. */
export function resolveConditional(args: readonly ArgInfo[], sourceText: string): Resolution {
  let dt: DataTypeName = 'NULL';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (dt === 'NULL') {
      if (!isNullArg(a)) dt = a.type;
    } else if (!areCompatible(dt, a.type)) {
      return `${ordinal(i + 1)} argument of [${sourceText}] must be [${DATA_TYPES[dt].typeName}], found value [${a.name}] type [${DATA_TYPES[a.type].typeName}]`;
    }
  }
  return null;
}

/** ConditionalFunction.dataType: commonType folded from NULL. */
export function conditionalDataType(types: readonly DataTypeName[]): DataTypeName {
  let dt: DataTypeName = 'NULL';
  for (const t of types) dt = commonType(dt, t) ?? dt;
  return dt;
}

const conditional = (
  names: [string, ...string[]],
  spec: Partial<Parameters<typeof def>[0]>,
): FunctionDefinition =>
  def({
    names,
    type: 'CONDITIONAL',
    arity: 'variadic',
    resolve: resolveConditional,
    dataType: (a) => conditionalDataType(a.map((x) => x.type)),
    ...spec,
  });

// ---- CASE ------------------------------------------------------------------------------------

export interface CaseBranch {
  readonly condition: ArgInfo;
  readonly result: ArgInfo;
  /** Source text of the `WHEN ... THEN ...` branch (IfConditional.sourceText()). */
  readonly sourceText: string;
}

/** Case.resolveType. */
export function resolveCase(
  branches: readonly CaseBranch[],
  elseResult: ArgInfo & { sourceText?: string },
): Resolution {
  let expected: DataTypeName | null = null;
  for (const b of branches) {
    if (b.result.type !== 'NULL') {
      expected = b.result.type;
      break;
    }
  }
  expected ??= elseResult.type;
  for (const b of branches) {
    if (b.condition.type !== 'BOOLEAN') {
      return `condition of [${b.sourceText}] must be [boolean], found value [${b.condition.name}] type [${DATA_TYPES[b.condition.type].typeName}]`;
    }
    if (!areCompatible(expected, b.result.type)) {
      return `result of [${b.sourceText}] must be [${DATA_TYPES[expected].typeName}], found value [${b.result.name}] type [${DATA_TYPES[b.result.type].typeName}]`;
    }
  }
  if (!areCompatible(expected, elseResult.type)) {
    return `ELSE clause of [${elseResult.sourceText ?? elseResult.name}] must be [${DATA_TYPES[expected].typeName}], found value [${elseResult.name}] type [${DATA_TYPES[elseResult.type].typeName}]`;
  }
  return null;
}

/** Case.dataType. */
export function caseDataType(
  branchResultTypes: readonly DataTypeName[],
  elseType: DataTypeName,
): DataTypeName {
  if (branchResultTypes.length === 0) return elseType;
  return conditionalDataType([...branchResultTypes, elseType]);
}

/** Case.foldable: only a single branch with a constant condition folds. */
export function caseFoldable(branches: readonly CaseBranch[], elseResult: ArgInfo): boolean {
  if (branches.length === 0) return elseResult.foldable;
  if (branches.length === 1 && branches[0]!.condition.foldable) {
    return branches[0]!.condition.value === true
      ? branches[0]!.result.foldable
      : elseResult.foldable;
  }
  return false;
}

/** CASE evaluation over thunks: [cond1, result1, cond2, result2, ..., else]. */
export const evaluateCase = (thunks: ReadonlyArray<() => unknown>): unknown => {
  const branches: Array<readonly [() => unknown, () => unknown]> = [];
  for (let i = 0; i + 1 < thunks.length; i += 2) branches.push([thunks[i]!, thunks[i + 1]!]);
  return c.caseWhen(branches, thunks[thunks.length - 1]!);
};

const NULL_ARG: ArgInfo = { type: 'NULL', name: 'null', foldable: true, value: null };

export const CONDITIONAL_FUNCTIONS: readonly FunctionDefinition[] = [
  def({
    names: ['CASE'],
    type: 'CONDITIONAL',
    arity: 'variadic',
    lazy: true,
    // arguments as the planner lays them out: [cond1, result1, ..., else]
    resolve: (a) => {
      const branches: CaseBranch[] = [];
      for (let i = 0; i + 1 < a.length; i += 2) {
        branches.push({
          condition: a[i]!,
          result: a[i + 1]!,
          sourceText: a[i]!.sourceText ?? a[i]!.name,
        });
      }
      return resolveCase(branches, a[a.length - 1] ?? NULL_ARG);
    },
    dataType: (a) => {
      const results: DataTypeName[] = [];
      for (let i = 1; i < a.length - 1; i += 2) results.push(a[i]!.type);
      return caseDataType(results, (a[a.length - 1] ?? NULL_ARG).type);
    },
    foldable: (a) => {
      const branches: CaseBranch[] = [];
      for (let i = 0; i + 1 < a.length; i += 2)
        branches.push({ condition: a[i]!, result: a[i + 1]!, sourceText: '' });
      return caseFoldable(branches, a[a.length - 1] ?? NULL_ARG);
    },
    evaluate: (thunks) => evaluateCase(thunks as ReadonlyArray<() => unknown>),
  }),
  conditional(['COALESCE'], {
    lazy: true,
    script: { prefix: 'sql', method: 'coalesce', list: true },
    // foldable when the first argument folds to a non-null value (the optimizer drops the rest)
    foldable: (a) =>
      a.length === 0 || (a[0]!.foldable && a[0]!.value !== null && a[0]!.value !== undefined),
    evaluate: (thunks) => {
      for (const t of thunks as ReadonlyArray<() => unknown>) {
        const v = t();
        if (v !== null && v !== undefined) return v;
      }
      return null;
    },
  }),
  conditional(['IIF'], {
    arity: 'twoOrThree',
    lazy: true,
    resolve: (a, src) => {
      const cond = checkBoolean(a[0]!, src, 'FIRST');
      if (cond) return cond;
      const resultType = a[1]!.type;
      const elseArg = a[2] ?? NULL_ARG;
      if (!areCompatible(resultType, elseArg.type)) {
        return `third argument of [${src}] must be [${DATA_TYPES[resultType].typeName}], found value [${elseArg.name}] type [${DATA_TYPES[elseArg.type].typeName}]`;
      }
      return null;
    },
    dataType: (a) => caseDataType([a[1]!.type], (a[2] ?? NULL_ARG).type),
    foldable: (a) =>
      caseFoldable([{ condition: a[0]!, result: a[1]!, sourceText: '' }], a[2] ?? NULL_ARG),
    evaluate: (thunks) => {
      const t = thunks as ReadonlyArray<() => unknown>;
      return c.iif(t[0]!(), t[1]!, t[2] ?? (() => null));
    },
  }),
  conditional(['IFNULL', 'ISNULL', 'NVL'], {
    arity: 'two',
    lazy: true,
    script: { prefix: 'sql', method: 'coalesce', list: true },
    foldable: (a) => a[0]!.foldable && a[0]!.value !== null && a[0]!.value !== undefined,
    evaluate: (thunks) => {
      const t = thunks as ReadonlyArray<() => unknown>;
      const first = t[0]!();
      return first !== null && first !== undefined ? first : t[1]!();
    },
  }),
  conditional(['NULLIF'], { arity: 'two', script: 'nullif', evaluate: ([a, b]) => c.nullif(a, b) }),
  conditional(['GREATEST'], {
    script: { prefix: 'sql', method: 'greatest', list: true },
    evaluate: (vs) => c.greatest(vs),
  }),
  conditional(['LEAST'], {
    script: { prefix: 'sql', method: 'least', list: true },
    evaluate: (vs) => c.least(vs),
  }),
];
