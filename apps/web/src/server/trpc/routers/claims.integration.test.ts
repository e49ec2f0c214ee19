import {
  PostgresWorkClaims,
  sweepExpiredClaims,
  startRequestedEpisodes,
  silentLogger,
  Telemetry,
} from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTrpcContext } from "../init";
import { createCaller } from "../root-router";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

function context(): TTrpcContext {
  return {
    db: database.pool,
    node: { identity: "web-test", mode: "trigger_only", env: null, stack: null },
    principal: {
      kind: "user",
      id: "00000000-0000-4000-8000-000000000001",
      name: "viewer@test",
      role: "viewer",
    },
    request: { ip: "127.0.0.1", userAgent: "vitest", origin: "same" },
  };
}

describe("claims.list", () => {
  it("shows a lapsed claim as expired once a node's sweep reclaimed it, and filters on it", async () => {
    const claims = new PostgresWorkClaims({ db: database.pool });
    await claims.acquire({ dedupeKey: "episode:lapsed", owner: "worker-gone", leaseSeconds: 0.2 });
    await claims.acquire({ dedupeKey: "episode:live", owner: "worker-a", leaseSeconds: 60 });
    await sleep(400);
    const caller = createCaller(context());
    const lapsed = await caller.claims.list({ lapsedOnly: true });
    expect(lapsed.items.map((item) => [item.dedupeKey, item.state])).toEqual([
      ["episode:lapsed", "claimed"],
    ]);

    // Two nodes sweep at once: one at a time under the sweep claim, and the row expires once.
    const results = await Promise.all(
      ["worker-a", "worker-b"].map((owner) =>
        sweepExpiredClaims({
          claims,
          owner,
          leaseSeconds: 10,
          logger: silentLogger,
          telemetry: new Telemetry(),
        }),
      ),
    );
    const expiredKeys = results.flatMap((r) => (r.kind === "swept" ? r.expiredKeys : []));
    expect(expiredKeys).toEqual(["episode:lapsed"]);

    const expired = await caller.claims.list({ state: "expired" });
    expect(expired.items).toHaveLength(1);
    expect(expired.items[0]).toMatchObject({
      dedupeKey: "episode:lapsed",
      state: "expired",
      ownerNode: "worker-gone",
      attempt: 1,
    });
    expect((await caller.claims.list({ lapsedOnly: true })).items).toEqual([]);
    const all = await caller.claims.list({});
    expect(all.items.find((item) => item.dedupeKey === "episode:live")?.state).toBe("claimed");
    // Expired claims are not held: the summary counts only the live one.
    expect(await caller.claims.summary({})).toEqual({ claimed: 1, lapsed: 0, stolen: 0 });
  });
});

describe("claims.episodeLeases", () => {
  it("lists and counts episodes holding their own lease beside the claim rows", async () => {
    await database.pool.query("TRUNCATE cyclium_work_claims, cyclium_episodes CASCADE");
    await database.pool.query(
      `WITH e AS (
         INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
         VALUES ('leased_actor', 'run', 'pending', 'manual'),
                ('leased_actor', 'run', 'pending', 'manual')
         RETURNING id, actor_id, expectation_id)
       INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
       SELECT id, actor_id, expectation_id, 'pending' FROM e`,
    );
    const started = await startRequestedEpisodes(
      {
        node: "worker-in-row",
        leaseSeconds: 60,
        limits: [{ actorId: "leased_actor", limit: 2 }],
        sourceStack: null,
        sourceEnv: null,
      },
      database.pool,
    );
    const [lapsed, live] = started.map((s) => s.episode.id);
    await database.pool.query(
      "UPDATE cyclium_episodes SET lease_until = now() - interval '5 seconds' WHERE id = $1",
      [lapsed],
    );
    const claims = new PostgresWorkClaims({ db: database.pool });
    await claims.acquire({ dedupeKey: "episode:row", owner: "worker-a", leaseSeconds: 60 });
    const caller = createCaller(context());

    const leases = await caller.claims.episodeLeases({});
    expect(leases.map((lease) => [lease.episodeId, lease.ownerNode, lease.attempt])).toEqual([
      [lapsed, "worker-in-row", 1],
      [live, "worker-in-row", 1],
    ]);
    expect(leases[0]?.leaseRemainingMs).toBeLessThan(0);
    expect(leases[1]?.claimKey).toBe(`episode:${live}`);
    // Held: the claim row and the live episode lease; lapsed: the other episode lease.
    expect(await caller.claims.summary({})).toEqual({ claimed: 2, lapsed: 1, stolen: 0 });
    // Another env sees none of them.
    expect(await caller.claims.episodeLeases({ env: "staging" })).toEqual([]);
  });
});
