/**
 * Ingest over HTTP on a real node: pipeline CRUD with ES's 404 bodies, pipelines on index, bulk
 * and default_pipeline, a dropped document, simulate, the grok pattern bank, and pipelines
 * surviving a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const dir = mkdtempSync(join(tmpdir(), 'quarry-ingest-'));

beforeAll(async () => {
  node = await startTestNode(dir);
}, 30_000);

afterAll(async () => {
  await node?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const upper = { description: 'up', processors: [{ uppercase: { field: 'f' } }] };

describe('pipeline CRUD', () => {
  it('puts, gets (also by wildcard) and deletes', async () => {
    expect((await node.req('PUT', '/_ingest/pipeline/up', upper)).json).toEqual({ acknowledged: true }); // prettier-ignore
    expect((await node.req('GET', '/_ingest/pipeline/up')).json).toEqual({ up: upper });
    expect((await node.req('GET', '/_ingest/pipeline/u*')).json).toEqual({ up: upper });
    expect((await node.req('GET', '/_ingest/pipeline')).json.up).toEqual(upper);
    const missing = await node.req('GET', '/_ingest/pipeline/none');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({});
    const del = await node.req('DELETE', '/_ingest/pipeline/zz*');
    expect(del.status).toBe(404);
    expect(del.json.error).toMatchObject({ type: 'resource_not_found_exception', reason: 'pipeline [zz*] is missing' }); // prettier-ignore
  });

  it('refuses invalid definitions with ES bodies', async () => {
    const r = await node.req('PUT', '/_ingest/pipeline/bad', { processors: [{ nope: {} }] });
    expect(r.status).toBe(400);
    expect(r.json.error.root_cause[0]).toEqual({
      type: 'parse_exception',
      reason: 'No processor type exists with name [nope]',
      header: { processor_type: 'nope' },
    });
  });
});

describe('pipelines on writes', () => {
  it('runs the pipeline parameter on index and bulk', async () => {
    await node.req('PUT', '/_ingest/pipeline/up', upper);
    expect((await node.req('PUT', '/w/_doc/1?pipeline=up&refresh=true', { f: 'a' })).status).toBe(201); // prettier-ignore
    expect((await node.req('GET', '/w/_doc/1')).json._source).toEqual({ f: 'A' });
    const bulk = await node.req(
      'POST',
      '/_bulk?refresh=true',
      '{"index":{"_index":"w","_type":"_doc","_id":"2","pipeline":"up"}}\n{"f":"b"}\n{"index":{"_index":"w","_type":"_doc","_id":"3","pipeline":"up"}}\n{"g":"c"}\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(bulk.json.errors).toBe(true);
    expect(bulk.json.ingest_took).toBeGreaterThanOrEqual(0);
    expect(bulk.json.items[1].index.error.type).toBe('exception');
    expect((await node.req('GET', '/w/_doc/2')).json._source).toEqual({ f: 'B' });
  });

  it('uses index.default_pipeline unless _none, and answers a drop with a noop', async () => {
    await node.req('PUT', '/d', { settings: { 'index.default_pipeline': 'up' } });
    await node.req('PUT', '/d/_doc/1', { f: 'x' });
    await node.req('PUT', '/d/_doc/2?pipeline=_none', { f: 'x' });
    expect((await node.req('GET', '/d/_doc/1')).json._source).toEqual({ f: 'X' });
    expect((await node.req('GET', '/d/_doc/2')).json._source).toEqual({ f: 'x' });
    await node.req('PUT', '/_ingest/pipeline/dropper', { processors: [{ drop: {} }] });
    const r = await node.req('PUT', '/d/_doc/3?pipeline=dropper', { f: 'x' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      _index: 'd',
      _type: '_doc',
      _id: '3',
      _version: -3,
      result: 'noop',
      _shards: { total: 0, successful: 0, failed: 0 },
    });
    expect((await node.req('GET', '/d/_doc/3')).status).toBe(404);
  });
});

describe('update_by_query', () => {
  it('runs the pipeline parameter on each document', async () => {
    await node.req('PUT', '/_ingest/pipeline/up', upper);
    await node.req('PUT', '/q/_doc/1?refresh=true', { f: 'm' });
    const r = await node.req('POST', '/q/_update_by_query?pipeline=up&refresh=true');
    expect(r.json.updated).toBe(1);
    expect((await node.req('GET', '/q/_doc/1')).json._source).toEqual({ f: 'M' });
  });
});

describe('simulate and grok', () => {
  it('simulates a stored pipeline', async () => {
    const r = await node.req('POST', '/_ingest/pipeline/up/_simulate', {
      docs: [{ _source: { f: 'q' } }],
    });
    expect(r.json.docs[0].doc).toMatchObject({ _index: '_index', _source: { f: 'Q' } });
    expect(typeof r.json.docs[0].doc._ingest.timestamp).toBe('string');
  });

  it('lists the grok pattern bank', async () => {
    const r = await node.req('GET', '/_ingest/processor/grok');
    expect(Object.keys(r.json.patterns)).toHaveLength(303);
  });
});

describe('persistence', () => {
  it('keeps pipelines across a restart', async () => {
    await node.req('PUT', '/_ingest/pipeline/kept', upper);
    await node.close();
    node = await startTestNode(dir);
    expect((await node.req('GET', '/_ingest/pipeline/kept')).json).toEqual({ kept: upper });
  }, 30_000);
});
