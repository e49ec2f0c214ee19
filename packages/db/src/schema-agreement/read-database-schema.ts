import type pg from "pg";

export interface DbColumn {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

export interface DbIndex {
  table: string;
  name: string;
  unique: boolean;
  primary: boolean;
  columns: string[];
  descending: boolean[];
  partial: boolean;
  definition: string;
}

export interface DbForeignKey {
  table: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
}

export async function readColumns(pool: pg.Pool): Promise<DbColumn[]> {
  const { rows } = await pool.query<DbColumn>(`
    SELECT c.relname AS "table", a.attname AS "column",
           format_type(a.atttypid, a.atttypmod) AS "type",
           a.attnotnull AS "notNull", a.atthasdef AS "hasDefault"
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`);
  return rows;
}

export async function readIndexes(pool: pg.Pool): Promise<DbIndex[]> {
  const { rows } = await pool.query<DbIndex>(`
    SELECT t.relname AS "table", i.relname AS "name", x.indisunique AS "unique",
           x.indisprimary AS "primary", x.indpred IS NOT NULL AS "partial",
           pg_get_indexdef(x.indexrelid) AS "definition",
           ARRAY(SELECT pg_get_indexdef(x.indexrelid, k + 1, true)
                   FROM generate_subscripts(x.indkey, 1) AS k ORDER BY k) AS "columns",
           ARRAY(SELECT (x.indoption[k] & 1) = 1
                   FROM generate_subscripts(x.indoption, 1) AS k ORDER BY k) AS "descending"
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public'`);
  return rows.map((row) => ({ ...row, columns: row.columns.map((c) => c.replace(/^"|"$/g, "")) }));
}

export async function readForeignKeys(pool: pg.Pool): Promise<DbForeignKey[]> {
  const { rows } = await pool.query<DbForeignKey>(`
    SELECT t.relname AS "table", r.relname AS "referencedTable",
           ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(num, ord)
                   JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY k.ord) AS "columns",
           ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(num, ord)
                   JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num ORDER BY k.ord) AS "referencedColumns",
           CASE c.confdeltype WHEN 'c' THEN 'Cascade' WHEN 'n' THEN 'SetNull' WHEN 'r' THEN 'Restrict'
                              WHEN 'd' THEN 'SetDefault' ELSE 'NoAction' END AS "onDelete"
      FROM pg_constraint c
      JOIN pg_class t ON t.oid = c.conrelid
      JOIN pg_class r ON r.oid = c.confrelid
     WHERE c.contype = 'f'`);
  return rows;
}
