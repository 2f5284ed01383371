/**
 * What a clustered node serves while only part of the API is cluster-aware, and which requests
 * it relays to the master: documents, metadata reads, refresh and the master-run metadata changes
 * pass; endpoints named like a type (`/logs/_bogus/t`) and the APIs not yet cluster-aware are
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
      ['POST', '/logs/_doc/1/_explain'],
      ['GET', '/logs/_doc/1/_termvectors'],
      ['POST', '/logs/_doc/_termvectors'],
      ['POST', '/_mtermvectors'],
      ['POST', '/logs/_mtermvectors'],
      ['POST', '/logs/_doc/_mtermvectors'],
      ['GET', '/_analyze'],
      ['GET', '/_cat/nodeattrs'],
      ['GET', '/_cat/thread_pool/search'],
      ['GET', '/_cat/tasks'],
      ['GET', '/_tasks/abc:1'],
      ['GET', '/_tasks'],
      ['GET', '/_remote/info'],
      ['PUT', '/_snapshot/r'],
      ['GET', '/_snapshot'],
      ['DELETE', '/_snapshot/r'],
      ['POST', '/_snapshot/r/_verify'],
      ['GET', '/_cat/repositories'],
      ['POST', '/logs/_analyze'],
      ['GET', '/_validate/query'],
      ['POST', '/logs/_doc/_validate/query'],
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
      ['POST', '/logs/_bogus/t'],
      ['GET', '/_xpack/watcher/stats'],
    ])
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(false);
  });

  it('relays shrink and split to the master, and serves task cancellation', () => {
    for (const [m, p] of [
      ['POST', '/logs/_shrink/t'],
      ['PUT', '/logs/_split/t'],
    ]) {
      expect(forwardedToMaster(m!, p!), `${m} ${p}`).toBe(true);
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(true);
    }
    expect(servedWithoutDataPlane('POST', '/_tasks/_cancel')).toBe(true);
    expect(servedWithoutDataPlane('POST', '/_tasks/abc:1/_cancel')).toBe(true);
    expect(forwardedToMaster('POST', '/_tasks/_cancel')).toBe(false);
  });

  it('serves by-query tasks, reindex, their rethrottle, and SQL', () => {
    for (const [m, p] of [
      ['POST', '/logs/_delete_by_query'],
      ['POST', '/_reindex'],
      ['POST', '/logs,other/_doc/_update_by_query'],
      ['POST', '/_all/_update_by_query'],
      ['POST', '/_delete_by_query/abc:12/_rethrottle'],
      ['POST', '/_reindex/abc:12/_rethrottle'],
      ['POST', '/_sql'],
      ['GET', '/_xpack/sql'],
      ['POST', '/_sql/translate'],
      ['POST', '/_xpack/sql/close'],
    ])
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(true);
    for (const [m, p] of [
      ['POST', '/_delete_by_query'],
      ['POST', '/_sql/other'],
      ['POST', '/_reindex/abc:12'],
    ])
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(false);
  });

  it('serves snapshots (shared-filesystem repositories)', () => {
    for (const [m, p] of [
      ['PUT', '/_snapshot/r/s1'],
      ['GET', '/_snapshot/r/_all'],
      ['GET', '/_snapshot/_status'],
      ['GET', '/_snapshot/r/s1/_status'],
      ['POST', '/_snapshot/r/s1/_restore'],
      ['GET', '/_cat/snapshots/r'],
    ])
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(true);
  });

  it('serves searches, ranking evaluations, scroll pages and clear-scroll', () => {
    for (const [m, p] of [
      ['POST', '/logs/_search'],
      ['POST', '/_msearch'],
      ['GET', '/_rank_eval'],
      ['POST', '/logs,other/_rank_eval'],
      ['GET', '/_search/scroll'],
      ['POST', '/_search/scroll/abc'],
      ['DELETE', '/_search/scroll'],
      ['DELETE', '/_search/scroll/_all'],
    ])
      expect(servedWithoutDataPlane(m!, p!), `${m} ${p}`).toBe(true);
  });

  it('serves metadata reads and the master-run changes', () => {
    expect(servedWithoutDataPlane('GET', '/logs/_mapping')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/logs/_mapping/_doc')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/logs/_settings')).toBe(true);
    expect(servedWithoutDataPlane('POST', '/_aliases')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/_all/_alias/a')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/_template/t')).toBe(true);
    expect(servedWithoutDataPlane('PUT', '/_cluster/settings')).toBe(true);
    // an invalid name the router gave to GET /{index} (refused there as ES does)
    expect(servedWithoutDataPlane('GET', '/_foo', { index: '_foo' })).toBe(true);
    expect(servedWithoutDataPlane('GET', '/_foo')).toBe(false);
  });

  it('relays alias, template and cluster settings changes to the master, not reads', () => {
    expect(forwardedToMaster('POST', '/_aliases')).toBe(true);
    expect(forwardedToMaster('POST', '/logs/_rollover')).toBe(true);
    expect(forwardedToMaster('PUT', '/_snapshot/r')).toBe(true);
    expect(forwardedToMaster('GET', '/_snapshot/r')).toBe(false);
    expect(forwardedToMaster('PUT', '/_snapshot/r/s1')).toBe(false);
    expect(forwardedToMaster('POST', '/logs/_rollover/logs-2')).toBe(true);
    expect(forwardedToMaster('DELETE', '/logs/_alias/a')).toBe(true);
    expect(forwardedToMaster('PUT', '/_template/t')).toBe(true);
    expect(forwardedToMaster('PUT', '/_cluster/settings')).toBe(true);
    expect(forwardedToMaster('GET', '/_template/t')).toBe(false);
    expect(forwardedToMaster('GET', '/logs/_alias/a')).toBe(false);
    expect(forwardedToMaster('PUT', '/logs/_doc/1')).toBe(false);
  });

  it('runs the painless execute API where it is asked; stored script changes on the master', () => {
    expect(servedWithoutDataPlane('POST', '/_scripts/painless/_execute')).toBe(true);
    expect(servedWithoutDataPlane('GET', '/_scripts/painless/_execute')).toBe(true);
    expect(forwardedToMaster('POST', '/_scripts/painless/_execute')).toBe(false);
    expect(forwardedToMaster('POST', '/_scripts/s1')).toBe(true);
    expect(forwardedToMaster('PUT', '/_scripts/painless/search')).toBe(true);
  });
});
