/**
 * After a load: the documents the cluster holds. `_refresh` and `_cat/indices` are not served in a
 * cluster yet, so each node's `_cat/shards` gives the docs of the copies it holds (what its
 * searcher sees: refreshed every `refresh_interval`); the counts are polled until the primaries
 * sum to the documents sent, and every copy of a shard holds the same count. Sampled ids are read
 * back with GETs through every node.
 */
export interface CountCheck {
  readonly ok: boolean;
  readonly primaryDocs: number;
  /** Per-copy counts, `<shard><p|r>@<node>: docs`. */
  readonly copies: Record<string, number>;
  readonly problem?: string;
  readonly getsChecked: number;
  readonly getsMissing: number;
}

interface ShardRow {
  shard: string;
  prirep: string;
  docs: string | null;
  node: string | null;
}

/** A node's `_cat/shards` rows; a node that does not answer lists none (its copies go missing). */
async function shardRows(url: string, index: string): Promise<ShardRow[]> {
  try {
    const r = await fetch(`${url}/_cat/shards/${index}?h=shard,prirep,docs,node&format=json`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (r.status !== 200) return [];
    return (await r.json()) as ShardRow[];
  } catch {
    return [];
  }
}

/** Each copy's count, read from the node that holds it. */
async function copyCounts(urls: readonly string[], names: readonly string[], index: string) {
  const copies: Record<string, number> = {};
  let primaryDocs = 0;
  const perShard = new Map<string, number[]>();
  for (let k = 0; k < urls.length; k++) {
    for (const row of await shardRows(urls[k]!, index)) {
      if (row.node !== names[k]) continue; // another node's copy: no count here
      const docs = Number(row.docs ?? NaN);
      copies[`${row.shard}${row.prirep}@${row.node}`] = docs;
      if (row.prirep === 'p') primaryDocs += docs;
      perShard.set(row.shard, [...(perShard.get(row.shard) ?? []), docs]);
    }
  }
  const copiesAgree = [...perShard.values()].every((c) => c.every((d) => d === c[0]));
  return { copies, primaryDocs, copiesAgree };
}

export async function verifyCounts(
  urls: readonly string[],
  names: readonly string[],
  index: string,
  expected: number,
  expectedCopies: number,
  sampleIds: readonly string[],
  timeoutMs = 60_000,
): Promise<CountCheck> {
  const until = Date.now() + timeoutMs;
  let last = await copyCounts(urls, names, index);
  while ((last.primaryDocs !== expected || !last.copiesAgree) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 500));
    last = await copyCounts(urls, names, index);
  }
  const nCopies = Object.keys(last.copies).length;
  let problem: string | undefined;
  if (last.primaryDocs !== expected)
    problem = `primaries hold ${last.primaryDocs} docs, ${expected} sent`;
  else if (!last.copiesAgree) problem = 'the copies of a shard hold different counts';
  else if (nCopies !== expectedCopies) problem = `${nCopies} copies reported, want ${expectedCopies}`; // prettier-ignore
  // GETs through every node, spread over the sample
  let getsMissing = 0;
  let getsChecked = 0;
  const step = Math.max(1, Math.floor(sampleIds.length / 60));
  for (let i = 0; i < sampleIds.length; i += step) {
    const url = urls[i % urls.length]!;
    const b = await fetch(`${url}/${index}/_doc/${encodeURIComponent(sampleIds[i]!)}`, {
      signal: AbortSignal.timeout(10_000),
    })
      .then((r) => r.json() as Promise<{ found?: boolean }>)
      .catch(() => ({ found: false }));
    getsChecked++;
    if (b.found !== true) getsMissing++;
  }
  if (getsMissing && !problem) problem = `${getsMissing} of ${getsChecked} sampled GETs not found`;
  return {
    ok: problem === undefined,
    primaryDocs: last.primaryDocs,
    copies: last.copies,
    ...(problem ? { problem } : {}),
    getsChecked,
    getsMissing,
  };
}
