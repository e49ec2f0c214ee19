import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { metricBaseName, TELEMETRY_EVENTS } from "../telemetry/event-names";

// docs/contract.md is what teams build dashboards, alerts and scripts on. Everything in it that
// the code can tell is checked here against the code itself: the tables and columns the
// migrations create, the environment variables the processes read, the metrics nodes export.
// A new column, variable or metric without a line in the contract fails this test.
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const contract = fs.readFileSync(path.join(repoRoot, "docs/contract.md"), "utf8");

/** Production sources that may read the environment (tests, test helpers, builds excluded). */
const ENV_SOURCES = ["packages", "apps", "scripts/start.ts"];
const SKIP = new Set(["node_modules", "generated", "dist", ".next", "testing", "bench"]);

function sourceFiles(entry: string): string[] {
  const full = path.join(repoRoot, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return /\.(ts|tsx|mjs)$/.test(entry) ? [full] : [];
  return fs
    .readdirSync(full)
    .filter((name) => !SKIP.has(name) && !/\.(test\.tsx?|d\.ts)$/.test(name))
    .flatMap((name) => sourceFiles(path.join(entry, name)));
}

/**
 * Variables read as `process.env.X` or `process.env["X"]`, declared as upper-case keys of a zod
 * schema (`CYCLIUM_MODE: z.enum(...)`, `CYCLIUM_MIGRATE: ZEnvBoolean.default(true)`), or read
 * from the parsed source of an env module (`source.DATABASE_URL`).
 */
function environmentVariablesRead(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  const add = (matches: Iterable<RegExpMatchArray>) => {
    for (const match of matches) names.add((match[1] ?? match[2]) as string);
  };
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    add(text.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\])/g));
    add(text.matchAll(/^\s+([A-Z][A-Z0-9_]*)\??:\s*(?:z\s*\.|Z[A-Za-z0-9]*[.(,\n])/gm));
    if (/env/i.test(path.basename(file))) add(text.matchAll(/\bsource\.([A-Z][A-Z0-9_]*)/g));
  }
  return names;
}

/** `CREATE TABLE` and `ADD COLUMN` of every migration, in order: table -> columns. */
function migratedTables(migrationsDir: string): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const dir of fs.readdirSync(migrationsDir).sort()) {
    const file = path.join(migrationsDir, dir, "migration.sql");
    if (!fs.existsSync(file)) continue;
    const sql = fs.readFileSync(file, "utf8").replace(/--.*$/gm, "");
    for (const match of sql.matchAll(/CREATE TABLE "(\w+)" \(([\s\S]*?)\n\);/g)) {
      const columns = [...(match[2] as string).matchAll(/^\s+"(\w+)" /gm)].map(
        (c) => c[1] as string,
      );
      tables.set(match[1] as string, columns);
    }
    // Every ADD COLUMN of an ALTER TABLE statement, one or several, on one line or many.
    for (const statement of sql.matchAll(/ALTER TABLE "(\w+)"([^;]*);/g)) {
      const table = statement[1] as string;
      const columns = tables.get(table) ?? [];
      for (const added of (statement[2] as string).matchAll(
        /ADD COLUMN (?:IF NOT EXISTS )?"(\w+)"/g,
      )) {
        if (!columns.includes(added[1] as string)) columns.push(added[1] as string);
      }
      tables.set(table, columns);
    }
  }
  return tables;
}

/** The text under the `###` heading that names `table`, up to the next heading. */
function sectionOf(markdown: string, table: string): string | undefined {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.startsWith("### ") && line.includes(`\`${table}\``));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^#{2,3} /.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

const mentioned = (text: string, name: string) => text.includes(`\`${name}\``);

describe("docs/contract.md", () => {
  it("names every table the migrations create, with each of its columns in its section", () => {
    const tables = migratedTables(path.join(repoRoot, "prisma/migrations"));
    expect(tables.get("cyclium_episodes")).toContain("dedupe_key");
    const missing: string[] = [];
    for (const [table, columns] of tables) {
      const section = sectionOf(contract, table);
      if (section === undefined) {
        missing.push(`${table} (no ### heading)`);
        continue;
      }
      for (const column of columns) {
        if (!mentioned(section, column)) missing.push(`${table}.${column}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("documents every environment variable the processes read", () => {
    const read = environmentVariablesRead(ENV_SOURCES.flatMap(sourceFiles));
    // The scan sees the schemas of the worker, the console and the demo.
    expect(read).toContain("CYCLIUM_WORK_CLAIMS_LEASE_SECONDS");
    expect(read).toContain("CYCLIUM_TRIGGER_POLLER");
    expect(read).toContain("CYCLIUM_TRUSTED_PROXIES");
    expect(read).toContain("CYCLIUM_DEMO_REVIEW_CRON");
    expect([...read].filter((name) => !mentioned(contract, name)).sort()).toEqual([]);
  });

  it("documents every metric a worker or the console exports", () => {
    const metrics = TELEMETRY_EVENTS.map((event) => `${metricBaseName(event)}_total`);
    const gaugeSources = ["apps/web/src/server/metrics", "packages/core/src/telemetry"];
    for (const file of gaugeSources.flatMap(sourceFiles)) {
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(/\bname: "([a-z_:]+)"/g)) metrics.push(match[1] as string);
    }
    expect(metrics).toContain("cyclium_web_refusals_total");
    expect(metrics).toContain("cyclium_trigger_requests_oldest_pending_seconds");
    expect(metrics.filter((name) => !mentioned(contract, name))).toEqual([]);
  });
});
