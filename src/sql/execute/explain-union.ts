/**
 * EXPLAIN of a UNION (EXTENSION, issue 16): each branch's plans as ES prints them, then the
 * in-memory steps; `PLAN MAPPED`/`EXECUTABLE` answer the requests and steps as JSON
 * (translate/phases.ts).
 */
import { planText } from '../plan/explain.js';
import type { QueryPlan } from '../translate/index.js';
import { queryPhases } from '../translate/phases.js';

export function explainUnion(p: QueryPlan, type: string, fetchSize: number): string {
  const u = p.union!;
  const phases = queryPhases(p, null, fetchSize);
  if (type === 'MAPPED' || type === 'EXECUTABLE') return JSON.stringify(phases, null, 2);
  const plans = (pick: (b: QueryPlan) => string) =>
    u.branches.map((b, i) => `Branch [${i}]\n${pick(b)}`).join('\n');
  const memory = `Union (in memory)\n-----------------\n${(phases.in_memory as string[]).join('\n')}\n`;
  switch (type) {
    case 'PARSED':
    case 'ANALYZED':
      return plans((b) => planText(b.analyzed));
    case 'OPTIMIZED':
      return plans((b) => planText(b.optimized));
    default:
      return (
        `Analyzed\n--------\n${plans((b) => planText(b.analyzed))}\n` +
        `Optimized\n---------\n${plans((b) => planText(b.optimized))}\n` +
        `Executable\n----------\n${JSON.stringify(phases.requests, null, 2)}\n${memory}`
      );
  }
}
