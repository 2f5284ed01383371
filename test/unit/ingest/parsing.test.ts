import { describe, expect, it } from 'vitest';
import { builtinPatterns, compileGrok, grokMatch } from '../../../src/ingest/grok.js';
import { compileDissect, dissect } from '../../../src/ingest/dissect.js';
import { rootFailure, run, runDoc } from './helpers.js';

describe('grok', () => {
  it('loads the 6.8 pattern bank and compiles every pattern', () => {
    const bank = builtinPatterns();
    expect(Object.keys(bank)).toHaveLength(303);
    expect(bank.PATH).toBe('(?:%{UNIXPATH}|%{WINPATH})');
    for (const name of Object.keys(bank)) expect(() => compileGrok([`%{${name}}`], { ...bank })).not.toThrow(); // prettier-ignore
  });

  it('captures typed fields', () => {
    expect(run([{ grok: { field: 'm', patterns: ['%{NUMBER:val:float} %{NUMBER:status:int} <%{WORD:msg}>'] } }], { m: '123.42 400 <foo>' })).toEqual({ m: '123.42 400 <foo>', val: 123.42, status: 400, msg: 'foo' }); // prettier-ignore
    const g = compileGrok(['%{IP:client.ip} %{WORD:verb}'], { ...builtinPatterns() });
    expect(grokMatch(g, '10.0.0.1 GET')?.fields).toEqual({ 'client.ip': '10.0.0.1', verb: 'GET' });
    expect(grokMatch(g, 'nothing')).toBeNull();
  });

  it('uses pattern_definitions, trace_match and reports mismatches', () => {
    const doc = runDoc([{ grok: { field: 'f', patterns: ['%{ONE:one}', '%{TWO:two}'], pattern_definitions: { ONE: '1', TWO: '2' }, trace_match: true } }], { f: 'abc2xyz' }); // prettier-ignore
    expect(doc!.sourceAndMetadata.two).toBe('2');
    expect(doc!.ingestMetadata._grok_match_index).toBe('1');
    expect(rootFailure(() => run([{ grok: { field: 'f', patterns: ['%{INT:n}'] } }], { f: 'x' })).reason).toBe('Provided Grok expressions do not match field value: [x]'); // prettier-ignore
  });

  it('rejects unknown patterns at creation', () => {
    expect(() => run([{ grok: { field: 'f', patterns: ['%{NOPE:x}'] } }], {})).toThrow(
      "[patterns] Invalid regex pattern found in: [%{NOPE:x}]. Unable to find pattern [NOPE] in Grok's pattern dictionary",
    );
  });
});

describe('dissect', () => {
  it('splits on delimiters with append, skip and padding', () => {
    const d = compileDissect('%{a} %{+a} %{?skip} %{b->} %{c}', ' ');
    expect(dissect(d, 'x y z q    r')).toEqual({ a: 'x y', b: 'q', c: 'r' });
    const r = compileDissect('%{*k}=%{&k}', '');
    expect(dissect(r, 'color=red')).toEqual({ color: 'red' });
    expect(() => dissect(compileDissect('%{a}-%{b}', ''), 'nodash')).toThrow(
      'Unable to find match for dissect pattern: %{a}-%{b} against source: nodash',
    );
    expect(run([{ dissect: { field: 'm', pattern: '%{a} %{b}' } }], { m: '1 2' })).toEqual({ m: '1 2', a: '1', b: '2' }); // prettier-ignore
  });
});

describe('kv', () => {
  it('splits pairs, with include/exclude, prefix and target', () => {
    expect(run([{ kv: { field: 'm', field_split: ' ', value_split: '=' } }], { m: 'a=1 b=2 a=3' })).toEqual({ m: 'a=1 b=2 a=3', a: ['1', '3'], b: '2' }); // prettier-ignore
    expect(run([{ kv: { field: 'm', field_split: '&', value_split: '=', include_keys: ['b'], target_field: 't', prefix: 'p_' } }], { m: 'a=1&b=2' })).toEqual({ m: 'a=1&b=2', t: { p_b: '2' } }); // prettier-ignore
    expect(rootFailure(() => run([{ kv: { field: 'm', field_split: ' ', value_split: '=' } }], { m: 'a' })).reason).toBe('field [m] does not contain value_split [=]'); // prettier-ignore
  });
});
