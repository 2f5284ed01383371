/**
 * What a clustered node serves while only part of the API is cluster-aware, and which requests
 * it relays to the master: documents, metadata reads, refresh and the master-run metadata changes
 * pass; endpoints named like a type (`/logs/_rollover`) and the APIs not yet cluster-aware are
 * blocked.
 */
import { describe, expect, it } from 'vitest';
import { servedWithoutDataPlane } from '../../../src/http/cluster-gate.js';
import { forwardedToMaster } from '../../../src/http/master-forward.js';

describe('cluster gate', () => {
  it('serves document APIs, with `_doc` and `_all` as types', () => {
    for (const [m, p] of [
      ['PUT', '/logs/_doc/1'],
      ['POST', '/logs/_doc'],
      ['GET', '/logs/_all/1'],
      ['HEAD', '/logs/event/1/_source'],
      ['POST', '/logs/_doc/1/_update'],
      ['PUT', '/logs/_doc/1/_create'],
      ['POST', '/_bulk'],
      ['POST', '/logs/_bulk'],
      ['GET', '/_mget'],
      ['POST', '/logs/_refresh'],
      // shard statistics run on every node's copies (src/cluster/copy-broadcast.ts)
      ['GET', '/_stats'],
      ['GET', '/logs/_stats/docs,store'],
      ['GET', '/logs/_segments'],
      ['GET', '/_shard_stores'],
      ['POST', '/logs/_forcemerge'],
      ['POST', '/_cache/clear'],
      ['POST', '/logs/_flush/synced'],
      ['GET', '/_cat/allocation'],
      ['GET', '/_cat/segments/logs'],
      ['GET', '/_cat/fielddata'],
      ['GET', '/_cluster/stats'],
    ])
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(true);
  });

  it('blocks endpoints that look like documents and APIs that are not cluster-aware', () => {
    for (const [m, p] of [
      ['POST', '/logs/_rollover'],
      ['POST', '/logs/_shrink/small'],
      ['PUT', '/_snapshot/r'],
      ['POST', '/logs/_doc/1/_explain'],
    ])
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(false);
  });

  it('serves metadata reads and the master-run changes', () => {
    expect(servedWithoutDataPlane('GET', '/logs/_mapping')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/logs/_mapping/_doc')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/logs/_settings')).toBe(true);
    expect(servedWithoutDataPlane('POST', '/_aliases')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/_all/_alias/a')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/_template/t')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/_cluster/settings')).toBe(true);
  });

  it('relays alias, template and cluster settings changes to the master, not reads', () => {
    expect(forwardedToMaster('POST', '/_aliases')).toBe(true);
    expect(forwardedToMaster('DELETE', '/logs/_alias/a')).toBe(true);
    expect(forwardedToMaster('PUT', '/_template/t')).toBe(true);
    expect(forwardedToMaster('PUT', '/_cluster/settings')).toBe(true);
    expect(forwardedToMaster('GET', '/_template/t')).toBe(false);
    expect(forwardedToMaster('GET', '/logs/_alias/a')).toBe(false);
    expect(forwardedToMaster('PUT', '/logs/_doc/1')).toBe(false);
  });
});
