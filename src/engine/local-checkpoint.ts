/**
 * A shard copy's local checkpoint (ES LocalCheckpointTracker): the highest sequence number below
 * which every operation has been processed. Operations complete out of order (concurrent writes,
 * replicated operations arriving in any order), so the numbers processed above the checkpoint
 * are remembered until the gap below them fills. Replication reports it to the primary, which
 * derives the global checkpoint from the in-sync copies' local checkpoints.
 */
export class LocalCheckpointTracker {
  private processedAbove = new Set<number>();
  private cp: number;
  private max: number;

  /** `maxSeqNo` and `checkpoint` as a copy recovered them (-1, -1 for an empty copy). */
  constructor(maxSeqNo = -1, checkpoint = -1) {
    if (checkpoint > maxSeqNo)
      throw new Error(`checkpoint [${checkpoint}] above max [${maxSeqNo}]`);
    this.max = maxSeqNo;
    this.cp = checkpoint;
  }

  get checkpoint(): number {
    return this.cp;
  }

  get maxSeqNo(): number {
    return this.max;
  }

  /** The next sequence number (primaries only). */
  generate(): number {
    return ++this.max;
  }

  /** A copy learns of a sequence number (a replicated operation): max moves, nothing is processed. */
  advanceMaxSeqNo(seqNo: number): void {
    if (seqNo > this.max) this.max = seqNo;
  }

  /** The operation `seqNo` is done (durable); the checkpoint moves over every filled gap. */
  markProcessed(seqNo: number): void {
    this.advanceMaxSeqNo(seqNo);
    if (seqNo <= this.cp) return;
    if (seqNo !== this.cp + 1) {
      this.processedAbove.add(seqNo);
      return;
    }
    this.cp = seqNo;
    while (this.processedAbove.delete(this.cp + 1)) this.cp++;
  }

  /**
   * Everything up to `seqNo` is processed: a recovery copied the primary's state as of that
   * sequence number (newest operation per document), which covers the operations it superseded.
   */
  fastForward(seqNo: number): void {
    this.advanceMaxSeqNo(seqNo);
    if (seqNo <= this.cp) return;
    for (const s of this.processedAbove) if (s <= seqNo) this.processedAbove.delete(s);
    this.cp = seqNo;
    while (this.processedAbove.delete(this.cp + 1)) this.cp++;
  }

  /** Whether `seqNo` has been processed. */
  hasProcessed(seqNo: number): boolean {
    return seqNo <= this.cp || this.processedAbove.has(seqNo);
  }
}
