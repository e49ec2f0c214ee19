import type pg from "pg";
import { withClient } from "../pg/server";
import type { RelationRow, TableWrites, WalGroup } from "./relation-owner";

/**
 * The extensions the per-item costs use when the server has them: pg_stat_statements (statements
 * per item; it must be in shared_preload_libraries) and pg_walinspect (index entries and WAL by
 * table). Created in the `postgres` database, where the bench's admin connection reads them;
 * both report on every database of the cluster. `notes` says what is missing and why.
 */
export interface CostProbes {
  statements: boolean;
  walInspect: boolean;
  notes: string[];
  /** BENCH_WAL_RECORDS: where each drain's WAL by relation and record type is appended. */
  walRecordsFile?: string | undefined;
}

export async function enableCostProbes(
  admin: pg.Client,
  /** The bench's own cluster: create the extensions and raise wal_keep_size. Else only use them. */
  ownCluster: boolean,
): Promise<CostProbes> {
  const notes: string[] = [];
  const create = async (name: string): Promise<boolean> => {
    try {
      if (ownCluster) {
        await admin.query(`CREATE EXTENSION IF NOT EXISTS ${name}`);
        return true;
      }
      const { rows } = await admin.query("SELECT 1 FROM pg_extension WHERE extname = $1", [name]);
      if (rows.length > 0) return true;
      notes.push(
        `${name} not installed in the server's postgres database (not created on DATABASE_URL)`,
      );
      return false;
    } catch (error) {
      notes.push(`${name} unavailable (${(error as Error).message})`);
      return false;
    }
  };
  let statements = await create("pg_stat_statements");
  if (statements) {
    // Created but not preloaded: the view raises "must be loaded via shared_preload_libraries".
    statements = await admin.query("SELECT 1 FROM pg_stat_statements LIMIT 1").then(
      () => true,
      () => {
        notes.push(
          "pg_stat_statements not in shared_preload_libraries: statements per item are the workers' round trips",
        );
        return false;
      },
    );
  } else {
    notes.push("statements per item are the workers' round trips");
  }
  if (statements && ownCluster) {
    // A statement's server time is its planning and its execution: planning a long statement
    // each time it is sent can cost as much as running it.
    await admin
      .query("ALTER SYSTEM SET pg_stat_statements.track_planning = on")
      .then(() => admin.query("SELECT pg_reload_conf()"))
      .catch(() => notes.push("planning time not tracked: statement times are execution only"));
  }
  const walInspect = await create("pg_walinspect");
  if (walInspect && ownCluster) {
    // The drain's WAL is read after it ends: keep its segments even if a checkpoint runs meanwhile.
    await admin
      .query("ALTER SYSTEM SET wal_keep_size = '4GB'")
      .then(() => admin.query("SELECT pg_reload_conf()"))
      .catch(() => notes.push("wal_keep_size not raised: a long drain's WAL may be recycled"));
  } else {
    notes.push(
      "index entries per item estimated from pg_stat_user_tables: (inserts + non-HOT updates) × indexes",
    );
  }
  return { statements, walInspect, notes };
}

/**
 * Calls so far per statement (pg_stat_statements' queryid), with the statement's text and its
 * server time in ms: planning (when tracked) and execution.
 */
export type StatementCounts = Map<string, { query: string; calls: number; serverMs: number }>;

/** Statements run in `database` so far, transaction control and session settings left out. */
export async function statementCalls(admin: pg.Client, database: string): Promise<StatementCounts> {
  const { rows } = await admin.query<{ id: string; query: string; calls: string; ms: string }>(
    `SELECT s.queryid::text AS id, min(s.query) AS query, sum(s.calls)::text AS calls,
            sum(s.total_exec_time + s.total_plan_time)::text AS ms
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = $1
        AND s.query !~* '^\\s*(BEGIN|COMMIT|ROLLBACK|START|SAVEPOINT|RELEASE|SET|RESET|SHOW|DISCARD|DEALLOCATE|LISTEN|UNLISTEN)\\M'
      GROUP BY s.queryid`,
    [database],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { query: row.query, calls: Number(row.calls), serverMs: Number(row.ms) },
    ]),
  );
}

/** pg_stat_user_tables of the database at `url`, on a connection of its own. */
export function tableWrites(url: string): Promise<TableWrites[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{
      table: string;
      inserts: string;
      updates: string;
      hot: string;
      deletes: string;
      indexes: number;
    }>(
      `SELECT s.relid::regclass::text AS table, s.n_tup_ins::text AS inserts,
              s.n_tup_upd::text AS updates, s.n_tup_hot_upd::text AS hot,
              s.n_tup_del::text AS deletes,
              (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = s.relid) AS indexes
         FROM pg_stat_user_tables s`,
    );
    return rows.map((row) => ({
      table: row.table,
      inserts: Number(row.inserts),
      updates: Number(row.updates),
      hotUpdates: Number(row.hot),
      deletes: Number(row.deletes),
      indexes: row.indexes,
    }));
  });
}

/** Every table, index and TOAST relation of the database at `url`, by file node. */
export function relations(url: string): Promise<RelationRow[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{
      oid: string;
      filenode: string;
      name: string;
      kind: string;
      index_of: string | null;
      toast_of: string | null;
    }>(
      `SELECT c.oid::int8::text AS oid, pg_relation_filenode(c.oid)::int8::text AS filenode,
              c.oid::regclass::text AS name, c.relkind::text AS kind,
              i.indrelid::int8::text AS index_of, t.oid::int8::text AS toast_of
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_index i ON i.indexrelid = c.oid
         LEFT JOIN pg_class t ON t.reltoastrelid = c.oid
        WHERE c.relkind IN ('r', 'p', 'i', 'I', 't', 'm')
          AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND pg_relation_filenode(c.oid) IS NOT NULL`,
    );
    const id = (value: string | null) => (value === null ? null : Number(value));
    return rows.map((row) => ({
      oid: Number(row.oid),
      filenode: Number(row.filenode),
      name: row.name,
      kind: row.kind,
      indexOf: id(row.index_of),
      toastOf: id(row.toast_of),
    }));
  });
}

/**
 * The WAL records between two positions that touch `database`, summed by relation, resource
 * manager and record type. A record's bytes go to the relation of its first block (block 0: the
 * page it changes; a heap update's old page is the same relation), so each record counts once;
 * records with no block (commits) are not here.
 */
export async function walGroups(
  admin: pg.Client,
  database: string,
  fromLsn: string,
  toLsn: string,
): Promise<WalGroup[]> {
  const { rows } = await admin.query<{
    filenode: string;
    rmgr: string;
    type: string;
    records: string;
    bytes: string;
    fpi: string;
  }>(
    // A record's page images summed over all its blocks (an update moving a row to another page
    // can copy both), counted under its first block's relation like its bytes.
    `SELECT b.relfilenode::int8::text AS filenode, b.rmgr, b.type, count(*)::text AS records,
            sum(b.record_length)::text AS bytes, sum(b.fpi)::text AS fpi
       FROM (SELECT relfilenode, reldatabase, block_id, resource_manager AS rmgr,
                    record_type AS type, record_length,
                    sum(coalesce(block_fpi_length, 0)) OVER (PARTITION BY start_lsn) AS fpi
               FROM pg_get_wal_block_info($2::pg_lsn, $3::pg_lsn, false)) b
      WHERE b.block_id = 0
        AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = $1)
      GROUP BY 1, 2, 3`,
    [database, fromLsn, toLsn],
  );
  return rows.map((row) => ({
    filenode: Number(row.filenode),
    resourceManager: row.rmgr,
    recordType: row.type,
    records: Number(row.records),
    bytes: Number(row.bytes),
    pageImageBytes: Number(row.fpi),
  }));
}
