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
  /** The rows of one hit (one per inner hit when nested fields are read). */
  readonly extract: (hit: Hit) => unknown[][];
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

/**
 * The node a cursor was opened on, read back from its id (null: not one of ours): a cursor holds
 * its node's state, so a request with it on another node of a cluster is passed to that node, as
 * ES's scroll ids name the nodes holding their contexts.
 */
export function cursorNode(id: string): string | null {
  const raw = Buffer.from(id, 'base64url');
  const sep = raw.indexOf(0);
  return sep > 0 && raw.length - sep - 1 === 12 ? raw.subarray(0, sep).toString('utf8') : null;
}

export class CursorService {
  private readonly states = new Map<string, CursorState>();

  /** `nodeId`: the node's id, carried in every cursor it opens. */
  constructor(private readonly nodeId = '') {}

  open(state: CursorState): string {
    this.reap();
    const id = Buffer.concat([
      Buffer.from(`${this.nodeId}\u0000`, 'utf8'),
      randomBytes(12),
    ]).toString('base64url');
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
