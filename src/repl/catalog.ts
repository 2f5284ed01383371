/**
 * What tab completion knows of the server: functions (`SHOW FUNCTIONS`) and tables (`SHOW TABLES`),
 * fetched once, and each table's columns (`DESCRIBE t`), fetched once per table. A failed look-up
 * completes nothing rather than failing the shell, and is tried again next time.
 */

/** The rows of a SQL statement (first column is all completion needs). */
export type RowsQuery = (sql: string) => Promise<readonly (readonly unknown[])[]>;

export interface Catalog {
  functions(): Promise<readonly string[]>;
  tables(): Promise<readonly string[]>;
  columns(table: string): Promise<readonly string[]>;
}

const quoteIdent = (t: string) => `"${t.replace(/"/g, '""')}"`;

export function serverCatalog(rows: RowsQuery): Catalog {
  const cache = new Map<string, Promise<readonly string[]>>();
  const names = (key: string, sql: string): Promise<readonly string[]> => {
    let p = cache.get(key);
    if (!p) {
      p = rows(sql).then(
        (rs) => rs.map((r) => String(r[0])),
        () => {
          cache.delete(key);
          return [];
        },
      );
      cache.set(key, p);
    }
    return p;
  };
  return {
    functions: () => names('functions', 'SHOW FUNCTIONS'),
    tables: () => names('tables', 'SHOW TABLES'),
    columns: (t) => names(`columns:${t}`, `DESCRIBE ${quoteIdent(t)}`),
  };
}
