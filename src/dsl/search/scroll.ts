/**
 * Scroll contexts: a search's complete ordered hit list over its point-in-time shard snapshots,
 * paged by `_search/scroll`, freed by clear-scroll or when `keep_alive` expires.
 */
import { EsError } from '../../common/errors.js';

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
      this.contexts.delete(id);
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
      this.contexts.clear();
      return { freed: n, missing: [] };
    }
    let freed = 0;
    const missing: string[] = [];
    for (const id of ids) {
      if (this.contexts.delete(id)) freed++;
      else missing.push(id);
    }
    return { freed, missing };
  }

  get openContexts(): number {
    return this.contexts.size;
  }

  private ensureReaper(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const [id, c] of this.contexts) if (c.expiresAt < now) this.contexts.delete(id);
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
