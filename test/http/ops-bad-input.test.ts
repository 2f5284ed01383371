/**
 * Bad input to the operations APIs gets ES 6.8's errors: status, error.type and reason as ES
 * words them (ConfigurationUtils, GrokProcessor.Factory with joni's messages, MustacheScriptEngine,
 * SnapshotsService, FsRepository via RepositoriesService, IndexMetaData.selectShrinkShards).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const repoDir = mkdtempSync(join(tmpdir(), 'quarry-badops-'));
const outside = mkdtempSync(join(tmpdir(), 'quarry-badops-out-'));

beforeAll(async () => {
  node = await startTestNode(undefined, { 'path.repo': repoDir });
});

afterAll(async () => {
  await node?.destroy();
  rmSync(repoDir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** The error body ES gives for one exception (no cause), root cause alike. */
function expectError(
  r: { status: number; json: any },
  status: number,
  type: string,
  reason: string,
) {
  expect(r.status).toBe(status);
  expect(r.json.status).toBe(status);
  expect(r.json.error.type).toBe(type);
  expect(r.json.error.reason).toBe(reason);
  expect(r.json.error.root_cause[0].type).toBe(type);
  expect(r.json.error.root_cause[0].reason).toBe(reason);
}

describe('operations APIs: bad input', () => {
  it('an unknown ingest processor type', async () => {
    const r = await node.req('PUT', '/_ingest/pipeline/p1', { processors: [{ nope: { field: 'a' } }] }); // prettier-ignore
    expectError(r, 400, 'parse_exception', 'No processor type exists with name [nope]');
    expect(r.json.error.header).toEqual({ processor_type: 'nope' });
    expect((await node.req('GET', '/_ingest/pipeline/p1')).status).toBe(404);
  });

  it('a grok pattern that does not compile', async () => {
    const bad = async (pattern: string, why: string) => {
      const r = await node.req('PUT', '/_ingest/pipeline/g', { processors: [{ grok: { field: 'm', patterns: [pattern] } }] }); // prettier-ignore
      expectError(r, 400, 'parse_exception', `[patterns] Invalid regex pattern found in: [${pattern}]. ${why}`); // prettier-ignore
      expect(r.json.error.header).toEqual({ processor_type: 'grok', property_name: 'patterns' });
    };
    await bad('%{NOPE:x}', "Unable to find pattern [NOPE] in Grok's pattern dictionary");
    // the regex engine's own words (joni, as Oniguruma)
    await bad('(unclosed %{WORD:w}', 'end pattern with unmatched parenthesis');
    await bad('%{WORD:w})', 'unmatched close parenthesis');
    await bad('*%{WORD:w}', 'target of repeat operator is not specified');
    await bad('[abc %{WORD:w}', 'premature end of char-class');
    expect((await node.req('GET', '/_ingest/pipeline/g')).status).toBe(404);
  });

  it('a mustache template that does not parse', async () => {
    // MustacheScriptEngine.compile: a ScriptException (400) with mustache.java's message
    const expectMustache = (r: { status: number; json: any }, reason: string, source: string) => {
      expect(r.status).toBe(400);
      expect(r.json.error.type).toBe('script_exception');
      expect(r.json.error.reason).toBe(reason);
      expect(r.json.error.script).toBe(source);
      expect(r.json.error.lang).toBe('mustache');
      expect(r.json.error.caused_by.type).toBe('mustache_exception');
    };
    const unclosed = '{"query":{"match":{"a":"{{#q}}x"}}}';
    expectMustache(await node.req('POST', '/_render/template', { source: unclosed, params: {} }), "Failed to close 'q' tag @[query-template:1]", unclosed); // prettier-ignore
    await node.req('PUT', '/tpl', {});
    expectMustache(await node.req('POST', '/tpl/_search/template', { source: unclosed, params: {} }), "Failed to close 'q' tag @[query-template:1]", unclosed); // prettier-ignore
    // the message the ES REST tests match (lang_mustache/20_render_search_template.yml)
    const triple = '{"query":{"match":{"text":"{{{my_value}}"}}}';
    const r = await node.req('POST', '/_render/template', { source: triple, params: { my_value: 'x' } }); // prettier-ignore
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toMatch(/Improperly.closed.variable.in.query-template/);
  });

  it('a snapshot name that exists', async () => {
    await node.req('PUT', '/_snapshot/repo', { type: 'fs', settings: { location: 'r' } });
    expect((await node.req('PUT', '/_snapshot/repo/s1?wait_for_completion=true')).status).toBe(200);
    const r = await node.req('PUT', '/_snapshot/repo/s1?wait_for_completion=true');
    expectError(r, 400, 'invalid_snapshot_name_exception', '[repo:s1] Invalid snapshot name [s1], snapshot with the same name already exists'); // prettier-ignore
    expect((await node.req('GET', '/_snapshot/repo/_all')).json.snapshots).toHaveLength(1);
  });

  it('a repository location outside path.repo', async () => {
    const r = await node.req('PUT', '/_snapshot/out', { type: 'fs', settings: { location: outside } }); // prettier-ignore
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('repository_exception');
    expect(r.json.error.reason).toBe('[out] failed to create repository');
    expect(r.json.error.root_cause[0].reason).toBe('[out] failed to create repository');
    expect(r.json.error.caused_by).toEqual({
      type: 'repository_exception',
      reason: `[out] location [${outside}] doesn't match any of the locations specified by path.repo`, // prettier-ignore
    });
    // a relative one climbing out is refused alike
    const up = await node.req('PUT', '/_snapshot/up', { type: 'fs', settings: { location: '../x' } }); // prettier-ignore
    expect(up.status).toBe(500);
    expect(up.json.error.caused_by.reason).toBe("[up] location [../x] doesn't match any of the locations specified by path.repo"); // prettier-ignore
    expect((await node.req('GET', '/_snapshot/out')).status).toBe(404);
  });

  it('a _shrink to a shard count that does not divide the source', async () => {
    await node.req('PUT', '/src', { settings: { number_of_shards: 4, number_of_replicas: 0, 'index.blocks.write': true } }); // prettier-ignore
    const r = await node.req('POST', '/src/_shrink/dst', { settings: { 'index.number_of_shards': 3 } }); // prettier-ignore
    // (sic: ES says "must be a" twice)
    expectError(r, 400, 'illegal_argument_exception', 'the number of source shards [4] must be a must be a multiple of [3]'); // prettier-ignore
    expect((await node.req('HEAD', '/dst')).status).toBe(404);
  });
});
