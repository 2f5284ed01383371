/**
 * Invariants between the copies of each shard, read after the faults are healed: every copy holds
 * the same documents with the same version, seq_no and primary term; no (primary_term, seq_no)
 * names two different operations anywhere; and no copy's view of the global checkpoint is ahead of
 * an in-sync copy's local checkpoint.
 */

export interface CopyDoc {
  readonly id: string;
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
}

export interface CopyOp {
  readonly seqNo: number;
  readonly primaryTerm: number;
  readonly opType: 'index' | 'delete' | 'noop';
  readonly id?: string;
  readonly version?: number;
  /** The source, or a hash of it: two ops differing only here are still two operations. */
  readonly source?: string;
}

export interface ShardCopy {
  /** Node name or allocation id. */
  readonly copy: string;
  readonly docs: readonly CopyDoc[];
  /** The copy's op-log listing, when the caller has one. */
  readonly ops?: readonly CopyOp[];
  readonly inSync?: boolean;
  readonly localCheckpoint?: number;
  readonly globalCheckpoint?: number;
}

export interface DocDiff {
  readonly id: string;
  /** copy → what it holds (null: missing). */
  readonly copies: Readonly<Record<string, Omit<CopyDoc, 'id'> | null>>;
}

export interface PairReuse {
  readonly primaryTerm: number;
  readonly seqNo: number;
  /** Each distinct operation, with the copies holding it. */
  readonly ops: ReadonlyArray<{ readonly op: CopyOp; readonly copies: readonly string[] }>;
}

export interface ShardResult {
  readonly shard: string;
  readonly copies: readonly string[];
  readonly docs: number;
  readonly diffs: readonly DocDiff[];
  readonly reusedPairs: readonly PairReuse[];
  /** Documents whose (term, seq_no) is logged, on the same copy, as an op on something else. */
  readonly docOpMismatches: readonly string[];
  readonly checkpointViolations: readonly string[];
}

export interface CopiesResult {
  readonly valid: boolean;
  readonly shards: readonly ShardResult[];
  /** One line per problem, for humans. */
  readonly problems: readonly string[];
}

const fmt = (d: Omit<CopyDoc, 'id'> | null) =>
  d ? `v${d.version} seq ${d.seqNo} term ${d.primaryTerm}` : 'missing';
const opFmt = (o: CopyOp) =>
  `${o.opType}${o.id !== undefined ? ' ' + o.id : ''}${o.version !== undefined ? ' v' + o.version : ''}`;
const opIdentity = (o: CopyOp) => JSON.stringify([o.opType, o.id, o.version, o.source]);

export function checkShard(shard: string, copies: readonly ShardCopy[]): ShardResult {
  const names = copies.map((c) => c.copy);
  const maps = copies.map((c) => new Map(c.docs.map((d) => [d.id, d])));
  const ids = new Set<string>();
  for (const c of copies) for (const d of c.docs) ids.add(d.id);

  const diffs: DocDiff[] = [];
  for (const id of [...ids].sort()) {
    const held = maps.map((m) => m.get(id) ?? null);
    const first = held[0];
    const same = held.every(
      (d) =>
        d !== null &&
        first !== null &&
        first !== undefined &&
        d.version === first.version &&
        d.seqNo === first.seqNo &&
        d.primaryTerm === first.primaryTerm,
    );
    if (same) continue;
    const byCopy: Record<string, Omit<CopyDoc, 'id'> | null> = {};
    held.forEach((d, i) => {
      byCopy[names[i]!] = d
        ? { version: d.version, seqNo: d.seqNo, primaryTerm: d.primaryTerm }
        : null;
    });
    diffs.push({ id, copies: byCopy });
  }

  const pairs = new Map<string, Map<string, { op: CopyOp; copies: string[] }>>();
  for (const c of copies) {
    for (const o of c.ops ?? []) {
      const k = `${o.primaryTerm}:${o.seqNo}`;
      let distinct = pairs.get(k);
      if (!distinct) pairs.set(k, (distinct = new Map()));
      const ident = opIdentity(o);
      const seen = distinct.get(ident);
      if (!seen) distinct.set(ident, { op: o, copies: [c.copy] });
      else if (!seen.copies.includes(c.copy)) seen.copies.push(c.copy);
    }
  }
  const reusedPairs: PairReuse[] = [];
  for (const distinct of pairs.values()) {
    if (distinct.size < 2) continue;
    const list = [...distinct.values()];
    reusedPairs.push({ primaryTerm: list[0]!.op.primaryTerm, seqNo: list[0]!.op.seqNo, ops: list });
  }
  reusedPairs.sort((a, b) => a.seqNo - b.seqNo || a.primaryTerm - b.primaryTerm);

  const docOpMismatches: string[] = [];
  for (const c of copies) {
    if (!c.ops) continue;
    const logged = new Map(c.ops.map((o) => [`${o.primaryTerm}:${o.seqNo}`, o]));
    for (const d of c.docs) {
      const o = logged.get(`${d.primaryTerm}:${d.seqNo}`);
      if (o && (o.opType !== 'index' || o.id !== d.id))
        docOpMismatches.push(
          `${c.copy}: doc ${d.id} (${fmt(d)}) but its (term, seq_no) is logged as ${opFmt(o)}`,
        );
    }
  }

  const checkpointViolations: string[] = [];
  const gcps = copies.filter((c) => c.globalCheckpoint !== undefined);
  for (const g of gcps) {
    for (const c of copies) {
      if (c.inSync === false || c.localCheckpoint === undefined) continue;
      if (g.globalCheckpoint! > c.localCheckpoint)
        checkpointViolations.push(
          `${g.copy} has global checkpoint ${g.globalCheckpoint} above in-sync ${c.copy}'s local checkpoint ${c.localCheckpoint}`,
        );
    }
  }

  return {
    shard,
    copies: names,
    docs: ids.size,
    diffs,
    reusedPairs,
    docOpMismatches,
    checkpointViolations,
  };
}

/** `shards`: shard name (e.g. `logs[0]`) → the final listing of each of its copies. */
export function checkCopies(shards: Readonly<Record<string, readonly ShardCopy[]>>): CopiesResult {
  const results = Object.keys(shards)
    .sort()
    .map((s) => checkShard(s, shards[s]!));
  const problems: string[] = [];
  for (const r of results) {
    for (const d of r.diffs)
      problems.push(
        `${r.shard}: doc ${d.id} differs: ` +
          Object.entries(d.copies)
            .map(([c, x]) => `${c} ${fmt(x)}`)
            .join(', '),
      );
    for (const p of r.reusedPairs)
      problems.push(
        `${r.shard}: (term ${p.primaryTerm}, seq ${p.seqNo}) names ${p.ops.length} operations: ` +
          p.ops.map((o) => `${opFmt(o.op)} on ${o.copies.join('+')}`).join('; '),
      );
    for (const m of r.docOpMismatches) problems.push(`${r.shard}: ${m}`);
    for (const v of r.checkpointViolations) problems.push(`${r.shard}: ${v}`);
  }
  return { valid: problems.length === 0, shards: results, problems };
}
