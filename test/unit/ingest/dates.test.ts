import { describe, expect, it } from 'vitest';
import { newIngestDocument, sourceOf } from '../../../src/ingest/document.js';
import { executePipeline } from '../../../src/ingest/processor.js';
import { pipelineOf, rootFailure, run } from './helpers.js';

describe('date', () => {
  it('parses with formats and a time zone, printing ISO in that zone', () => {
    expect(run([{ date: { field: 'd', formats: ['dd/MM/yyyy'], timezone: 'Europe/Amsterdam' } }], { d: '12/06/2010' })).toEqual({ d: '12/06/2010', '@timestamp': '2010-06-12T00:00:00.000+02:00' }); // prettier-ignore
    expect(run([{ date: { field: 'd', target_field: 't', formats: ['UNIX'] } }], { d: '1500000000' })).toEqual({ d: '1500000000', t: '2017-07-14T02:40:00.000Z' }); // prettier-ignore
    expect(run([{ date: { field: 'd', target_field: 't', formats: ['UNIX_MS'] } }], { d: 1500000000123 })).toEqual({ d: 1500000000123, t: '2017-07-14T02:40:00.123Z' }); // prettier-ignore
    expect(run([{ date: { field: 'd', target_field: 't', formats: ['yyyy', 'ISO8601'] } }], { d: '2016-03-01T10:00:00Z' })).toEqual({ d: '2016-03-01T10:00:00Z', t: '2016-03-01T10:00:00.000Z' }); // prettier-ignore
  });

  it('fills a missing year with the current one, and reads TAI64N', () => {
    const y = new Date().getUTCFullYear();
    expect(run([{ date: { field: 'd', target_field: 't', formats: ['dd/MM'] } }], { d: '12/06' })).toEqual({ d: '12/06', t: `${y}-06-12T00:00:00.000Z` }); // prettier-ignore
    expect(run([{ date: { field: 'd', target_field: 't', formats: ['TAI64N'] } }], { d: '@4000000050d506482dbdf024' })).toEqual({ d: '@4000000050d506482dbdf024', t: '2012-12-22T01:00:46.767Z' }); // prettier-ignore
  });

  it('fails with ES message when no format parses', () => {
    expect(rootFailure(() => run([{ date: { field: 'd', formats: ['yyyy'] } }], { d: 'x' })).reason).toMatch(/Invalid format|unable to parse|Cannot parse/); // prettier-ignore
  });
});

describe('date_index_name', () => {
  it('routes to a date math index name', () => {
    const p = pipelineOf([{ date_index_name: { field: 'd', index_name_prefix: 'e-', date_rounding: 'd' } }]); // prettier-ignore
    const doc = newIngestDocument({ _index: 'x', _type: '_doc', _id: '1' }, { d: '2016-04-25T12:24:17.000Z' }); // prettier-ignore
    const r = executePipeline(p, doc, { getPipeline: () => undefined, executing: new Set(), trace: null }); // prettier-ignore
    expect(r!.sourceAndMetadata._index).toBe('<e-{2016-04-25||/d{yyyy-MM-dd|UTC}}>');
    expect(sourceOf(r!)).toEqual({ d: '2016-04-25T12:24:17.000Z' });
  });
});
