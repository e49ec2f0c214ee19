import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Telemetry } from "../telemetry/index";
import { defineTrigger, type TriggerPollArgs } from "./trigger-definition";
import { TriggerRegistry } from "./trigger-registry";
import { TriggerScheduler } from "./trigger-scheduler";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

describe("a poll function that hangs", () => {
  it("is abandoned after its timeout, and the trigger fires on its next turn", async () => {
    const calls: TriggerPollArgs[] = [];
    const sensor = defineTrigger({
      name: "sensor",
      on: "primary",
      pollIntervalMs: 100,
      // The first call never settles (a socket that never answers); later ones fire.
      poll: (args) => {
        calls.push(args);
        return calls.length === 1 ? new Promise<never>(() => {}) : true;
      },
    });
    const telemetry = new Telemetry();
    const skips: Record<string, unknown>[] = [];
    telemetry.subscribe((event) => {
      if (event.name === "cyclium.trigger.skipped") skips.push(event.metadata);
    });
    const scheduler = new TriggerScheduler({
      db: db.pool,
      env: null,
      node: "n",
      triggers: new TriggerRegistry().register(sensor),
      startWorkflow: () => Promise.resolve({ instanceId: crypto.randomUUID() }),
      tickMs: 20,
      pollTimeoutMs: 300,
      telemetry,
    });
    await scheduler.start();
    try {
      await vi.waitFor(
        async () => {
          const { rows } = await db.pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM cyclium_trigger_firings WHERE source = 'poll'",
          );
          expect(rows[0]?.n).toBe(1);
        },
        { timeout: 15_000, interval: 50 },
      );
    } finally {
      await scheduler.stop();
    }
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(calls[1]?.signal.aborted).toBe(false);
    expect(skips).toContainEqual({ trigger: "sensor", source: "poll", reason: "poll_timeout" });
  });
});
