/**
 * Command nodes: EXPLAIN, DEBUG, SHOW TABLES/COLUMNS/FUNCTIONS/SCHEMAS, DESCRIBE and the ODBC/JDBC
 * metadata commands SYS TABLES/COLUMNS/TYPES (ES `CommandBuilder`). Commands run locally against
 * index metadata; they never produce Query DSL.
 */
import type { Loc, Statement } from './nodes.js';
import type { TableIdentifier } from './query-nodes.js';

export type Command =
  | Explain
  | Debug
  | ShowTables
  | ShowColumns
  | ShowFunctions
  | ShowSchemas
  | SysTables
  | SysColumns
  | SysTypes;

/**
 * A SQL LIKE pattern (ES `LikePattern`): `%` and `_` wildcards, `escape` the validated escape
 * character or null.
 */
export interface LikePattern {
  readonly kind: 'LikePattern';
  readonly pattern: string;
  readonly escape: string | null;
  readonly loc: Loc;
}

/** `EXPLAIN [(PLAN t | FORMAT f | VERIFY b)*] statement`; type null = ES's default (ALL). */
export interface Explain {
  readonly kind: 'Explain';
  readonly statement: Statement;
  readonly type: 'PARSED' | 'ANALYZED' | 'OPTIMIZED' | 'MAPPED' | 'EXECUTABLE' | 'ALL' | null;
  readonly format: 'TEXT' | 'GRAPHVIZ';
  readonly verify: boolean;
  readonly loc: Loc;
}

/** `DEBUG [(PLAN t | FORMAT f)*] statement`; type null = ES's default. */
export interface Debug {
  readonly kind: 'Debug';
  readonly statement: Statement;
  readonly type: 'ANALYZED' | 'OPTIMIZED' | null;
  readonly format: 'TEXT' | 'GRAPHVIZ';
  readonly loc: Loc;
}

/** `SHOW TABLES [INCLUDE FROZEN] [LIKE pattern | table]`. */
export interface ShowTables {
  readonly kind: 'ShowTables';
  readonly table: TableIdentifier | null;
  readonly pattern: LikePattern | null;
  readonly includeFrozen: boolean;
  readonly loc: Loc;
}

/** `SHOW COLUMNS [INCLUDE FROZEN] FROM|IN x`, `DESCRIBE|DESC [INCLUDE FROZEN] x`. */
export interface ShowColumns {
  readonly kind: 'ShowColumns';
  readonly table: TableIdentifier | null;
  readonly pattern: LikePattern | null;
  readonly includeFrozen: boolean;
  readonly loc: Loc;
}

/** `SHOW FUNCTIONS [LIKE pattern]`. */
export interface ShowFunctions {
  readonly kind: 'ShowFunctions';
  readonly pattern: LikePattern | null;
  readonly loc: Loc;
}

/** `SHOW SCHEMAS`. */
export interface ShowSchemas {
  readonly kind: 'ShowSchemas';
  readonly loc: Loc;
}

/** ES `IndexResolver.IndexType` names. */
export type IndexType = 'STANDARD_INDEX' | 'ALIAS' | 'FROZEN_INDEX' | 'UNKNOWN';

/** `SYS TABLES [CATALOG LIKE p] [LIKE p | table] [TYPE 'T' [, 'T']*]`. */
export interface SysTables {
  readonly kind: 'SysTables';
  readonly catalogPattern: LikePattern | null;
  readonly table: TableIdentifier | null;
  readonly pattern: LikePattern | null;
  /** The TYPE strings as given (parameters substituted). */
  readonly types: readonly (string | null)[];
  /**
   * ES's reading of `types` (`CommandBuilder.visitSysTables`): TABLE -> STANDARD_INDEX,
   * VIEW -> ALIAS, anything else UNKNOWN, in enum order without duplicates; empty strings are
   * skipped; null when no type is left or the only type is the ODBC wildcard `%`.
   */
  readonly indexTypes: readonly IndexType[] | null;
  readonly loc: Loc;
}

/** `SYS COLUMNS [CATALOG 'c'] [TABLE LIKE p | table] [LIKE columnPattern]`. */
export interface SysColumns {
  readonly kind: 'SysColumns';
  readonly catalog: string | null;
  readonly table: TableIdentifier | null;
  readonly tablePattern: LikePattern | null;
  readonly columnPattern: LikePattern | null;
  readonly loc: Loc;
}

/** `SYS TYPES [[+|-] n]`; ES reads the number as a Java int (0 when absent: all types). */
export interface SysTypes {
  readonly kind: 'SysTypes';
  readonly type: number;
  readonly loc: Loc;
}

// ---------------------------------------------------------------------------------------------
// Factories (fixed key order).

type Fields<T> = Omit<T, 'kind'>;

export const likePattern = (f: Fields<LikePattern>): LikePattern => ({
  kind: 'LikePattern',
  pattern: f.pattern,
  escape: f.escape,
  loc: f.loc,
});

export const explain = (f: Fields<Explain>): Explain => ({
  kind: 'Explain',
  statement: f.statement,
  type: f.type,
  format: f.format,
  verify: f.verify,
  loc: f.loc,
});

export const debug = (f: Fields<Debug>): Debug => ({
  kind: 'Debug',
  statement: f.statement,
  type: f.type,
  format: f.format,
  loc: f.loc,
});

export const showTables = (f: Fields<ShowTables>): ShowTables => ({
  kind: 'ShowTables',
  table: f.table,
  pattern: f.pattern,
  includeFrozen: f.includeFrozen,
  loc: f.loc,
});

export const showColumns = (f: Fields<ShowColumns>): ShowColumns => ({
  kind: 'ShowColumns',
  table: f.table,
  pattern: f.pattern,
  includeFrozen: f.includeFrozen,
  loc: f.loc,
});

export const showFunctions = (f: Fields<ShowFunctions>): ShowFunctions => ({
  kind: 'ShowFunctions',
  pattern: f.pattern,
  loc: f.loc,
});

export const showSchemas = (f: Fields<ShowSchemas>): ShowSchemas => ({
  kind: 'ShowSchemas',
  loc: f.loc,
});

export const sysTables = (f: Fields<SysTables>): SysTables => ({
  kind: 'SysTables',
  catalogPattern: f.catalogPattern,
  table: f.table,
  pattern: f.pattern,
  types: f.types,
  indexTypes: f.indexTypes,
  loc: f.loc,
});

export const sysColumns = (f: Fields<SysColumns>): SysColumns => ({
  kind: 'SysColumns',
  catalog: f.catalog,
  table: f.table,
  tablePattern: f.tablePattern,
  columnPattern: f.columnPattern,
  loc: f.loc,
});

export const sysTypes = (f: Fields<SysTypes>): SysTypes => ({
  kind: 'SysTypes',
  type: f.type,
  loc: f.loc,
});
