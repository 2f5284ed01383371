/**
 * Metadata field mappings in a type mapping (ES *FieldMapper.TypeParser of _source, _routing,
 * _field_names, _all, and the not-configurable _id/_type/_index/…/_parent of single-type indices).
 */
import { EsError } from '../common/errors.js';
import type { RootDef } from './model.js';
import { illegalArgument, mapperParsing } from './errors.js';
import { fieldBooleanValue } from './node-values.js';
import { javaToString } from './java-numbers.js';
import type { Node, ParserCtx } from './parse-field.js';

type MutableRoot = { -readonly [K in keyof RootDef]: RootDef[K] };

const NOT_CONFIGURABLE = new Set(['_id', '_index', '_type', '_uid', '_version', '_seq_no']);
export const METADATA = new Set([
  ...NOT_CONFIGURABLE,
  '_all',
  '_field_names',
  '_routing',
  '_source',
  '_parent',
  '_ignored',
]);

export function classCast(v: unknown, target: string): EsError {
  const cls =
    typeof v === 'string'
      ? 'java.lang.String'
      : Array.isArray(v)
        ? 'java.util.ArrayList'
        : 'java.lang.Object';
  return new EsError('class_cast_exception', `class ${cls} cannot be cast to class ${target}`, 500);
}

export function parseMetadataField(name: string, m: Node, root: MutableRoot, pc: ParserCtx): void {
  if (NOT_CONFIGURABLE.has(name)) throw mapperParsing(`${name} is not configurable`);
  switch (name) {
    case '_parent':
      throw mapperParsing(
        '[_parent] field is disabled on indices with a single type. Use a [join] field instead.',
      );
    case '_ignored':
      return;
    case '_routing': {
      let required = false;
      if (m.has('required')) {
        required = fieldBooleanValue(name, 'required', m.get('required'));
        m.delete('required');
      }
      root.routing = { required };
      return;
    }
    case '_field_names': {
      let enabled = true;
      if (m.has('enabled')) {
        enabled = fieldBooleanValue(name, 'enabled', m.get('enabled'));
        m.delete('enabled');
      }
      root.fieldNames = { enabled };
      return;
    }
    case '_source': {
      const s: { enabled: boolean; includes?: string[]; excludes?: string[] } = { enabled: true };
      for (const [k, v] of [...m]) {
        if (k === 'enabled') s.enabled = fieldBooleanValue(name, 'enabled', v);
        else if (k === 'includes' || k === 'excludes') {
          if (!Array.isArray(v)) throw classCast(v, 'java.util.List');
          s[k] = v.map((x) => javaToString(x));
        } else continue;
        m.delete(k);
      }
      root.source = s;
      return;
    }
    case '_all':
      parseAll(m, root, pc);
      return;
  }
}

const ALL_TEXT_PARAMS = new Set([
  'store', 'index', 'boost', 'index_options', 'similarity', 'analyzer', 'search_analyzer',
  'search_quote_analyzer', 'term_vector', 'store_term_vectors', 'store_term_vector_offsets',
  'store_term_vector_positions', 'store_term_vector_payloads', 'norms', 'omit_norms',
]); // prettier-ignore

/** ES AllFieldMapper.TypeParser (6.x: `_all` can only be disabled). */
function parseAll(m: Node, root: MutableRoot, pc: ParserCtx): void {
  const dv = m.get('doc_values');
  if (dv !== undefined && lenientBoolean(dv)) {
    throw mapperParsing('Field [_all] is always tokenized and cannot have doc values');
  }
  for (const [k, v] of [...m]) {
    if (k === 'analyzer' || k === 'search_analyzer' || k === 'search_quote_analyzer') {
      const a = javaToString(v);
      if (a !== 'default' && !pc.ctx.analyzerExists(a))
        throw mapperParsing(`analyzer [${a}] not found for field [_all]`);
    }
    if (ALL_TEXT_PARAMS.has(k)) m.delete(k);
  }
  let enabled = false;
  if (m.has('enabled')) {
    enabled = lenientBoolean(m.get('enabled'));
    if (enabled) {
      throw illegalArgument(
        'Enabling [_all] is disabled in 6.0. As a replacement, you can use [copy_to] on mapping fields to create your own catch all field.',
      );
    }
    m.delete('enabled');
    root.all = { enabled };
  }
}

/** ES Booleans.parseBooleanLenient. */
function lenientBoolean(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  const s = javaToString(v);
  return !(s === 'false' || s === '0' || s === 'off' || s === 'no');
}
