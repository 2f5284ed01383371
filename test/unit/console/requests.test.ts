/** The Dev Tools buffer: requests split at method lines, the one under the cursor, bodies sent. */
import { describe, expect, it } from 'vitest';
import {
  bodyToSend,
  parseRequests,
  requestAt,
  splitJsonValues,
} from '../../../console/src/requests.js';

const BUFFER = `# a comment
GET /_cluster/health

GET bank/_search
{
  "query": { "match_all": {} }
}

POST /_bulk
{ "index": { "_index": "t", "_id": "1" } }
{ "a": 1 }
`;

describe('console request buffer', () => {
  it('splits the buffer at method lines, with bodies and paths given a leading slash', () => {
    const reqs = parseRequests(BUFFER);
    expect(reqs.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/_cluster/health'],
      ['GET', '/bank/_search'],
      ['POST', '/_bulk'],
    ]);
    expect(reqs[0]!.body).toBe('');
    expect(JSON.parse(reqs[1]!.body)).toEqual({ query: { match_all: {} } });
    expect(BUFFER.slice(reqs[1]!.from, reqs[1]!.to)).toMatch(/^GET bank\/_search[\s\S]*\}$/);
  });

  it('finds the request under the cursor, none above the first', () => {
    expect(requestAt(BUFFER, 3)).toBeNull();
    expect(requestAt(BUFFER, BUFFER.indexOf('match_all'))!.path).toBe('/bank/_search');
    expect(requestAt(BUFFER, BUFFER.indexOf('"a": 1'))!.path).toBe('/_bulk');
    expect(requestAt(BUFFER, BUFFER.indexOf('health'))!.path).toBe('/_cluster/health');
  });

  it('sends NDJSON APIs one compact line per value, others as written', () => {
    const [, search, bulk] = parseRequests(BUFFER);
    expect(bodyToSend(search!)).toEqual({ text: search!.body, ndjson: false });
    expect(bodyToSend(bulk!)).toEqual({
      text: '{"index":{"_index":"t","_id":"1"}}\n{"a":1}\n',
      ndjson: true,
    });
    expect(bodyToSend(parseRequests('GET /\n')[0]!)).toBeNull();
  });

  it('splits values spanning lines and keeps braces inside strings', () => {
    expect(splitJsonValues('{"a":\n "}{"}\n{"b": [1,\n2]}')).toEqual(['{"a":"}{"}', '{"b":[1,2]}']);
  });
});
