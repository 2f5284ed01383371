/**
 * Mappings for fields a document introduces (ES DocumentParser.createBuilderFromDynamicValue and
 * RootObjectMapper.findTemplateBuilder): dynamic templates first, then 6.8's defaults — strings
 * to text + `keyword` sub-field (ignore_above 256) unless date/numeric detection applies, whole
 * numbers to long, decimals to float, booleans to boolean, objects to object.
 */
import type { MappingContext } from './context.js';
import type { Def, FieldDef, ObjectDef, RootDef } from './model.js';
import type { FieldCore } from './model.js';
import { DEFAULT_DATE_FORMAT, TYPE_DEFAULTS } from './model.js';
import type { FieldType } from './types.js';
import {
  DEFAULT_MAPPING_TYPE,
  findTemplate,
  templateMappingFor,
  templateMappingType,
} from './dynamic-templates.js';
import type { MatchType } from './dynamic-templates.js';
import { parseTemplateDef } from './parse-mapping.js';
import { tryParseJavaDouble, tryParseJavaLong } from './java-numbers.js';
import { builtinParseDate } from './dates.js';

/** A FieldDef with a type's defaults (ES `new XFieldMapper.Builder(name)`). */
export function defaultFieldDef(
  name: string,
  type: FieldType,
  extra: Partial<FieldCore> = {},
): FieldDef {
  const d = TYPE_DEFAULTS[type];
  const core: Record<string, unknown> = {
    type,
    index: d.index,
    docValues: d.docValues,
    store: false,
    indexOptions: d.indexOptions,
    norms: d.norms,
    boost: 1,
    copyTo: [],
  };
  if (type === 'text') {
    core.analyzer = 'default';
    core.searchAnalyzer = 'default';
    core.searchQuoteAnalyzer = 'default';
  }
  if (type === 'long' || type === 'float') {
    core.coerce = true;
    core.ignoreMalformed = false;
  }
  if (type === 'date') {
    core.ignoreMalformed = false;
    core.format = DEFAULT_DATE_FORMAT;
  }
  Object.assign(core, extra);
  return { kind: 'field', name, core: core as unknown as FieldCore, fields: new Map() };
}

/** text with `fields.keyword {type: keyword, ignore_above: 256}` (ES 6 string default). */
function textWithKeyword(name: string): FieldDef {
  const kw = defaultFieldDef('keyword', 'keyword', { ignoreAbove: 256 });
  const text = defaultFieldDef(name, 'text');
  return { ...text, fields: new Map([['keyword', kw]]) };
}

export function newObjectDef(name: string): ObjectDef {
  return {
    kind: 'object',
    name,
    type: 'object',
    enabled: true,
    includeInParent: false,
    includeInRoot: false,
    properties: new Map(),
  };
}

export interface DynamicCtx {
  readonly root: RootDef;
  readonly ctx: MappingContext;
}

/** ES RootObjectMapper.findTemplateBuilder(context, name, dynamicType, matchType). */
export function templateDef(
  dc: DynamicCtx,
  path: string,
  name: string,
  matchType: MatchType,
  dynamicType = DEFAULT_MAPPING_TYPE[matchType],
): Def | undefined {
  const templates = dc.root.dynamicTemplates.value;
  if (templates.length === 0) return undefined;
  const t = findTemplate(templates, path, name, matchType);
  if (!t) return undefined;
  const type = templateMappingType(t, dynamicType);
  return parseTemplateDef(name, type, templateMappingFor(t, name, dynamicType), dc.ctx);
}

const parseDate = (dc: DynamicCtx, text: string, format: string): boolean => {
  try {
    (dc.ctx.parseDate ?? builtinParseDate)(text, format);
    return true;
  } catch {
    return false;
  }
};

/** ES DocumentParser.createBuilderFromDynamicValue for one JSON value (not null/object/array). */
export function dynamicDefForValue(dc: DynamicCtx, path: string, name: string, v: unknown): Def {
  const root = dc.root;
  if (typeof v === 'string') {
    const isLong = tryParseJavaLong(v) !== undefined;
    const isDouble = tryParseJavaDouble(v) !== undefined;
    if (isLong && root.numericDetection.value) {
      return templateDef(dc, path, name, 'long') ?? defaultFieldDef(name, 'long');
    }
    if (isDouble && root.numericDetection.value) {
      return templateDef(dc, path, name, 'double') ?? defaultFieldDef(name, 'float');
    }
    // pure numbers are never date-detected (too likely false positives for epoch formats)
    if (!isLong && !isDouble && root.dateDetection.value) {
      for (const format of root.dynamicDateFormats.value) {
        if (!parseDate(dc, v, format)) continue;
        const t = templateDef(dc, path, name, 'date');
        if (t === undefined) return defaultFieldDef(name, 'date', { format });
        // a date template without its own format gets the detected one
        if (t.kind === 'field' && t.core.type === 'date' && !hasExplicitFormat(dc, path, name)) {
          return { ...t, core: { ...t.core, format } };
        }
        return t;
      }
    }
    return templateDef(dc, path, name, 'string') ?? textWithKeyword(name);
  }
  if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) {
      return templateDef(dc, path, name, 'long') ?? defaultFieldDef(name, 'long');
    }
    // ES maps decimals to float by default, not double (space-efficient)
    return templateDef(dc, path, name, 'double') ?? defaultFieldDef(name, 'float');
  }
  // boolean
  return templateDef(dc, path, name, 'boolean') ?? defaultFieldDef(name, 'boolean');
}

function hasExplicitFormat(dc: DynamicCtx, path: string, name: string): boolean {
  const t = findTemplate(dc.root.dynamicTemplates.value, path, name, 'date');
  return t !== undefined && t.mapping.format !== undefined;
}

/** ES DocumentParser: the mapper for a new object (template for `object` or a plain object). */
export function dynamicObjectDef(dc: DynamicCtx, path: string, name: string): Def {
  return templateDef(dc, path, name, 'object') ?? newObjectDef(name);
}
