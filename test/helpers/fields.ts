/** Hand-built field mappings and parsed documents for search-layer unit tests. */
import type {
  FieldMapping,
  FieldType,
  ParsedDocument,
  ParsedValue,
} from '../../src/mapping/types.js';
import { AnalysisRegistry } from '../../src/search/analysis/index.js';
import type { AnalysisResolver } from '../../src/search/index/segment-builder.js';

export function field(
  path: string,
  type: FieldType,
  extra: Partial<FieldMapping> = {},
): FieldMapping {
  const isText = type === 'text';
  return {
    kind: 'field',
    type,
    path,
    name: path.split('.').pop()!,
    index: true,
    docValues: !isText,
    store: false,
    indexOptions: isText ? 'positions' : 'docs',
    norms: isText,
    boost: 1,
    ...(isText ? { analyzer: 'standard', positionIncrementGap: 100 } : {}),
    copyTo: [],
    fields: new Map(),
    json: { type },
    ...extra,
  };
}

export function doc(values: Array<[FieldMapping, ParsedValue['value']]>): ParsedDocument {
  const names = new Set<string>();
  for (const [f] of values) names.add(f.path);
  return {
    values: values.map(([f, value]) => ({ field: f, value })),
    fieldNames: names,
    dynamicUpdate: null,
    ignored: [],
    present: [],
    nested: [],
  };
}

export const standardResolver: AnalysisResolver = {
  indexAnalyzer: (f) => AnalysisRegistry.builtin.analyzer(f.analyzer ?? 'standard')!,
  normalize: (_f, v) => v,
};
