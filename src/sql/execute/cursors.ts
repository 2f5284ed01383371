/**
 * Cursors (ES Cursor/ScrollCursor/CompositeAggCursor/PivotCursor/ListCursor): the state needed to
 * fetch the next page of a result, kept on the node until the last page, `/_sql/close`, or its
 * `page_timeout` passing. Clients hold an opaque id.
 */
import { randomBytes } from 'node:crypto';
import { EsError } from '../../common/errors.js';
import type { Bucket, Hit } from './extract.js';

export interface ColumnMeta {
  readonly name: string;
  /** Upper-case SQL type name. */
  readonly type: string;
}

interface Base {
  readonly columns: readonly ColumnMeta[];
  readonly pageSize: number;
  expiresAt: number;
  readonly timeoutMs: number;
}

export interface ScrollState extends Base {
  readonly kind: 'scroll';
  readonly scrollId: string;
  readonly extract: (hit: Hit) => unknown[];
  /** Rows still allowed by LIMIT; -1 = unlimited. */
  remaining: number;
}

export interface CompositeState extends Base {
  readonly kind: 'composite';
  /** Runs the search for the page after `afterKey`. */
  readonly next: (afterKey: Record<string, unknown>) => Promise<{
    rows: unknown[][];
    afterKey: Record<string, unknown> | null;
  }>;
  afterKey: Record<string, unknown>;
  remaining: number;
}

export interface ListState extends Base {
  readonly kind: 'list';
  readonly rows: readonly unknown[][];
  pos: number;
}

export type CursorState = ScrollState | CompositeState | ListState;

export class CursorService {
  private readonly states = new Map<string, CursorState>();

  open(state: CursorState): string {
    this.reap();
    const id = randomBytes(12).toString('base64url');
    this.states.set(id, state);
    return id;
  }

  get(id: string): CursorState {
    this.reap();
    const s = this.states.get(id);
    if (!s) {
      throw new EsError('sql_illegal_argument_exception', `Unknown or expired cursor [${id}]`, 400);
    }
    s.expiresAt = Date.now() + s.timeoutMs;
    return s;
  }

  /** Forgets a cursor; false when it did not exist. */
  close(id: string): CursorState | null {
    const s = this.states.get(id) ?? null;
    this.states.delete(id);
    return s;
  }

  private reap(): void {
    const now = Date.now();
    for (const [id, s] of this.states) if (s.expiresAt < now) this.states.delete(id);
  }

  get size(): number {
    return this.states.size;
  }
}

export type { Bucket };
