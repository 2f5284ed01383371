/**
 * The `percolate` query of module percolator (ES 6.8 PercolateQueryBuilder.fromXContent): the
 * percolator field, the document(s) to percolate or an indexed document to read them from.
 */
import { illegalArgument, parsingError } from '../errors.js';
import type { PercolateNode } from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function parsePercolate(p: XParser): PercolateNode {
  let boost = 1;
  let queryName: string | null = null;
  let field: string | null = null;
  let name: string | null = null;
  let documents: Record<string, unknown>[] | null = null;
  let index: string | null = null;
  let type: string | null = null;
  let id: string | null = null;
  let routing: string | null = null;
  let preference: string | null = null;
  let version: number | null = null;
  let current: string | null = null;
  let token;
  const unsupported = () =>
    parsingError(`[percolate] query does not support [${current}]`, p.location());
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') current = p.currentName();
    else if (token === 'START_OBJECT') {
      if (is(current, 'document')) documents = [...(documents ?? []), p.map()];
      else throw unsupported();
    } else if (token === 'START_ARRAY') {
      if (!is(current, 'documents')) throw unsupported();
      const list = p.readValue() as unknown[];
      for (const d of list) {
        if (!isObject(d))
          throw parsingError('[percolate] query does not support [documents]', p.location());
      }
      documents = [...(documents ?? []), ...(list as Record<string, unknown>[])];
    } else if (isValueToken(token)) {
      if (is(current, 'field')) field = p.text();
      else if (is(current, 'name')) name = p.text();
      else if (is(current, 'index')) index = p.text();
      else if (is(current, 'type')) type = p.text();
      else if (is(current, 'id')) id = p.text();
      else if (is(current, 'routing')) routing = p.text();
      else if (is(current, 'preference')) preference = p.text();
      else if (is(current, 'version')) version = p.intValue();
      else if (is(current, 'document_type')) p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, '_name')) queryName = p.text();
      else throw unsupported();
    } else throw unsupported();
  }
  if (field === null) throw illegalArgument('[field] is a required argument');
  if (documents === null) {
    if (index === null && id === null) throw illegalArgument('[document] is a required argument');
    if (index === null) throw illegalArgument('[index] is a required argument');
    if (id === null) throw illegalArgument('[id] is a required argument');
  }
  const indexed =
    documents === null ? { index: index!, type, id: id!, routing, preference, version } : null;
  return { type: 'percolate', field, name, documents, indexed, boost, queryName };
}
