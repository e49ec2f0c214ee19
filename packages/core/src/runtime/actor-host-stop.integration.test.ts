import { describe, expect, it, vi } from "vitest";
import type { Strategy } from "../actors/index";
import { useHostSuite } from "./testing/host-suite";
import { stepsStrategy } from "./testing/index";

const { db, startHost: startSuiteHost, actor, episode, fired, stepCount } = useHostSuite();

// Each case on both lease models: a claim row per run, and the episode's own lease (the default).
describe.each(["claim_rows", "in_row"] as const)("on %s", (leases) => {
  const startHost = (
    actors: Parameters<typeof startSuiteHost>[0],
    options: Parameters<typeof startSuiteHost>[1] = {},
  ) => startSuiteHost(actors, { ...options, episodeLeases: leases });

  /** Another node takes the lease over (attempt + 1), as a steal does. */
  async function steal(id: string): Promise<void> {
    await db.pool.query(
      leases === "claim_rows"
        ? "UPDATE cyclium_work_claims SET owner_node = 'thief', attempt = attempt + 1 WHERE dedupe_key = 'episode:' || $1"
        : "UPDATE cyclium_episodes SET executed_by = 'thief', attempt = attempt + 1 WHERE id = $1",
      [id],
    );
  }

  /** The run's lease as its node left it: a claim row's state, or whether the row holds one. */
  async function leaseLeft(id: string): Promise<unknown> {
    if (leases === "claim_rows") {
      const claim = await db.pool.query(
        "SELECT state FROM cyclium_work_claims WHERE dedupe_key = $1",
        [`episode:${id}`],
      );
      return claim.rows;
    }
    const row = await db.pool.query(
      "SELECT lease_until IS NOT NULL AS leased FROM cyclium_episodes WHERE id = $1",
      [id],
    );
    return row.rows;
  }

  describe("losing the claim", () => {
    it("aborts ctx.signal mid-step and leaves the episode alone when the claim is stolen", async () => {
      let abortedAfterMs: number | undefined;
      const waiter: Strategy<unknown, null> = {
        init: () => null,
        step: async (_state, ctx) => {
          const began = Date.now();
          ctx.signal.addEventListener("abort", () => (abortedAfterMs = Date.now() - began));
          await new Promise((resolve) => setTimeout(resolve, 10_000));
          return { done: true };
        },
      };
      // A 1 s lease is renewed every 333 ms: the renewal after the steal finds it not_owner.
      const { host } = startHost([actor("victim", waiter)], { leaseSeconds: 1 });
      const id = await fired(host, "victim");
      await vi.waitFor(async () => expect((await episode(id)).status).toBe("running"));
      await steal(id);
      await vi.waitFor(() => expect(host.runningCount("victim")).toBe(0), { timeout: 3_000 });
      expect(abortedAfterMs).toBeLessThan(2_000);
      expect((await episode(id)).status).toBe("running");
    });
  });

  describe("ActorHost.stop", () => {
    it("on stop lets the current step finish, then leaves the episode running with its journal", async () => {
      const { host } = startHost([actor("long", stepsStrategy)]);
      const id = await fired(host, "long", { steps: 0, stepMs: 100 });
      await vi.waitFor(async () => expect(await stepCount(id)).toBeGreaterThanOrEqual(2));
      const stoppedAt = Date.now();
      await host.stop({ graceMs: 10_000 });
      expect(Date.now() - stoppedAt).toBeLessThan(1_000);
      expect((await episode(id)).status).toBe("running");
      const steps = await db.pool.query<{ step_no: number }>(
        "SELECT step_no FROM cyclium_episode_steps WHERE episode_id = $1 ORDER BY step_no",
        [id],
      );
      expect(steps.rows.map((r) => r.step_no)).toEqual(steps.rows.map((_, i) => i + 1));
      // Released (recovery may take it at once), not held until it lapses.
      expect(await leaseLeft(id)).toEqual(
        leases === "claim_rows" ? [{ state: "failed" }] : [{ leased: false }],
      );
    });
    it("aborts a step that outlasts the grace period and leaves the episode running", async () => {
      const { host } = startHost([actor("stuck", stepsStrategy)]);
      const id = await fired(host, "stuck", { steps: 0, stepMs: 60_000 });
      await vi.waitFor(async () => expect((await episode(id)).status).toBe("running"));
      const stoppedAt = Date.now();
      await host.stop({ graceMs: 300 });
      expect(Date.now() - stoppedAt).toBeLessThan(2_000);
      expect((await episode(id)).status).toBe("running");
    });

    it("hands episodes that never got a slot over to full nodes as trigger requests", async () => {
      const { host, nodeIdentity } = startHost([
        actor("busy", stepsStrategy, { maxConcurrentEpisodes: 1 }),
      ]);
      const running = await fired(host, "busy", { steps: 2, stepMs: 50 });
      const queued = [await fired(host, "busy"), await fired(host, "busy")];
      await host.stop({ graceMs: 5_000 });
      expect((await episode(running)).status).toBe("running");
      const requests = await db.pool.query<{
        episode_id: string;
        status: string;
        source_node: string;
      }>(
        "SELECT episode_id, status, source_node FROM cyclium_trigger_requests WHERE episode_id = ANY($1::uuid[]) ORDER BY id",
        [queued],
      );
      expect(requests.rows).toEqual(
        queued.map((id) => ({ episode_id: id, status: "pending", source_node: nodeIdentity })),
      );
      for (const id of queued) expect((await episode(id)).status).toBe("pending");
      await expect(
        host.fire({ actorId: "busy", expectationId: "run", triggerType: "manual" }),
      ).rejects.toThrow("not accepting work");
    });
  });
});
