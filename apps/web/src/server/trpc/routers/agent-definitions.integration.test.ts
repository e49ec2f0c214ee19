import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@cyclium/core/client";
import { registerNode } from "@cyclium/core/console";
import { PIPELINE_DEPLOYMENT_PATH } from "@cyclium/core/testing";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditRows, seedTestUsers, testContext } from "../../auth/testing/auth-test-kit";
import { createCaller } from "../root-router";

// Issue 19 item 5: a dynamic actor an admin creates in the console runs on a worker that was
// already running (a real child process of apps/worker's main.ts), with no restart: the worker
// hears the change on the bus, loads the actor, and executes an episode fired at it.
const workerRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../../worker",
);

let db: TestDatabase;
let worker: { child: ChildProcess; output: string[] };
let admin: ReturnType<typeof createCaller>;
let viewer: ReturnType<typeof createCaller>;

beforeAll(async () => {
  db = await createTestDatabase();
  const users = await seedTestUsers(db.pool);
  admin = createCaller(testContext(db.pool, users.admin));
  viewer = createCaller(testContext(db.pool, users.viewer));
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: workerRoot,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      // Its strategies include `steps`; its cron is moved out of the way.
      CYCLIUM_DEPLOYMENT: PIPELINE_DEPLOYMENT_PATH,
      CYCLIUM_TEST_PIPELINE_CRON: "0 0 1 1 *",
      CYCLIUM_NODE_IDENTITY: "dyn-worker",
      CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "500",
      PORT: "0",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  worker = { child, output: [] };
  const collect = (chunk: Buffer) => worker.output.push(...chunk.toString("utf8").split("\n"));
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  // The worker's heartbeat has recorded its strategies once the console can offer them.
  await vi.waitFor(
    async () => {
      expect(child.exitCode, worker.output.join("\n")).toBeNull();
      const strategies = await admin.agentDefinitions.strategies();
      expect(strategies).toContainEqual({ name: "steps", nodes: ["dyn-worker"] });
    },
    { timeout: 25_000, interval: 200 },
  );
}, 30_000);

afterAll(async () => {
  if (worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill("SIGKILL");
  }
  await db?.drop();
}, 20_000);

const loggedFor = (message: string, actor: string) =>
  worker.output.some((line) => line.includes(`"${message}"`) && line.includes(`"${actor}"`));

describe("a dynamic actor created in the console", () => {
  it("refuses a strategy no worker registered and a non-admin, naming the field", async () => {
    const expectation = { id: "run", strategy: "stepz", trigger: { manual: true } };
    const expectations = [expectation];
    await expect(
      admin.agentDefinitions.create({ identifier: "typo", expectations }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(
        'expectations.0.strategy: "stepz" is not registered by any live worker',
      ) as unknown,
    });
    await expect(
      viewer.agentDefinitions.create({
        identifier: "sneaky",
        expectations: [{ ...expectation, strategy: "steps" }],
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await admin.agentDefinitions.list()).toEqual([]);
  });

  it("runs on the already running worker, and stops when disabled", async () => {
    const pid = worker.child.pid;
    const created = await admin.agentDefinitions.create({
      identifier: "dyn_report",
      maxConcurrentEpisodes: 2,
      expectations: [{ id: "run", strategy: "steps", trigger: { manual: true } }],
    });
    expect(created).toMatchObject({ identifier: "dyn_report", enabled: true, problem: null });
    expect(await auditRows(db.pool, "agentDefinitions.create")).toContainEqual(
      expect.objectContaining({ principal: "user:admin@test.local", outcome: "ok" }),
    );
    // Told by the bus: well inside the loader's 2 s fallback re-read on a quiet machine.
    await vi.waitFor(() => expect(loggedFor("dynamic actor added", "dyn_report")).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });

    const client = createClient({ connectionString: db.url });
    try {
      const fired = await client.fire({
        actorId: "dyn_report",
        expectationId: "run",
        input: { steps: 2 },
      });
      if (fired.kind !== "created") throw new Error(`fire was ${fired.kind}`);
      await vi.waitFor(
        async () => {
          const { rows } = await db.pool.query<{ status: string; executed_by: string }>(
            "SELECT status, executed_by FROM cyclium_episodes WHERE id = $1",
            [fired.episodeId],
          );
          expect(rows).toEqual([{ status: "completed", executed_by: "dyn-worker" }]);
        },
        { timeout: 15_000, interval: 200 },
      );
    } finally {
      await client.close();
    }

    await admin.agentDefinitions.setEnabled({ identifier: "dyn_report", enabled: false });
    await vi.waitFor(() => expect(loggedFor("dynamic actor removed", "dyn_report")).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    // The same process all along.
    expect(worker.child.pid).toBe(pid);
    expect(worker.child.exitCode).toBeNull();
  }, 40_000);

  it("belongs to the env it was created in: another env's worker does not run it", async () => {
    const expectations = [{ id: "run", strategy: "steps", trigger: { manual: true } }];
    // The worker runs the unset env; `staging` is another world on the same database, with a
    // worker of its own (registered here: only its heartbeat row is needed to store the actor).
    await registerNode({
      db: db.pool,
      node: {
        identity: "staging-worker",
        kind: "worker",
        mode: "full",
        env: "staging",
        strategies: ["steps"],
      },
    });
    expect(await admin.agentDefinitions.strategies({ env: "staging" })).toEqual([
      { name: "steps", nodes: ["staging-worker"] },
    ]);
    const staged = await admin.agentDefinitions.create({
      env: "staging",
      identifier: "staged_report",
      expectations,
    });
    expect(staged).toMatchObject({ env: "staging", identifier: "staged_report" });
    await admin.agentDefinitions.create({ identifier: "default_report", expectations });
    // One reload reads the env's whole table: once the later, own-env actor is loaded, the
    // staging one would have been too.
    await vi.waitFor(() => expect(loggedFor("dynamic actor added", "default_report")).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    expect(loggedFor("dynamic actor added", "staged_report")).toBe(false);
    // Each env's list shows its own; a write through another env does not find it.
    const ids = (list: { identifier: string }[]) => list.map((d) => d.identifier);
    expect(ids(await admin.agentDefinitions.list({ env: "staging" }))).toEqual(["staged_report"]);
    expect(ids(await viewer.agentDefinitions.list())).not.toContain("staged_report");
    await expect(
      admin.agentDefinitions.setEnabled({ identifier: "staged_report", enabled: false }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(
      await admin.agentDefinitions.setEnabled({
        env: "staging",
        identifier: "staged_report",
        enabled: false,
      }),
    ).toMatchObject({ env: "staging", enabled: false });
  }, 30_000);
});
