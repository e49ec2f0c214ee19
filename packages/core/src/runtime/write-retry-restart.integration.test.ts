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
  it("completes running episodes on the same node when the server is down for 1.5 s", async () => {
    // The lease (8 s) outlasts the outage and the restart's crash recovery, so the claim is
    // still this node's by its own reckoning throughout and nothing may be given up.
    const rig = createWriteRetryRig({ worker, harness, leaseSeconds: 8 });
    const episodes = await rig.createEpisodes(8, { steps: 30, stepMs: 50 });
    const runs = Promise.all(episodes.map((episode) => rig.runner.run(episode)));

    await sleep(400);
    await server.stopImmediate();
    await sleep(1500);
    await server.start();
    const results = await within(25_000, "the runs", runs);

    expect(rig.retries.length).toBeGreaterThan(0);
    expect(results.map((result) => result.status)).toEqual(episodes.map(() => "completed"));
    const outcomes = await loadOutcomes(
      harness,
      episodes.map((episode) => episode.id),
    );
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        status: "completed",
        executed_by: rig.node,
        claim_attempt: 1,
        steps: 30,
        distinct_steps: 30,
        turns_used: 30,
        step_attempts: [1],
      });
    }
  }, 40_000);
});
