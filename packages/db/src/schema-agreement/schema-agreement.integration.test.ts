import fs from "node:fs/promises";
import path from "node:path";
import type * as DMMF from "@prisma/dmmf";
import { getDMMF } from "@prisma/get-dmmf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../paths";
import { createTestDatabase, type TestDatabase } from "../testing";
import { columnName, expectedColumnType } from "./expected-columns";
import {
  readColumns,
  readForeignKeys,
  readIndexes,
  type DbColumn,
  type DbForeignKey,
  type DbIndex,
} from "./read-database-schema";

// schema.prisma is what the generated client believes; the SQL migrations are what the database
// is. This test fails when the two drift apart in any way the client would notice.

let db: TestDatabase;
let datamodel: DMMF.Datamodel;
let columns: DbColumn[];
let indexes: DbIndex[];
let foreignKeys: DbForeignKey[];

beforeAll(async () => {
  db = await createTestDatabase();
  const schema = await fs.readFile(path.join(repoRoot, "prisma", "schema.prisma"), "utf8");
  const dmmf = getDMMF({ datamodel: schema });
  if ("type" in dmmf) throw dmmf.error;
  datamodel = dmmf.datamodel;
  [columns, indexes, foreignKeys] = await Promise.all([
    readColumns(db.pool),
    readIndexes(db.pool),
    readForeignKeys(db.pool),
  ]);
});

afterAll(async () => {
  await db?.drop();
});

const tableOf = (model: DMMF.Model) => model.dbName ?? model.name;

function fieldColumn(model: DMMF.Model, fieldName: string): string {
  const field = model.fields.find((f) => f.name === fieldName);
  if (!field) throw new Error(`${model.name} has no field ${fieldName}`);
  return columnName(field);
}

describe("schema.prisma and the migrated database", () => {
  it("have the same tables", () => {
    const modelTables = datamodel.models.map(tableOf).sort();
    const dbTables = [...new Set(columns.map((c) => c.table))]
      .filter((t) => t !== "_prisma_migrations")
      .sort();
    expect(dbTables).toEqual(modelTables);
  });

  it("agree on every column's name, type, nullability and default", () => {
    const problems: string[] = [];
    for (const model of datamodel.models) {
      const table = tableOf(model);
      const scalars = model.fields.filter((f) => f.kind === "scalar" || f.kind === "enum");
      const dbColumns = columns.filter((c) => c.table === table);
      for (const field of scalars) {
        const column = dbColumns.find((c) => c.column === columnName(field));
        const where = `${table}.${columnName(field)} (${model.name}.${field.name})`;
        if (!column) {
          problems.push(`${where}: missing column`);
          continue;
        }
        if (column.type !== expectedColumnType(field)) {
          problems.push(`${where}: type ${column.type}, schema says ${expectedColumnType(field)}`);
        }
        // Prisma creates scalar lists as nullable columns whatever the field says.
        if (!field.isList && column.notNull !== field.isRequired) {
          problems.push(`${where}: ${column.notNull ? "NOT NULL" : "nullable"} in the database`);
        }
        if (column.hasDefault !== field.hasDefaultValue) {
          problems.push(
            `${where}: default ${column.hasDefault ? "present" : "missing"} in the database`,
          );
        }
      }
      for (const column of dbColumns) {
        if (!scalars.some((f) => columnName(f) === column.column)) {
          problems.push(`${table}.${column.column}: column not in schema.prisma`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("have every primary key, @@unique and @@index of the schema, with the same columns and order", () => {
    const problems: string[] = [];
    for (const index of datamodel.indexes) {
      const model = datamodel.models.find((m) => m.name === index.model)!;
      const table = tableOf(model);
      const wanted = index.fields.map((f) => fieldColumn(model, f.name));
      const descending = index.fields.map((f) => f.sortOrder === "desc");
      const found =
        index.type === "id"
          ? indexes.find((i) => i.table === table && i.primary)
          : indexes.find((i) => i.table === table && i.name === index.dbName);
      const label = `${table} ${index.type} ${index.dbName ?? "(primary key)"}`;
      if (!found) {
        problems.push(`${label}: missing in the database`);
        continue;
      }
      if (found.columns.join(",") !== wanted.join(",")) {
        problems.push(
          `${label}: columns (${found.columns.join(", ")}), schema says (${wanted.join(", ")})`,
        );
      }
      if (found.descending.join(",") !== descending.join(",")) {
        problems.push(`${label}: sort order differs`);
      }
      if (found.unique !== (index.type !== "normal")) {
        problems.push(`${label}: uniqueness differs`);
      }
      if (found.partial) problems.push(`${label}: partial in the database, total in the schema`);
    }
    expect(problems).toEqual([]);
  });

  it("have every relation as a foreign key with the same referential action", () => {
    const problems: string[] = [];
    for (const model of datamodel.models) {
      for (const field of model.fields) {
        if (field.kind !== "object" || !field.relationFromFields?.length) continue;
        const target = datamodel.models.find((m) => m.name === field.type)!;
        const cols = field.relationFromFields.map((f) => fieldColumn(model, f));
        const refs = (field.relationToFields ?? []).map((f) => fieldColumn(target, f));
        const fk = foreignKeys.find(
          (k) => k.table === tableOf(model) && k.columns.join(",") === cols.join(","),
        );
        const label = `${tableOf(model)}(${cols.join(", ")}) -> ${tableOf(target)}`;
        if (!fk) {
          problems.push(`${label}: no foreign key`);
          continue;
        }
        if (
          fk.referencedTable !== tableOf(target) ||
          fk.referencedColumns.join(",") !== refs.join(",")
        ) {
          problems.push(
            `${label}: references ${fk.referencedTable}(${fk.referencedColumns.join(", ")})`,
          );
        }
        const onDelete = field.relationOnDelete ?? (field.isRequired ? "Restrict" : "SetNull");
        if (fk.onDelete !== onDelete)
          problems.push(`${label}: ON DELETE ${fk.onDelete}, schema says ${onDelete}`);
      }
    }
    expect(problems).toEqual([]);
  });

  // What Prisma's language cannot express must still be there: these are what make the
  // coordination guarantees of the SPEC hold.
  it.each([
    [
      "cyclium_episodes_dedupe_key_live_key",
      /UNIQUE.*\(dedupe_key\) WHERE \(\(dedupe_key IS NOT NULL\) AND \(archived_at IS NULL\)\)/,
    ],
    [
      "cyclium_trigger_requests_pending_claim_idx",
      /\(actor_id, claim_priority DESC, run_at, id\) WHERE \(\(status\)::text = 'pending'::text\)/,
    ],
    [
      "cyclium_trigger_requests_pending_idx",
      /\(run_at\) WHERE \(\(status\)::text = 'pending'::text\)/,
    ],
    [
      "cyclium_trigger_requests_claimed_idx",
      /\(claimed_by\) WHERE \(\(status\)::text = 'claimed'::text\)/,
    ],
    [
      "cyclium_work_claims_claimed_idx",
      /\(owner_node\) WHERE \(\(state\)::text = 'claimed'::text\)/,
    ],
    [
      "cyclium_findings_key_status_env_key",
      /UNIQUE.*\(finding_key, status, env\) NULLS NOT DISTINCT/,
    ],
    ["cyclium_triggers_name_env_key", /UNIQUE.*\(name, env\) NULLS NOT DISTINCT/],
    [
      "cyclium_expectation_turns_expectation_env_key",
      /UNIQUE.*\(actor_id, expectation_id, env\) NULLS NOT DISTINCT/,
    ],
    [
      "cyclium_mode_overrides_target_actor_key",
      /UNIQUE.*\(target_node, actor_id\) NULLS NOT DISTINCT/,
    ],
    [
      "cyclium_trigger_firings_open_context_key",
      /UNIQUE.*WHERE \(\(status\)::text = 'running'::text\)/,
    ],
    [
      "cyclium_episodes_queued_idx",
      /\(queued_by, actor_id, inserted_at, id\) WHERE \(\(\(status\)::text = 'pending'::text\) AND \(queued_by IS NOT NULL\)\)/,
    ],
    [
      "cyclium_episodes_env_actor_finished_at_idx",
      /\(source_env, actor_id, finished_at\) INCLUDE \(status, inserted_at, started_at\) WHERE \(finished_at IS NOT NULL\)/,
    ],
    [
      "cyclium_episodes_running_limit_keys_idx",
      /USING gin \(limit_keys\) WHERE \(\(\(status\)::text = 'running'::text\) AND \(limit_keys IS NOT NULL\)\)/,
    ],
  ])("has the SQL-only index %s", (name, definition) => {
    const index = indexes.find((i) => i.name === name);
    expect(index?.definition).toMatch(definition);
  });

  it("enforces the partial dedupe index: one live episode per key, archived ones do not block", async () => {
    const insert = `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, dedupe_key)
                    VALUES ('a', 'e', 'pending', 'manual', 'k1') RETURNING id`;
    const first = await db.pool.query<{ id: string }>(insert);
    await expect(db.pool.query(insert)).rejects.toMatchObject({ code: "23505" });
    await db.pool.query(`UPDATE cyclium_episodes SET archived_at = now() WHERE id = $1`, [
      first.rows[0]!.id,
    ]);
    await expect(db.pool.query(insert)).resolves.toMatchObject({ rowCount: 1 });
  });

  it("treats an unset env as one env in the findings index", async () => {
    const insert = `INSERT INTO cyclium_findings (finding_key, class, status, env) VALUES ('f1', 'limit_breach', 'active', NULL)`;
    await db.pool.query(insert);
    await expect(db.pool.query(insert)).rejects.toMatchObject({ code: "23505" });
  });
});
