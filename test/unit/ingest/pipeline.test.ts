import { describe, expect, it } from 'vitest';
import { EsError } from '../../../src/common/errors.js';
import { memoryPipelineStore } from '../../../src/ingest/pipeline-store.js';
import { IngestService } from '../../../src/ingest/service.js';
import { simulate } from '../../../src/ingest/simulate.js';
import { pipelineOf, rootFailure, run, runDoc } from './helpers.js';

const thrown = (f: () => unknown): EsError => {
  try {
    f();
  } catch (e) {
    return e as EsError;
  }
  throw new Error('expected a failure');
};

describe('pipeline configuration errors', () => {
  it('reports missing properties with processor headers', () => {
    const e = thrown(() => pipelineOf([{ set: { tag: 't' } }]));
    expect(e.toErrorObject()).toMatchObject({
      type: 'parse_exception',
      reason: '[field] required property is missing',
      header: { processor_tag: 't', processor_type: 'set', property_name: 'field' },
    });
  });

  it('rejects unknown processors, unknown settings and empty on_failure', () => {
    expect(thrown(() => pipelineOf([{ nope: {} }])).toErrorObject()).toMatchObject({
      type: 'parse_exception',
      reason: 'No processor type exists with name [nope]',
      header: { processor_type: 'nope' },
    });
    expect(thrown(() => pipelineOf([{ set: { field: 'a', value: 1, x: 1 } }])).reason).toBe(
      "processor [set] doesn't support one or more provided configuration parameters [x]",
    );
    expect(thrown(() => pipelineOf([{ fail: { message: 'm', on_failure: [] } }])).reason).toBe(
      '[on_failure] processors list cannot be empty',
    );
    expect(thrown(() => pipelineOf([], { on_failure: [] })).reason).toBe(
      'pipeline [p] cannot have an empty on_failure option defined',
    );
  });
});

describe('running pipelines', () => {
  it('wraps a processor failure as ES does', () => {
    const e = thrown(() => run([{ uppercase: { field: 'x', tag: 'u' } }], {}));
    expect(e.type).toBe('exception');
    expect(e.reason).toBe(
      'java.lang.IllegalArgumentException: java.lang.IllegalArgumentException: field [x] not present as part of path [x]',
    );
    expect(e.meta.header).toEqual({ processor_type: 'uppercase', processor_tag: 'u' });
  });

  it('runs on_failure with the failure fields, and ignore_failure skips', () => {
    const out = run(
      [
        {
          rename: {
            field: 'x',
            target_field: 'y',
            tag: 'r',
            on_failure: [
              { set: { field: 'msg', value: '{{_ingest.on_failure_message}}' } },
              { set: { field: 'type', value: '{{_ingest.on_failure_processor_type}}' } },
              { set: { field: 'tag', value: '{{_ingest.on_failure_processor_tag}}' } },
            ],
          },
        },
        { set: { field: 'after', value: true } },
        { fail: { message: 'no', ignore_failure: true } },
      ],
      {},
    );
    expect(out).toEqual({ msg: "field [x] doesn't exist", type: 'rename', tag: 'r', after: true });
    // fail's message is a template
    expect(rootFailure(() => runDoc([{ fail: { message: 'boom {{a}}' } }], { a: 1 }))).toEqual({
      type: 'fail_processor_exception',
      reason: 'boom 1',
    });
  });

  it('pipeline-level on_failure', () => {
    const p = pipelineOf([{ fail: { message: 'boom' } }], {
      on_failure: [{ set: { field: 'failed', value: '{{_ingest.on_failure_message}}' } }],
    });
    const svc = new IngestService(memoryPipelineStore());
    const r = simulate(svc, null, { pipeline: { processors: [{ fail: { message: 'boom' } }], on_failure: [{ set: { field: 'failed', value: '{{_ingest.on_failure_message}}' } }] }, docs: [{ _source: {} }] }, false); // prettier-ignore
    expect((r.docs as any)[0].doc._source).toEqual({ failed: 'boom' });
    expect(p.compound.onFailure).toHaveLength(1);
  });

  it('if conditions, drop, foreach and script', () => {
    expect(run([{ set: { field: 'y', value: 1, if: "ctx.x == 'a'" } }], { x: 'b' })).toEqual({ x: 'b' }); // prettier-ignore
    expect(run([{ set: { field: 'y', value: 1, if: "ctx.x == 'a'" } }], { x: 'a' })).toEqual({ x: 'a', y: 1 }); // prettier-ignore
    expect(run([{ drop: { if: 'ctx.x == 1' } }, { set: { field: 'y', value: 1 } }], { x: 1 })).toBeNull(); // prettier-ignore
    expect(run([{ foreach: { field: 'l', processor: { uppercase: { field: '_ingest._value' } } } }], { l: ['a', 'b'] })).toEqual({ l: ['A', 'B'] }); // prettier-ignore
    expect(run([{ script: { source: 'ctx.n = ctx.n + params.k', params: { k: 2 } } }], { n: 1 })).toEqual({ n: 3 }); // prettier-ignore
    expect(run([{ script: { source: 'ctx.b = Processors.bytes(ctx.s)' } }], { s: '2kb' })).toEqual({ s: '2kb', b: 2048 }); // prettier-ignore
  });

  it('pipeline processor calls stored pipelines and detects cycles', () => {
    const inner = pipelineOf([{ set: { field: 'inner', value: true } }]);
    expect(run([{ pipeline: { name: 'in' } }], {}, { in: inner })).toEqual({ inner: true });
    const a = pipelineOf([{ pipeline: { name: 'b' } }]);
    const b = pipelineOf([{ pipeline: { name: 'a' } }]);
    const cyc = { a: { ...a, id: 'a' }, b: { ...b, id: 'b' } };
    expect(rootFailure(() => run([{ pipeline: { name: 'a' } }], {}, cyc)).reason).toBe(
      'Cycle detected for pipeline: a',
    );
  });
});

describe('verbose simulate', () => {
  it('records each processor, on_failure ones and ignored errors', () => {
    const svc = new IngestService(memoryPipelineStore());
    const r = simulate(
      svc,
      null,
      {
        pipeline: {
          processors: [
            { set: { tag: 's', field: 'a', value: 1 } },
            { rename: { tag: 'r', field: 'x', target_field: 'y', ignore_failure: true } },
            { rename: { field: 'x', target_field: 'y', on_failure: [{ set: { field: 'f', value: 1 } }] } }, // prettier-ignore
          ],
        },
        docs: [{ _index: 'i', _source: {} }],
      },
      true,
    );
    const res = (r.docs as any)[0].processor_results;
    expect(res).toHaveLength(4);
    expect(res[0]).toMatchObject({ tag: 's', doc: { _index: 'i', _type: '_type', _id: '_id', _source: { a: 1 } } }); // prettier-ignore
    expect(res[1]).toMatchObject({ tag: 'r', ignored_error: { error: { type: 'illegal_argument_exception' } } }); // prettier-ignore
    expect(res[2].error.reason).toBe("field [x] doesn't exist");
    expect(res[3].doc._source).toEqual({ a: 1, f: 1 });
  });
});

describe('processor stats', () => {
  it('counts each top-level processor under ES names, conditionals only when they ran', async () => {
    const svc = new IngestService(memoryPipelineStore());
    await svc.put('s', {
      processors: [
        { set: { field: 'a', value: 1, tag: 't' } },
        { set: { field: 'b', value: 1, if: 'ctx.x == 1' } },
        { fail: { message: 'm', ignore_failure: true } },
      ],
    });
    svc.run('s', { _index: 'i', _type: '_doc', _id: '1' }, { x: 2 });
    const st = svc.stats();
    expect(st.total).toMatchObject({ count: 1, current: 0, failed: 0 });
    expect(st.pipelines.s!.processors).toEqual([
      { 'set:t': expect.objectContaining({ count: 1, failed: 0 }) },
      { set: expect.objectContaining({ count: 0 }) },
      { fail: expect.objectContaining({ count: 1, failed: 1 }) },
    ]);
  });
});

describe('compiled pipelines', () => {
  const meta = { _index: 'i', _type: '_doc', _id: '1' };
  const setX = (v: string) => ({ processors: [{ set: { field: 'x', value: v } }] });
  const xOf = (svc: IngestService, id: string) => {
    const r = svc.run(id, meta, {});
    return r.kind === 'document' ? r.source.x : null;
  };

  it('are reused between documents and follow every change of the definitions', async () => {
    const store = memoryPipelineStore();
    const svc = new IngestService(store);
    await svc.put('p', setX('a'));
    expect(svc.pipeline('p')).toBe(svc.pipeline('p'));
    expect(xOf(svc, 'p')).toBe('a');
    await svc.put('p', setX('b'));
    expect(xOf(svc, 'p')).toBe('b');
    await svc.replaceAll({ p: setX('c'), q: setX('d') });
    expect([xOf(svc, 'p'), xOf(svc, 'q')]).toEqual(['c', 'd']);
    await svc.replaceAll({ q: setX('d') });
    expect(svc.pipeline('p')).toBeUndefined();
    await svc.delete('q');
    expect(() => svc.run('q', meta, {})).toThrow('pipeline with id [q] does not exist');
  });

  it('are built from the store when another service instance wrote it', async () => {
    const store = memoryPipelineStore();
    await new IngestService(store).put('p', setX('a'));
    expect(xOf(new IngestService(store), 'p')).toBe('a');
  });
});
