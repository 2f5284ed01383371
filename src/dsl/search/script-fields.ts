/**
 * `script_fields` (ES ScriptFieldsFetchSubPhase): each script runs per fetched hit with `doc`
 * (doc values) and `params` (with `params._source`); a list result becomes the field's values,
 * anything else a single value. `ignore_failure` drops the field when the script throws.
 */
import type { IndexService } from '../../engine/index-service.js';
import { lookupField } from '../../mapping/index.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import {
  compileScript,
  parseScriptSpec,
  SegmentDocLookup,
  type ScriptMethods,
} from '../script/index.js';
import type { ScriptFieldSpec } from './request.js';

export interface ScriptFieldRunner {
  name: string;
  /** The field's values for one doc, or null when it failed and failures are ignored. */
  run(ls: LiveSegment, doc: number, source: () => unknown): unknown[] | null;
}

export function compileScriptFields(
  specs: readonly ScriptFieldSpec[],
  idx: IndexService,
  methods: ScriptMethods | undefined,
  warnings: string[],
): ScriptFieldRunner[] {
  return specs.map((spec) => {
    const s = parseScriptSpec(spec.script);
    const cs = compileScript(s.source, {
      lang: s.lang,
      params: s.params,
      ...(methods ? { methods } : {}),
    });
    const lookup = new SegmentDocLookup(
      (path) => (idx.mapping ? lookupField(idx.mapping, path) : undefined),
      undefined,
      (m) => warnings.push(m),
    );
    let seg: LiveSegment | null = null;
    return {
      name: spec.name,
      run(ls, doc, source) {
        if (ls !== seg) {
          lookup.setSegment(ls);
          seg = ls;
        }
        lookup.setDoc(doc);
        lookup.setSource(source);
        let v: unknown;
        try {
          const params = { ...s.params };
          Object.defineProperty(params, '_source', { get: source, enumerable: true });
          v = cs.evaluate({ doc: lookup, params });
        } catch (e) {
          if (spec.ignoreFailure) return null;
          throw e;
        }
        return Array.isArray(v) ? v : [v];
      },
    };
  });
}
