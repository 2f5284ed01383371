/**
 * Rollover decisions (ES MetaDataRolloverService, RolloverRequest conditions): the name of the
 * next index in a `-000001` sequence and which of the requested conditions hold.
 */
import { illegalArgument } from '../common/errors.js';
import { formatByteSize, formatTimeValue, parseByteSize, parseTimeValue } from '../common/units.js';

export type RolloverCondition =
  | { readonly kind: 'max_age'; readonly ms: number }
  | { readonly kind: 'max_docs'; readonly docs: number }
  | { readonly kind: 'max_size'; readonly bytes: number };

/** What the conditions are evaluated against: the source index's primaries. */
export interface RolloverFacts {
  readonly ageMs: number;
  readonly docs: number;
  readonly bytes: number;
}

/** `logs-1` -> `logs-000002`: the number after the last dash, plus one, padded to six digits. */
export function nextRolloverName(source: string): string {
  const m = /^(.*)-(\d+)$/.exec(source);
  if (!m) throw illegalArgument(`index name [${source}] does not match pattern '^.*-\\d+$'`);
  return `${m[1]}-${String(Number(m[2]) + 1).padStart(6, '0')}`;
}

export function parseConditions(v: unknown): RolloverCondition[] {
  if (v === undefined || v === null) return [];
  if (typeof v !== 'object' || Array.isArray(v))
    throw illegalArgument('[conditions] must be an object');
  const out: RolloverCondition[] = [];
  for (const [k, raw] of Object.entries(v as Record<string, unknown>)) {
    if (k === 'max_age') out.push({ kind: k, ms: parseTimeValue(raw as string, 'max_age') });
    else if (k === 'max_docs') out.push({ kind: k, docs: Number(raw) });
    else if (k === 'max_size')
      out.push({ kind: k, bytes: parseByteSize(raw as string | number, 'max_size') });
    else throw illegalArgument(`unknown rollover condition [${k}]`);
  }
  return out;
}

/** ES Condition.toString: `[name: value]`. */
export function conditionLabel(c: RolloverCondition): string {
  if (c.kind === 'max_age') return `[max_age: ${formatTimeValue(c.ms)}]`;
  if (c.kind === 'max_docs') return `[max_docs: ${c.docs}]`;
  return `[max_size: ${formatByteSize(c.bytes)}]`;
}

export function conditionMet(c: RolloverCondition, f: RolloverFacts): boolean {
  if (c.kind === 'max_age') return f.ageMs >= c.ms;
  if (c.kind === 'max_docs') return f.docs >= c.docs;
  return f.bytes >= c.bytes;
}

/** Each condition's label and outcome; the index rolls over when there are none or any holds. */
export function evaluateConditions(
  conditions: readonly RolloverCondition[],
  facts: RolloverFacts,
): { results: Record<string, boolean>; roll: boolean } {
  const results: Record<string, boolean> = {};
  for (const c of conditions) results[conditionLabel(c)] = conditionMet(c, facts);
  return {
    results,
    roll: conditions.length === 0 || Object.values(results).some((b) => b),
  };
}
