import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PIPELINE_DEPLOYMENT_PATH, SLOW_PIPELINE_WORKFLOW } from "@cyclium/core/testing";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// A console (trigger_only) starts a two-step workflow and is SIGKILLed while the first step runs
// on a worker: the worker's own workflow engine advances the instance, so it completes without
// any console. Before workers hosted workflows, the instance stayed `running` forever.
const here = path.dirname(fileURLToPath(import.meta.url));
const workerRoot = path.resolve(here, "../../../../worker");
const webRoot = path.resolve(here, "../../..");

let db: TestDatabase;
const children: ChildProcess[] = [];

function start(cwd: string, entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      CYCLIUM_DEPLOYMENT: PIPELINE_DEPLOYMENT_PATH,
      // No cron firing in this test: only the console starts the workflow.
      CYCLIUM_TEST_PIPELINE_CRON: "0 0 1 1 *",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const output: string[] = [];
  const collect = (chunk: Buffer) => output.push(...chunk.toString("utf8").split("\n"));
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  return { child, output, exited };
}

beforeAll(async () => {
  db = await createTestDatabase();
}, 30_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  await db?.drop();
}, 20_000);

async function statusOf(instanceId: string) {
  const instance = await db.pool.query<{ status: string }>(
    "SELECT status FROM cyclium_workflow_instances WHERE id = $1",
    [instanceId],
  );
  const episodes = await db.pool.query<{
    workflow_step: string;
    status: string;
    executed_by: string;
  }>(
    `SELECT workflow_step, status, executed_by FROM cyclium_episodes
      WHERE workflow_instance_id = $1 ORDER BY inserted_at`,
    [instanceId],
  );
  return { status: instance.rows[0]?.status, episodes: episodes.rows };
}

describe("killing the console mid-workflow", () => {
  it("leaves the workflow to the workers, which complete it", async () => {
    const worker = start(workerRoot, "src/main.ts", {
      PORT: "0",
      CYCLIUM_NODE_IDENTITY: "kill-worker",
      CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "500",
    });
    await vi.waitFor(
      () => {
        expect(worker.child.exitCode).toBeNull();
        expect(worker.output.join("\n")).toContain("worker listening");
      },
      { timeout: 20_000, interval: 100 },
    );
    const consoleProcess = start(webRoot, "src/server/runtime/testing/console-node-process.ts", {
      CYCLIUM_NODE_IDENTITY: "kill-console",
      START_WORKFLOW: SLOW_PIPELINE_WORKFLOW,
    });
    const instanceId = await vi.waitFor(
      () => {
        const line = consoleProcess.output.find((text) => text.startsWith('{"started"'));
        expect(line, consoleProcess.output.join("\n")).toBeDefined();
        return (JSON.parse(line ?? "{}") as { started: string }).started;
      },
      { timeout: 20_000, interval: 100 },
    );
    // The first step (4 x 1 s) is running on the worker: kill the console now.
    await vi.waitFor(
      async () => {
        const { episodes } = await statusOf(instanceId);
        expect(episodes).toEqual([
          { workflow_step: "extract", status: "running", executed_by: "kill-worker" },
        ]);
      },
      { timeout: 10_000, interval: 100 },
    );
    consoleProcess.child.kill("SIGKILL");
    expect(await consoleProcess.exited).toBe("SIGKILL");

    await vi.waitFor(async () => expect((await statusOf(instanceId)).status).toBe("done"), {
      timeout: 20_000,
      interval: 250,
    });
    const { episodes } = await statusOf(instanceId);
    expect(episodes).toEqual([
      { workflow_step: "extract", status: "completed", executed_by: "kill-worker" },
      { workflow_step: "load", status: "completed", executed_by: "kill-worker" },
    ]);
    expect(worker.output.join("\n")).not.toContain("workflow not registered");
  }, 40_000);
});
