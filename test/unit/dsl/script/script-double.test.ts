import { describe, expect, it } from 'vitest';
import { deserialize, serialize } from 'node:v8';
import {
  markScriptDoubles,
  ScriptDouble,
  unmarkScriptDoubles,
} from '../../../../src/dsl/script/script-double.js';

describe('ScriptDouble across the wire', () => {
  it('survives structured cloning marked, and comes back as a ScriptDouble', () => {
    const req = { query: { script: { params: { v0: new ScriptDouble(2), v1: 2 } } }, list: [1, new ScriptDouble(3)] }; // prettier-ignore
    const back = unmarkScriptDoubles(deserialize(serialize(markScriptDoubles(req))));
    expect(back.query.script.params.v0).toBeInstanceOf(ScriptDouble);
    expect(back.query.script.params.v0.value).toBe(2);
    expect(back.query.script.params.v1).toBe(2);
    expect(back.list[1]).toBeInstanceOf(ScriptDouble);
  });

  it('returns the same objects when there is nothing to mark', () => {
    const req = { a: { b: [1, 2] }, c: 'x' };
    expect(markScriptDoubles(req)).toBe(req);
    expect(unmarkScriptDoubles(req)).toBe(req);
  });
});
