/**
 * Documents overwritten or deleted while a refreshed view still shows them. ES fetches a hit's
 * `_source` from the point-in-time segment the search ran on; Quarry's store keeps only the latest
 * version, so the superseded record is kept here for as long as a view can return it: until a
 * refresh replaces the view it was superseded in, or while a scroll pins an older view. Bounded
 * in bytes: past the bound the oldest are dropped, and such a hit shows the current document.
 */
import type { DocRecord } from '../store/doc-record.js';

interface Entry {
  id: string;
  record: DocRecord;
  /** Generation of the refreshed view when the record was superseded (the last to show it). */
  generation: number;
}

export class SupersededSources {
  private readonly byId = new Map<string, Entry[]>();
  /** Entries in the order they were superseded: generations never decrease along it. */
  private queue: Entry[] = [];
  private head = 0;
  private bytes = 0;
  /** Generations held by open scrolls, with their counts. */
  private readonly pins = new Map<number, number>();

  constructor(private readonly maxBytes: number) {}

  /** Keeps `record` of `id`, superseded while the view of `generation` showed it. */
  add(id: string, record: DocRecord, generation: number): void {
    const e: Entry = { id, record, generation };
    const list = this.byId.get(id);
    if (list) list.push(e);
    else this.byId.set(id, [e]);
    this.queue.push(e);
    this.bytes += record.source.length;
    while (this.bytes > this.maxBytes && this.head < this.queue.length) this.drop();
  }

  /** The kept record of `id` at `seqNo`, if any. */
  get(id: string, seqNo: number): DocRecord | null {
    const list = this.byId.get(id);
    if (!list) return null;
    for (const e of list) if (e.record.seqNo === seqNo) return e.record;
    return null;
  }

  pin(generation: number): void {
    this.pins.set(generation, (this.pins.get(generation) ?? 0) + 1);
  }

  unpin(generation: number): void {
    const n = (this.pins.get(generation) ?? 0) - 1;
    if (n > 0) this.pins.set(generation, n);
    else this.pins.delete(generation);
  }

  /**
   * Drops what no view can return any more: an entry is needed while the current view is the
   * one it was superseded in, or a scroll pins a view at or before that one.
   */
  evict(currentGeneration: number): void {
    let oldest = currentGeneration;
    for (const g of this.pins.keys()) if (g < oldest) oldest = g;
    while (this.head < this.queue.length && this.queue[this.head]!.generation < oldest) this.drop();
  }

  get size(): number {
    return this.queue.length - this.head;
  }

  private drop(): void {
    const e = this.queue[this.head]!;
    this.queue[this.head++] = undefined as unknown as Entry;
    this.bytes -= e.record.source.length;
    const list = this.byId.get(e.id)!;
    list.splice(list.indexOf(e), 1);
    if (list.length === 0) this.byId.delete(e.id);
    // compact the consumed prefix now and then instead of shifting on every drop
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
