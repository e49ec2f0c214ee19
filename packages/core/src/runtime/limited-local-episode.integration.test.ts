import { describe, expect, it, vi } from "vitest";
import { createEpisode } from "../episodes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { useHostSuite } from "./testing/host-suite";
import { stepsStrategy } from "./testing/index";

// SPEC section 16: a fire under a cluster-wide limit goes to the deferred queue; an episode in
// this node's own queue that a limit refuses (queued before the limit was declared, say) is
// handed to the cluster as a trigger request, not left in a queue that would retry it.
const { db, startHost, actor } = useHostSuite();

describe("an episode a cluster-wide limit refuses", () => {
  it("fired under a limit, waits in the deferred queue; queued here, is handed over", async () => {
    const limited = actor("limited", stepsStrategy, { concurrency: { global: 1 } });
    const { host, nodeIdentity } = startHost([limited]);
    // The limit's one slot, held by an episode running elsewhere.
    await db.pool.query(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, executed_by,
                                     started_at, limit_keys)
       VALUES ('limited', 'run', 'running', 'manual', 'elsewhere', now(), ARRAY['global:/limited'])`,
    );
    const fired = await host.fire({
      actorId: "limited",
      expectationId: "run",
      triggerType: "manual",
      input: { steps: 1 },
    });
    expect(fired).toMatchObject({ kind: "created", deferred: true });
    // One in this node's own queue, as recovery hands a restarted episode over.
    const created = await createEpisode(
      {
        actorId: "limited",
        expectationId: "run",
        triggerType: "manual",
        dedupeKey: null,
        input: { steps: 1 },
        status: "pending",
        queuedBy: nodeIdentity,
        sourceNode: nodeIdentity,
        sourceStack: null,
        sourceEnv: null,
        jitterMs: 0,
        logger: silentLogger,
        telemetry: new Telemetry(),
      },
      db.pool,
    );
    if (created.kind !== "created") throw new Error("not created");
    expect(await host.enqueueEpisode(created.episode.id)).toMatchObject({ kind: "queued" });
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ queued_by: string | null; requests: number }>(
          `SELECT queued_by, (SELECT count(*)::int FROM cyclium_trigger_requests r
                               WHERE r.episode_id = e.id AND r.status = 'pending') AS requests
             FROM cyclium_episodes e WHERE id = $1`,
          [created.episode.id],
        );
        expect(rows[0]).toEqual({ queued_by: null, requests: 1 });
      },
      { timeout: 10_000, interval: 50 },
    );
    const { rows } = await db.pool.query<{ status: string; n: number }>(
      "SELECT status, count(*)::int AS n FROM cyclium_episodes GROUP BY status ORDER BY status",
    );
    expect(rows).toEqual([
      { status: "pending", n: 2 },
      { status: "running", n: 1 },
    ]);
  });
});
