/**
 * The bench's ingest client: `concurrency` keep-alive HTTP connections, each sending the next
 * `_bulk` body to the next node round-robin (body i goes to node i mod n), as Rally's bulk clients
 * do. Every answer is checked (200, `errors: false`, one item per document, each stored on the
 * expected number of copies); the first failures are kept, never thrown mid-load.
 */
import { Agent, request } from 'node:http';

export interface BulkBody {
  readonly bytes: Buffer;
  readonly docs: number;
}

/** NDJSON `_bulk` bodies of `batch` documents each (auto ids, as the logs track). */
export function bulkBodies(lines: readonly string[], index: string, batch: number): BulkBody[] {
  const action = JSON.stringify({ index: { _index: index, _type: '_doc' } });
  const out: BulkBody[] = [];
  for (let i = 0; i < lines.length; i += batch) {
    const part = lines.slice(i, i + batch);
    out.push({ bytes: Buffer.from(part.map((l) => `${action}\n${l}\n`).join('')), docs: part.length }); // prettier-ignore
  }
  return out;
}

export interface LoadResult {
  readonly docsSent: number;
  /** Documents whose item answered created. */
  readonly docsAcked: number;
  readonly wallMs: number;
  readonly requests: number;
  /** Client-side latency of one `_bulk`, ms. */
  readonly medianMs: number;
  readonly p90Ms: number;
  /** The first problems seen (bad status, `errors: true`, wrong item count or `_shards`). */
  readonly problems: readonly string[];
  /** One `_id` per body (its first item), for GETs after the load. */
  readonly sampleIds: readonly string[];
}

interface BulkAnswer {
  errors?: boolean;
  items?: Array<Record<string, { status: number; _id: string; _shards?: { successful: number }; error?: unknown }>>; // prettier-ignore
}

function post(agent: Agent, url: URL, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/_bulk',
        agent,
        headers: { 'content-type': 'application/x-ndjson', 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error('bulk request timed out (120 s)')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Checks one answer; returns the problem or null, and counts the created items. */
function check(
  status: number,
  text: string,
  body: BulkBody,
  copies: number,
): { problem: string | null; acked: number; firstId?: string } {
  if (status !== 200) return { problem: `status ${status}: ${text.slice(0, 300)}`, acked: 0 };
  const a = JSON.parse(text) as BulkAnswer;
  const items = a.items ?? [];
  let acked = 0;
  let problem: string | null = null;
  for (const it of items) {
    const r = it.index;
    if (r && r.status === 201) acked++;
    if (!r || r.status !== 201)
      problem ??= `item not created: ${JSON.stringify(it).slice(0, 300)}`;
    else if (r._shards?.successful !== copies)
      problem ??= `item on ${r._shards?.successful} copies, want ${copies}: ${JSON.stringify(r._shards)}`; // prettier-ignore
  }
  if (a.errors !== false) problem ??= `errors: ${a.errors}`;
  if (items.length !== body.docs) problem = `${items.length} items for ${body.docs} documents`;
  const firstId = items[0]?.index?._id;
  return { problem, acked, ...(firstId ? { firstId } : {}) };
}

export async function loadBulk(
  urls: readonly string[],
  bodies: readonly BulkBody[],
  concurrency: number,
  copies: number,
): Promise<LoadResult> {
  const targets = urls.map((u) => ({
    url: new URL(u),
    agent: new Agent({ keepAlive: true, maxSockets: concurrency }),
  }));
  const problems: string[] = [];
  const sampleIds: string[] = [];
  const lat: number[] = [];
  let next = 0;
  let acked = 0;
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < bodies.length; i = next++) {
      const t = targets[i % targets.length]!;
      const body = bodies[i]!;
      const s = performance.now();
      try {
        const r = await post(t.agent, t.url, body.bytes);
        lat.push(performance.now() - s);
        const c = check(r.status, r.text, body, copies);
        acked += c.acked;
        if (c.firstId) sampleIds.push(c.firstId);
        if (c.problem && problems.length < 10) problems.push(`body ${i} via ${t.url.host}: ${c.problem}`); // prettier-ignore
      } catch (e) {
        if (problems.length < 10) problems.push(`body ${i} via ${t.url.host}: ${String(e)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallMs = performance.now() - t0;
  for (const t of targets) t.agent.destroy();
  lat.sort((a, b) => a - b);
  const at = (f: number) => lat[Math.min(lat.length - 1, Math.floor(f * lat.length))] ?? NaN;
  return {
    docsSent: bodies.reduce((n, b) => n + b.docs, 0),
    docsAcked: acked,
    wallMs,
    requests: bodies.length,
    medianMs: at(0.5),
    p90Ms: at(0.9),
    problems,
    sampleIds,
  };
}
