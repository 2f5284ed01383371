/**
 * Elasticsearch mapping types to SQL types (ES SqlDataTypes.fromEs over the esType of each SQL
 * type): "date" is DATETIME, "long" is LONG, geo types map to GEO_*, anything unknown (date_nanos,
 * histogram, ...) is UNSUPPORTED. Field-level rules (multi-fields, exactness) belong to the catalog.
 */
import { ALL_DATA_TYPES, DATA_TYPES, type DataTypeName } from '../../functions/data-types.js';

const ES_TO_TYPE: ReadonlyMap<string, DataTypeName> = new Map(
  ALL_DATA_TYPES.filter((t) => DATA_TYPES[t].esType !== null).map(
    (t) => [DATA_TYPES[t].esType!, t] as const,
  ),
);

/** SqlDataTypes.fromEs. */
export function fromEsType(mappingType: string): DataTypeName {
  return ES_TO_TYPE.get(mappingType) ?? 'UNSUPPORTED';
}

/** The `mapping` column of DESCRIBE / SHOW COLUMNS: the SQL type's typeName ("datetime", "keyword"). */
export const mappingColumnName = (t: DataTypeName): string => DATA_TYPES[t].typeName;
