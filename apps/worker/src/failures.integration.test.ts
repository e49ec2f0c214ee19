import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  FAILING_ACTOR,
  FAILING_EXPECTATION,
  FAILING_TRIGGER,
  FAILING_WORKFLOW,
  FAILURE_MESSAGE,
} from "./testing/failing-deployment";
import { spawnWorker, WORKER_MAIN, type WorkerProcess } from "./testing/spawn-worker";

// Issue 31, "failures you can see", from a team's side: the real worker (src/main.ts) runs a
// deployment whose strategy throws and whose poll trigger wants to fire that workflow on every
// turn. What the team relies on is read where the team reads it: the worker's own JSON log,
// the database, GET /metrics.
const DEPLOYMENT = fileURLToPath(new URL("./testing/failing-deployment.ts", import.meta.url));

let db: TestDatabase;
let worker: WorkerProcess;

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}
const WARN = 40;

function logLines(): LogLine[] {
  return worker.output.flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}

const breakerLines = (state: string) =>
  logLines().filter(
    (line) =>
      line.msg === "trigger circuit breaker state changed" &&
      line.trigger === FAILING_TRIGGER &&
      line.state === state,
  );

async function countStepEpisodes(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM cyclium_episodes WHERE actor_id = $1",
    [FAILING_ACTOR],
  );
  return rows[0]?.n ?? 0;
}

beforeAll(async () => {
  db = await createTestDatabase();
  worker = spawnWorker({
    identity: "failing-worker",
    entry: WORKER_MAIN,
    env: { DATABASE_URL: db.url, CYCLIUM_DEPLOYMENT: DEPLOYMENT },
  });
  await worker.ready;
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await db?.drop();
}, 30_000);

describe("a worker whose strategy throws under a poll trigger", () => {
  it("logs the failure at warn with its stack, and keeps that stack with the attempt", async () => {
    const failed = await vi.waitFor(
      () => {
        const line = logLines().find((l) => l.msg === "episode failed");
        if (line === undefined) throw new Error("no failed episode logged yet");
        return line;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(failed.level).toBe(WARN);
    expect(failed).toMatchObject({
      actor_id: FAILING_ACTOR,
      expectation_id: FAILING_EXPECTATION,
      error_class: "LedgerLockedError",
      err: { message: FAILURE_MESSAGE },
    });
    const err = failed.err as { stack: string };
    expect(err.stack).toContain(`LedgerLockedError: ${FAILURE_MESSAGE}`);
    expect(err.stack).toContain("postLedgerEntry");
    expect(err.stack).toContain("failing-deployment.ts");

    const { rows } = await db.pool.query<{
      outcome: string;
      error_class: string;
      error_message: string;
      error_stack: string | null;
      node: string;
    }>(
      `SELECT outcome, error_class, error_message, error_stack, node
         FROM cyclium_episode_attempts WHERE episode_id = $1`,
      [failed.episode_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      outcome: "failed",
      error_class: "LedgerLockedError",
      error_message: FAILURE_MESSAGE,
      node: "failing-worker",
    });
    // The same stack the log line carries.
    expect(rows[0]?.error_stack).toBe(err.stack);

    // Its workflow's failure is a warn line too, naming the trigger that started it.
    const workflowFailed = await vi.waitFor(
      () => {
        const line = logLines().find((l) => l.msg === "workflow failed");
        if (line === undefined) throw new Error("no failed workflow logged yet");
        return line;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(workflowFailed).toMatchObject({
      level: WARN,
      workflow: FAILING_WORKFLOW,
      trigger: FAILING_TRIGGER,
    });
  }, 60_000);

  it("exports the failures per actor and expectation on /metrics", async () => {
    const series = new RegExp(
      `^cyclium_episode_failed_total\\{actor="${FAILING_ACTOR}",expectation="${FAILING_EXPECTATION}"\\} (\\d+)$`,
      "m",
    );
    const value = Number(series.exec(await worker.metricsText())?.[1]);
    expect(value).toBeGreaterThanOrEqual(1);
  });

  it("stops the poll trigger after a few failed firings and tries again only now and then", async () => {
    await vi.waitFor(
      () => {
        if (breakerLines("open").length === 0) throw new Error("breaker not open yet");
      },
      { timeout: 60_000, interval: 200 },
    );
    const opened = breakerLines("open")[0];
    expect(opened?.level).toBe(WARN);
    expect(opened?.consecutive_failures).toBe(3);
    const beforeWindow = await countStepEpisodes();
    // Without the breaker this trigger fired about once a second (its poll is always true and
    // each run fails within milliseconds): ~30 episodes in this window. With the defaults (a
    // 10 s wait, doubling) it makes about two trials.
    const windowMs = 30_000;
    await sleep(windowMs);
    const inWindow = (await countStepEpisodes()) - beforeWindow;
    console.log(`episodes fired in ${windowMs / 1000} s with the breaker open: ${inWindow}`);
    expect(inWindow).toBeLessThanOrEqual(4);
    // Not stuck open: it half-opened for a trial, which failed and opened it again.
    expect(breakerLines("half_open").length).toBeGreaterThanOrEqual(1);
    expect(breakerLines("open").length).toBeGreaterThanOrEqual(2);
    const text = await worker.metricsText();
    expect(text).toMatch(
      new RegExp(
        `^cyclium_trigger_circuit_breaker_state\\{trigger="${FAILING_TRIGGER}"\\} [12]$`,
        "m",
      ),
    );
  }, 120_000);
});
