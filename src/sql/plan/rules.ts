/**
 * ES `RuleExecutor`, pure: named batches of named rules, each batch run once or until the tree
 * stops changing (ES caps fixpoint batches at 100 runs). `trace` records which rules changed the
 * plan, for DEBUG-style output and rule tests. `ctx` is handed to every rule, so that batches
 * whose rules read a request's settings can be built once rather than per run.
 */
export interface Rule<T, C = undefined> {
  readonly name: string;
  apply(tree: T, ctx: C): T;
}

export interface Batch<T, C = undefined> {
  readonly name: string;
  readonly limit: 'once' | 'fixpoint';
  readonly rules: readonly Rule<T, C>[];
}

export interface Transformation {
  readonly batch: string;
  readonly rule: string;
}

const MAX_RUNS = 100;

export function runBatches<T, C = undefined>(
  tree: T,
  batches: readonly Batch<T, C>[],
  same: (a: T, b: T) => boolean = (a, b) => a === b,
  trace?: Transformation[],
  ctx?: C,
): T {
  let current = tree;
  for (const batch of batches) {
    const runs = batch.limit === 'once' ? 1 : MAX_RUNS;
    for (let i = 0; i < runs; i++) {
      let changed = false;
      for (const rule of batch.rules) {
        const next = rule.apply(current, ctx as C);
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
