/**
 * Scroll contexts: a search's complete ordered hit list over its point-in-time shard snapshots,
 * paged by `_search/scroll`, freed by clear-scroll or when `keep_alive` expires.
 */
import { EsError } from '../../common/errors.js';
import type { Shard } from '../../engine/shard.js';

export interface ScrollContext<H = unknown, F = unknown> {
  id: string;
  hits: H[];
  pos: number;
  size: number;
  total: number;
  maxScore: number | null;
  shards: number;
  fetch: F;
  keepAliveMs: number;
  expiresAt: number;
  /** Called once when the context is freed (cleared or expired). */
  release?: () => void;
}

export class ScrollService {
  private readonly contexts = new Map<string, ScrollContext<any, any>>();
  private seq = 1;
  private timer: NodeJS.Timeout | null = null;

  open<H, F>(ctx: Omit<ScrollContext<H, F>, 'id' | 'expiresAt'>): ScrollContext<H, F> {
    const n = this.seq++;
    // ES-looking id: base64 of the search type, context count and a counter.
    const id = Buffer.from(`queryAndFetch;${n};${Date.now().toString(36)}`).toString('base64');
    const c: ScrollContext<H, F> = { ...ctx, id, expiresAt: Date.now() + ctx.keepAliveMs };
    this.contexts.set(id, c);
    this.ensureReaper();
    return c;
  }

  get<H = any, F = any>(id: string, keepAliveMs: number | null): ScrollContext<H, F> {
    const c = this.contexts.get(id);
    if (!c || c.expiresAt < Date.now()) {
      this.remove(id);
      throw new EsError(
        'search_context_missing_exception',
        `No search context found for id [${decodeCounter(id)}]`,
        404,
      );
    }
    if (keepAliveMs !== null) c.keepAliveMs = keepAliveMs;
    c.expiresAt = Date.now() + c.keepAliveMs;
    return c;
  }

  clear(ids: string[] | 'all'): { freed: number; missing: string[] } {
    if (ids === 'all') {
      const n = this.contexts.size;
      for (const id of [...this.contexts.keys()]) this.remove(id);
      return { freed: n, missing: [] };
    }
    let freed = 0;
    const missing: string[] = [];
    for (const id of ids) {
      if (this.remove(id)) freed++;
      else missing.push(id);
    }
    return { freed, missing };
  }

  private remove(id: string): boolean {
    const c = this.contexts.get(id);
    if (!c) return false;
    this.contexts.delete(id);
    c.release?.();
    return true;
  }

  get openContexts(): number {
    return this.contexts.size;
  }

  private ensureReaper(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const [id, c] of this.contexts) if (c.expiresAt < now) this.remove(id);
      if (this.contexts.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }, 1000);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.contexts.clear();
  }
}

function decodeCounter(id: string): string {
  try {
    const s = Buffer.from(id, 'base64').toString('utf8');
    const parts = s.split(';');
    if (parts[0] === 'queryAndFetch' && parts[1]) return parts[1];
  } catch {
    /* not ours */
  }
  return '-1';
}

export function isValidScrollId(id: string): boolean {
  try {
    return Buffer.from(id, 'base64').toString('utf8').startsWith('queryAndFetch;');
  } catch {
    return false;
  }
}

/**
 * Pins the shard views a scroll's hits come from, so their superseded versions stay fetchable
 * (Shard.readAt) for the scroll's life; returns the release for `ScrollContext.release`.
 */
export function pinScrollViews(
  hits: ReadonlyArray<{ target: { shard: Shard; snapshot: { generation: number } } }>,
): () => void {
  const views = new Map<Shard, number>();
  for (const h of hits) if (!views.has(h.target.shard)) views.set(h.target.shard, h.target.snapshot.generation); // prettier-ignore
  for (const [shard, generation] of views) shard.pinView(generation);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const [shard, generation] of views) shard.unpinView(generation);
  };
}
