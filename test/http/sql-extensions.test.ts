/**
 * Quarry's SQL extensions over HTTP (issue 16): OFFSET and UNION through `/_sql`, and
 * `POST /_sql/translate?phases` naming the Query DSL requests and the in-memory steps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const docs = Array.from({ length: 12 }, (_, i) => [
    JSON.stringify({ index: { _id: String(i + 1) } }),
    JSON.stringify({ n: i + 1, tag: i % 2 === 0 ? 'even' : 'odd' }),
  ]).flat();
  const r = await node.req('POST', '/nums/_doc/_bulk?refresh=true', docs.join('\n') + '\n', {
    'content-type': 'application/x-ndjson',
  });
  expect(r.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await node.destroy();
});

describe('SQL extensions over HTTP', () => {
  it('LIMIT n OFFSET m pages with a cursor', async () => {
    const first = await node.req('POST', '/_sql', {
      query: 'SELECT n FROM nums ORDER BY n LIMIT 5 OFFSET 4',
      fetch_size: 3,
    });
    expect(first.status).toBe(200);
    // the skipped rows may shorten the first page; the cursor continues after them
    const rows = [...first.json.rows];
    let cursor = first.json.cursor as string | undefined;
    for (let i = 0; cursor !== undefined && i < 10; i++) {
      const next = await node.req('POST', '/_sql', { cursor });
      rows.push(...next.json.rows);
      cursor = next.json.cursor;
    }
    expect(rows).toEqual([[5], [6], [7], [8], [9]]);
    expect(cursor).toBeUndefined();
  });

  it("OFFSET respects the index's max_result_window as LIMIT does", async () => {
    const put = await node.req('PUT', '/nums/_settings', { index: { max_result_window: 5 } });
    expect(put.status).toBe(200);
    try {
      const fits = await node.req('POST', '/_sql', {
        query: 'SELECT n FROM nums ORDER BY n LIMIT 1 OFFSET 4',
      });
      expect(fits.json.rows).toEqual([[5]]);
      // offset + limit rows past the window fail as LIMIT 7 does (ES's query_phase error)
      for (const query of [
        'SELECT n FROM nums ORDER BY n LIMIT 3 OFFSET 4',
        'SELECT n FROM nums ORDER BY n LIMIT 7',
      ]) {
        const r = await node.req('POST', '/_sql', { query });
        expect(r.json.error.root_cause[0].type).toBe('query_phase_execution_exception');
      }
    } finally {
      await node.req('PUT', '/nums/_settings', { index: { max_result_window: null } });
    }
  });

  it('UNION over two requests', async () => {
    const r = await node.req('POST', '/_sql', {
      query:
        'SELECT tag FROM nums WHERE n < 3 UNION SELECT tag FROM nums WHERE n > 10 ORDER BY tag DESC',
    });
    expect(r.json.rows).toEqual([['odd'], ['even']]);
  });

  it('translate?phases names the requests and the in-memory steps', async () => {
    const r = await node.req('POST', '/_sql/translate?phases', {
      query: 'SELECT n FROM nums UNION ALL SELECT n FROM nums ORDER BY n LIMIT 3',
    });
    expect(r.status).toBe(200);
    expect(r.json.requests).toHaveLength(2);
    expect(r.json.requests[0].indices).toEqual(['nums']);
    expect(r.json.in_memory).toContain('UNION ALL: rows of request [1] appended');
    const plain = await node.req('POST', '/_sql/translate?phases=true', {
      query: 'SELECT n FROM nums LIMIT 2 OFFSET 1',
    });
    expect(plain.json.requests[0].search.from).toBe(1);
    expect(plain.json.in_memory).toEqual([]);
    const bad = await node.req('POST', '/_sql/translate?nope', { query: 'SELECT n FROM nums' });
    expect(bad.status).toBe(400);
  });

  it('EXPLAIN of a UNION shows each branch and the in-memory steps', async () => {
    const r = await node.req('POST', '/_sql?format=json', {
      query: 'EXPLAIN SELECT n FROM nums UNION SELECT n FROM nums',
    });
    const text = r.json.rows[0][0] as string;
    expect(text).toContain('Branch [1]');
    expect(text).toContain('Union (in memory)');
    expect(text).toContain('UNION: rows of request [1] appended, duplicate rows removed');
  });
});
