/**
 * Resolves request sort specs against one index's mapping into engine sort keys, with the
 * errors Elasticsearch raises for unmapped fields and text fields.
 */
import { EsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import { lookupField } from '../../mapping/index.js';
import type { SortKey } from '../../search/collect/sort.js';
import { ipToSortable, sortableToIp } from '../../search/index/field-values.js';
import type { SortSpec } from './request.js';
import { scriptSortKey } from './script-sort.js';
import { segmentSourceReader } from './scripts.js';
import type { ScriptMethods } from '../script/index.js';

const INTEGER_TYPES = new Set(['long', 'integer', 'short', 'byte', 'token_count']);

export function fielddataDisabled(field: string): EsError {
  return new EsError(
    'illegal_argument_exception',
    `Fielddata is disabled on text fields by default. Set fielddata=true on [${field}] in order to load fielddata in memory by uninverting the inverted index. Note that this can however use significant memory. Alternatively use a keyword field instead.`,
    400,
  );
}

export function resolveSort(
  specs: SortSpec[],
  idx: IndexService,
  warnings: string[] = [],
  scriptMethods?: ScriptMethods,
): SortKey[] {
  return specs.map((s): SortKey => {
    if (s.script) {
      return scriptSortKey(s.script, {
        field: (path) => (idx.mapping ? lookupField(idx.mapping, path) : undefined),
        methods: scriptMethods,
        warn: (m) => warnings.push(m),
        sourceReader: (ls) => segmentSourceReader(idx, ls),
      });
    }
    if (s.field === '_score') {
      return {
        kind: 'score',
        field: '_score',
        order: s.order ?? 'desc',
        missing: '_last',
        mode: null,
        valueType: 'double',
      };
    }
    if (s.field === '_doc') {
      return {
        kind: 'doc',
        field: '_doc',
        order: s.order ?? 'asc',
        missing: '_last',
        mode: null,
        valueType: 'long',
      };
    }
    const order = s.order ?? 'asc';
    if (s.field === '_id' || s.field === '_uid') {
      // ES IdFieldType / UidFieldType fielddata: the ids as strings (`type#id` for `_uid`)
      if (s.field === '_uid')
        warnings.push('Fielddata access on the _uid field is deprecated, use _id instead');
      return {
        kind: 'id',
        field: s.field,
        order,
        missing: '_last',
        mode: s.mode,
        valueType: 'string',
        ...(s.field === '_uid' ? { idPrefix: `${idx.typeName ?? '_doc'}#` } : {}),
      };
    }
    const missing = (s.missing ?? '_last') as SortKey['missing'];
    const f = idx.mapping ? lookupField(idx.mapping, s.field) : undefined;
    if (!f) {
      if (s.unmappedType) {
        const vt =
          INTEGER_TYPES.has(s.unmappedType) || s.unmappedType === 'date'
            ? 'long'
            : s.unmappedType === 'keyword'
              ? 'string'
              : 'double';
        return { kind: 'field', field: s.field, order, missing, mode: s.mode, valueType: vt };
      }
      throw new EsError(
        'query_shard_exception',
        `No mapping found for [${s.field}] in order to sort on`,
        400,
        {
          meta: { index_uuid: idx.uuid, index: idx.name },
        },
      );
    }
    if (f.type === 'text' && !f.fielddata) throw fielddataDisabled(s.field);
    if (f.type === 'keyword' || f.type === 'join' || f.type === 'ip' || f.type === 'text') {
      return {
        kind: 'field',
        field: f.path,
        order,
        missing,
        mode: s.mode,
        valueType: 'string',
        ...(f.type === 'ip' ? { display: sortableToIp, orderKey: ipToSortable } : {}),
        ...(f.type === 'text' ? { uninvert: true } : {}),
      };
    }
    const vt = INTEGER_TYPES.has(f.type)
      ? 'long'
      : f.type === 'date'
        ? 'date'
        : f.type === 'boolean'
          ? 'boolean'
          : 'double';
    return { kind: 'field', field: f.path, order, missing, mode: s.mode, valueType: vt };
  });
}
