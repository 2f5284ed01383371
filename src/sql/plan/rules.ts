/**
 * ES `RuleExecutor`, pure: named batches of named rules, each batch run once or until the tree
 * stops changing (ES caps fixpoint batches at 100 runs). `trace` records which rules changed the
 * plan, for DEBUG-style output and rule tests.
 */
export interface Rule<T> {
  readonly name: string;
  apply(tree: T): T;
}

export interface Batch<T> {
  readonly name: string;
  readonly limit: 'once' | 'fixpoint';
  readonly rules: readonly Rule<T>[];
}

export interface Transformation {
  readonly batch: string;
  readonly rule: string;
}

const MAX_RUNS = 100;

export function runBatches<T>(
  tree: T,
  batches: readonly Batch<T>[],
  same: (a: T, b: T) => boolean = (a, b) => a === b,
  trace?: Transformation[],
): T {
  let current = tree;
  for (const batch of batches) {
    const runs = batch.limit === 'once' ? 1 : MAX_RUNS;
    for (let i = 0; i < runs; i++) {
      let changed = false;
      for (const rule of batch.rules) {
        const next = rule.apply(current);
        if (!same(current, next)) {
          changed = true;
          trace?.push({ batch: batch.name, rule: rule.name });
          current = next;
        }
      }
      if (!changed) break;
    }
  }
  return current;
}
