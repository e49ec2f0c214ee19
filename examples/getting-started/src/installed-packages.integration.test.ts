import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createScratchProject, repoRoot, type ScratchProject } from "./testing/scratch-project";
import { startScratchProcess, type ScratchProcess } from "./testing/scratch-process";

const run = promisify(execFile);

// Issues 19 and 31's acceptance: the packages as a team gets them. Packed by `pnpm release:pack`,
// published to a local registry, installed by name with npm into a project outside the
// workspace, the getting-started example compiled against the installed declarations,
// `cyclium migrate` from the installed bin on an empty database, two workers in plain node with
// docs/deployment.md's environment, a fire through createClient, and no console anywhere.
let project: ScratchProject;
let db: TestDatabase;
let workers: ScratchProcess[] = [];
const startedAt = performance.now();

beforeAll(async () => {
  // An empty database (template0), so the installed `cyclium migrate` has everything to apply.
  [project, db] = await Promise.all([
    createScratchProject(),
    createTestDatabase({ templateDatabase: "template0" }),
  ]);
}, 600_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop("SIGKILL")));
  await db?.drop();
  await project?.remove();
  console.log(
    `scratch project: ${JSON.stringify(project?.timings)}, whole file ${Math.round(
      (performance.now() - startedAt) / 1000,
    )} s`,
  );
}, 60_000);

/** Issue 31: Prisma and TypeScript are not runtime dependencies (was 131 MB, 52 packages). */
const PRODUCTION_CEILING_BYTES = 30 * 1024 * 1024;

describe("the packages installed by name from a registry into a project outside the workspace", () => {
  it("install for production without Prisma or TypeScript, under 30 MB", async () => {
    console.log(
      `production install: ${(project.production.bytes / 1024 / 1024).toFixed(1)} MB, ` +
        `${project.production.packages} packages`,
    );
    expect(project.production.bytes).toBeLessThanOrEqual(PRODUCTION_CEILING_BYTES);
    const lock = JSON.parse(
      await fs.readFile(path.join(project.dir, "package-lock.json"), "utf8"),
    ) as { packages: Record<string, { dev?: boolean }> };
    const production = Object.entries(lock.packages)
      .filter(([key, entry]) => key.startsWith("node_modules/") && !entry.dev)
      .map(([key]) => key);
    expect(production.filter((key) => /prisma|\/typescript$/.test(key))).toEqual([]);
  });

  it("ship built JavaScript, declarations and migrations, with no workspace link", async () => {
    const installed = path.join(project.dir, "node_modules/@cyclium");
    for (const name of ["core", "db", "cli"]) {
      const stat = await fs.lstat(path.join(installed, name));
      expect(stat.isSymbolicLink(), `@cyclium/${name} is a copy, not a link`).toBe(false);
      const manifest = await fs.readFile(path.join(installed, name, "package.json"), "utf8");
      expect(manifest).not.toMatch(/workspace:|catalog:|"\.\/src\//);
    }
    await expect(fs.stat(path.join(installed, "core/dist/index.d.ts"))).resolves.toBeTruthy();
    const shipped = await fs.readdir(path.join(installed, "db/dist/migrations"));
    expect(shipped).toEqual((await fs.readdir(path.join(repoRoot, "prisma/migrations"))).sort());
    // The example compiled (tsc ran in createScratchProject) into plain JavaScript.
    await expect(fs.stat(path.join(project.dir, "dist/worker.js"))).resolves.toBeTruthy();
  });

  it("migrates with the installed cyclium bin, runs two workers and fires through a client", async () => {
    const env = { DATABASE_URL: db.url, CYCLIUM_ENV: "prod" };
    const migrated = await run(path.join(project.dir, "node_modules/.bin/cyclium"), ["migrate"], {
      cwd: project.dir,
      env: { ...process.env, ...env },
    });
    const migrations = await fs.readdir(path.join(repoRoot, "prisma/migrations"));
    expect(migrated.stdout).toContain(`Applied ${migrations.length} migration(s).`);

    // docs/deployment.md's environment: a stable identity per worker, the env, and no
    // migrations at start (the installed bin ran them above).
    const identities = ["worker-a", "worker-b"];
    workers = identities.map((identity) =>
      startScratchProcess({
        cwd: project.dir,
        args: ["dist/worker.js"],
        // The cron trigger every 2 s, so a few windows pass while the test runs.
        env: {
          ...env,
          CYCLIUM_NODE_IDENTITY: identity,
          CYCLIUM_MIGRATE: "false",
          PORT: "0",
          REPORT_CRON: "*/2 * * * * *",
        },
        readyText: "worker listening",
      }),
    );
    await Promise.all(workers.map((worker) => worker.ready));
    const nodes = await db.pool.query<{ identity: string; env: string | null }>(
      `SELECT identity, env FROM cyclium_nodes WHERE status <> 'stopped' ORDER BY identity`,
    );
    expect(nodes.rows).toEqual(identities.map((identity) => ({ identity, env: "prod" })));

    const fire = startScratchProcess({
      cwd: project.dir,
      args: ["dist/fire.js", "Ada"],
      env,
    });
    expect(await fire.exited).toEqual({ code: 0, signal: null });
    const fired = JSON.parse(fire.output.join("")) as { kind: string; episodeId: string };
    expect(fired.kind).toBe("created");

    // The episode completes exactly once: one row, first attempt, the strategy's result.
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string }>(
          `SELECT status FROM cyclium_episodes WHERE id = $1`,
          [fired.episodeId],
        );
        expect(rows[0]?.status).toBe("completed");
      },
      { timeout: 20_000, interval: 200 },
    );
    const greeted = await db.pool.query<{ id: string; attempt: number; result: unknown }>(
      `SELECT id, attempt, result FROM cyclium_episodes WHERE actor_id = 'greeter'`,
    );
    expect(greeted.rows).toEqual([
      { id: fired.episodeId, attempt: 1, result: { greeting: "Hello, Ada!" } },
    ]);

    // The cron trigger's workflow completes on the workers alone (no console was ever started).
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM cyclium_workflow_instances
            WHERE workflow_name = 'daily_report' AND status = 'done'`,
        );
        expect(rows[0]?.n).toBeGreaterThanOrEqual(2);
      },
      { timeout: 30_000, interval: 250 },
    );
    // Each cron window fired once across both workers.
    const firings = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_trigger_firings
        WHERE trigger_name = 'daily_report_schedule' GROUP BY scheduled_time`,
    );
    expect(firings.rows.length).toBeGreaterThanOrEqual(2);
    for (const firing of firings.rows) expect(firing.n).toBe(1);
    // Every step of a finished instance ran once and completed.
    const steps = await db.pool.query<{ workflow_step: string; status: string; n: number }>(
      `SELECT e.workflow_step, e.status, count(*)::int AS n
         FROM cyclium_episodes e JOIN cyclium_workflow_instances w ON w.id = e.workflow_instance_id
        WHERE w.status = 'done' GROUP BY e.workflow_instance_id, e.workflow_step, e.status`,
    );
    expect(steps.rows.length).toBeGreaterThanOrEqual(4);
    for (const step of steps.rows) expect(step).toMatchObject({ status: "completed", n: 1 });
    for (const worker of workers) {
      expect(worker.output.join("\n")).not.toContain("workflow not registered");
    }
  }, 120_000);
});
