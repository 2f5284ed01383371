/**
 * Reuse of query plans across statements (no ES counterpart: ES plans every statement). A plan is
 * a pure function of the statement text, its params, the time zone, the frozen-index flag and the
 * mappings its index patterns resolved to, unless planning read the request's clock (CURRENT_DATE,
 * NOW(), TODAY() folded into literals) or the statement may fold an unseeded RANDOM(). Entries
 * remember the merged mappings they were planned against and are dropped when a pattern resolves
 * differently (mapping update, new or deleted index, alias change).
 */
import type { EsIndex } from '../analyze/es-index.js';
import type { Catalog } from '../analyze/relations.js';

/** One index-pattern resolution made while planning. */
interface Dependency {
  readonly pattern: string;
  readonly frozen: boolean;
  readonly index: EsIndex | null;
}

interface Entry<P> {
  readonly plan: P;
  readonly deps: readonly Dependency[];
}

/** What planning touched: the resolutions it made and whether it read the clock. */
export interface PlanningTrace {
  readonly catalog: Catalog;
  readonly deps: Dependency[];
  clockRead: boolean;
}

const MAX_ENTRIES = 512;
/** Statement text that may fold a value differing per evaluation (RANDOM()/RAND() without seed). */
const VOLATILE = /\brand/i;

export class PlanCache<P> {
  private readonly entries = new Map<string, Entry<P>>();

  /** The cache key, or null when the statement is never cached. */
  key(text: string, params: readonly unknown[], zoneId: string, frozen: boolean): string | null {
    if (VOLATILE.test(text)) return null;
    const p = params.length === 0 ? '' : JSON.stringify(params);
    return `${zoneId}\u0000${frozen ? 1 : 0}\u0000${p}\u0000${text}`;
  }

  /** The cached plan when every index pattern it read still resolves to the same mappings. */
  get(key: string, catalog: Catalog): P | null {
    const e = this.entries.get(key);
    if (e === undefined) return null;
    for (const d of e.deps) {
      if (catalog.resolveIndex(d.pattern, d.frozen) !== d.index) {
        this.entries.delete(key);
        return null;
      }
    }
    // least recently used entries go first
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.plan;
  }

  /** A catalog that records what planning resolves (pass its trace to `put`). */
  trace(catalog: Catalog): PlanningTrace {
    const deps: Dependency[] = [];
    return {
      deps,
      clockRead: false,
      catalog: {
        resolveIndex: (pattern, frozen) => {
          const index = catalog.resolveIndex(pattern, frozen);
          deps.push({ pattern, frozen, index });
          return index;
        },
      },
    };
  }

  put(key: string, plan: P, trace: PlanningTrace): void {
    if (trace.clockRead) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // drop the least recently used entry (Map iteration order is insertion order)
      const first = this.entries.keys().next();
      if (!first.done) this.entries.delete(first.value);
    }
    this.entries.set(key, { plan, deps: trace.deps.slice() });
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
