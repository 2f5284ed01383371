/**
 * The primary's view of its replication group (ES ReplicationTracker): the local checkpoint of
 * every copy it tracks, which of them are in sync, and the global checkpoint — the highest
 * sequence number every in-sync copy has processed, so everything at or below it is on every
 * copy that may become primary. Copies that recover are tracked (they receive live writes) but
 * count for the global checkpoint only once marked in sync.
 */
export class ReplicationTracker {
  private readonly local = new Map<string, number>();
  private readonly inSync = new Set<string>();
  private global: number;
  /** Recoveries waiting for a copy's checkpoint to reach the global checkpoint. */
  private readonly waiters = new Set<() => void>();

  /**
   * The primary's own copy is in sync from the start; `inSync` names the other copies the cluster
   * state lists as in sync (a promoted primary's group): their checkpoints are unknown until they
   * report, and until then they hold the global checkpoint where it was (`globalCheckpoint`).
   */
  constructor(
    readonly primaryAllocationId: string,
    primaryCheckpoint: number,
    globalCheckpoint = -1,
    inSync: readonly string[] = [],
  ) {
    this.local.set(primaryAllocationId, primaryCheckpoint);
    this.inSync.add(primaryAllocationId);
    for (const id of inSync) {
      if (id === primaryAllocationId) continue;
      this.local.set(id, -1);
      this.inSync.add(id);
    }
    this.global = globalCheckpoint;
    this.recompute();
  }

  get globalCheckpoint(): number {
    return this.global;
  }

  /** Allocation ids of the in-sync copies, the primary's included. */
  inSyncIds(): string[] {
    return [...this.inSync];
  }

  /** Allocation ids of every tracked copy (in sync or recovering). */
  trackedIds(): string[] {
    return [...this.local.keys()];
  }

  isInSync(allocationId: string): boolean {
    return this.inSync.has(allocationId);
  }

  localCheckpoint(allocationId: string): number | undefined {
    return this.local.get(allocationId);
  }

  /** A recovering copy starts receiving live operations. */
  initiateTracking(allocationId: string): void {
    if (!this.local.has(allocationId)) this.local.set(allocationId, -1);
  }

  /**
   * A copy whose local checkpoint reached the global checkpoint joins the in-sync set (ES
   * markAllocationIdAsInSync); before that it cannot, as it may miss operations below it.
   */
  markInSync(allocationId: string, localCheckpoint: number): void {
    if (!this.local.has(allocationId))
      throw new Error(`allocation id [${allocationId}] is not tracked`);
    this.updateLocalCheckpoint(allocationId, localCheckpoint);
    const cp = this.local.get(allocationId)!;
    if (cp < this.global) {
      throw new Error(
        `allocation id [${allocationId}] has local checkpoint [${cp}] below the global checkpoint [${this.global}]`,
      );
    }
    this.inSync.add(allocationId);
    this.recompute();
  }

  /**
   * ES waitForLocalCheckpointToAdvance: a recovery finalizes with the copy's checkpoint as it
   * read it, while live operations above it may still be on their way to the copy; wait (at most
   * `timeoutMs`) for those to land before marking it in sync, rather than refusing it.
   */
  async markInSyncWhenCaughtUp(
    allocationId: string,
    localCheckpoint: number,
    timeoutMs = 30_000,
  ): Promise<void> {
    if (!this.local.has(allocationId))
      throw new Error(`allocation id [${allocationId}] is not tracked`);
    this.updateLocalCheckpoint(allocationId, localCheckpoint);
    const caughtUp = () => (this.local.get(allocationId) ?? -1) >= this.global;
    if (!caughtUp() && this.local.has(allocationId)) {
      await new Promise<void>((resolve) => {
        const check = () => {
          if (caughtUp() || !this.local.has(allocationId)) done();
        };
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        this.waiters.add(check);
      });
    }
    this.markInSync(allocationId, this.local.get(allocationId) ?? -1);
  }

  /** A copy reported its local checkpoint (after a replicated operation); never moves back. */
  updateLocalCheckpoint(allocationId: string, checkpoint: number): void {
    const cur = this.local.get(allocationId);
    if (cur === undefined || checkpoint <= cur) return;
    this.local.set(allocationId, checkpoint);
    if (this.inSync.has(allocationId)) this.recompute();
    for (const w of [...this.waiters]) w();
  }

  /** A failed or removed copy leaves the group (after the fenced in-sync removal). */
  remove(allocationId: string): void {
    if (allocationId === this.primaryAllocationId) throw new Error('cannot remove the primary');
    this.local.delete(allocationId);
    this.inSync.delete(allocationId);
    this.recompute();
    for (const w of [...this.waiters]) w();
  }

  private recompute(): void {
    let min = Infinity;
    for (const id of this.inSync) min = Math.min(min, this.local.get(id) ?? -1);
    // the global checkpoint only moves forward (ES: it is persisted and never goes back)
    if (min !== Infinity && min > this.global) this.global = min;
  }
}
