import { setTimeout as sleep } from "node:timers/promises";
import { startPrivateTestServer, type PrivateTestServer } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWriteRetryRig, loadOutcomes, within } from "./testing/write-retry-rig";

// A server of this file's own: stopping the shared test server would break the files running
// beside this one.
let server: PrivateTestServer;
let harness: pg.Pool;
let worker: pg.Pool;

beforeAll(async () => {
  server = await startPrivateTestServer();
  harness = new pg.Pool({ connectionString: server.url, max: 2 });
  harness.on("error", () => undefined);
  // Like the worker's pool: only idle clients have an 'error' listener.
  worker = new pg.Pool({ connectionString: server.url, max: 10 });
  worker.on("error", () => undefined);
}, 60_000);

afterAll(async () => {
  await within(10_000, "closing the pools", Promise.all([worker.end(), harness.end()])).catch(
    () => undefined,
  );
  await server.remove();
}, 30_000);

describe("LocalRunner across a PostgreSQL restart", () => {
  it("completes running episodes, and starts those dispatched meanwhile, on the same node when the server is down for 1.5 s", async () => {
    // The lease (8 s) outlasts the outage and the restart's crash recovery, so the claim is
    // still this node's by its own reckoning throughout and nothing may be given up.
    const rig = createWriteRetryRig({ worker, harness, leaseSeconds: 8 });
    const running = await rig.createEpisodes(8, { steps: 30, stepMs: 50 });
    // Dispatched while the server is down: their start statements meet a refused connection.
    const late = await rig.createEpisodes(4, { steps: 5, stepMs: 20 });
    const episodes = [...running, ...late];
    const runs = running.map((episode) => rig.runner.run(episode));

    await sleep(400);
    await server.stopImmediate();
    runs.push(...late.map((episode) => rig.runner.run(episode)));
    await sleep(1500);
    await server.start();
    const results = await within(25_000, "the runs", Promise.all(runs));

    expect(new Set(rig.retries.map((event) => event.metadata.write))).toContain("start");
    expect(new Set(rig.retries.map((event) => event.metadata.write))).toContain("step");
    expect(results.map((result) => result.kind)).toEqual(episodes.map(() => "completed"));
    const outcomes = await loadOutcomes(
      harness,
      episodes.map((episode) => episode.id),
    );
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        status: "completed",
        executed_by: rig.node,
        claim_attempt: 1,
        step_attempts: [1],
      });
      // Every step journaled once, the usage counted once per step.
      expect(outcome.steps).toBe(late.some((episode) => episode.id === outcome.id) ? 5 : 30);
      expect(outcome.distinct_steps).toBe(outcome.steps);
      expect(outcome.turns_used).toBe(outcome.steps);
    }
  }, 40_000);

  it("gives a running episode up once its lease lapses by its own reckoning while the server stays down", async () => {
    // Lease 2 s: the heartbeat aborts the work at 1.8 s without a renew, and the step journal
    // stops resending then. The server stays down until every run has settled.
    const rig = createWriteRetryRig({ worker, harness, leaseSeconds: 2 });
    const episodes = await rig.createEpisodes(3, { steps: 200, stepMs: 50 });
    const runs = Promise.all(episodes.map((episode) => rig.runner.run(episode)));
    await sleep(300);
    await server.stopImmediate();
    try {
      const results = await within(10_000, "the runs with the server down", runs);
      expect(results.map((result) => result.kind)).toEqual(episodes.map(() => "left_running"));
      expect(rig.retries.length).toBeGreaterThan(0);
    } finally {
      await server.start();
    }
  }, 30_000);
});
