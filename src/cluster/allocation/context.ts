/** What the master hands the allocation functions besides the cluster state. */
export interface AllocationContext {
  /** Epoch millis. */
  readonly now: number;
  /** Effective cluster settings (persistent over defaults, transient over persistent), flat. */
  readonly settings: Readonly<Record<string, string>>;
  /**
   * The on-disk copies of a shard: node id to the allocation id stored with the copy (what ES's
   * shard store listing tells the master). Nodes without a copy are absent.
   */
  copies(indexUuid: string, shard: number): ReadonlyMap<string, string>;
  /** A fresh allocation id (ES UUIDs.randomBase64UUID). */
  newAllocationId(): string;
}
