import { describe, expect, it, vi } from "vitest";
import { done, type Strategy } from "../actors/index";
import { PostgresWorkClaims } from "../claims/index";
import { raiseFinding, sweepExpiredFindings } from "../findings/index";
import { silentLogger } from "../telemetry/index";
import { useHostSuite } from "./testing/host-suite";
import { recordTopics } from "./testing/topic-recorder";

// Issue 20: finding.raised / finding.cleared (the runner's fenced writes) and finding.expired
// (the expiry sweep), each published on the bus and emitted as telemetry once per occurrence.
const { db, startHost, actor, fired, settled } = useHostSuite();

interface FindingInput {
  key: string;
  clear?: boolean;
  steal?: boolean;
}

/** Raises (or clears) `key`; with `steal` another node takes the claim over first (fenced). */
const findingStrategy: Strategy<unknown, FindingInput> = {
  init: (_ctx, input) => input as FindingInput,
  step: async (state, ctx) => {
    if (state.steal) {
      await ctx.db.query(
        `UPDATE cyclium_work_claims SET owner_node = 'thief', attempt = attempt + 1
          WHERE dedupe_key IN ($1, 'episode:' || $2)`,
        [ctx.episode.dedupeKey ?? "", ctx.episode.id],
      );
    }
    if (state.clear) await ctx.clearFinding(state.key);
    else await ctx.raiseFinding({ findingKey: state.key, class: "limit_breach" });
    return done({ ok: true });
  },
};

describe("finding lifecycle topics (issue 20)", () => {
  it("raised once per raise, cleared once per clear, nothing for a fenced write", async () => {
    const seen = recordTopics();
    const { host } = startHost([actor("finder", findingStrategy)], {
      bus: seen.bus,
      telemetry: seen.telemetry,
    });
    await settled(await fired(host, "finder", { key: "cpu:web-1" }));
    await expect.poll(() => seen.count("finding.raised")).toEqual({ bus: 1, telemetry: 1 });
    // Raised again while active: the same row (raised_count 2), a second occurrence.
    await settled(await fired(host, "finder", { key: "cpu:web-1" }));
    await expect.poll(() => seen.count("finding.raised")).toEqual({ bus: 2, telemetry: 2 });
    const raised = seen.topics.filter((event) => event.topic === "finding.raised");
    expect(raised.map((event) => (event.payload as { raised_count: number }).raised_count)).toEqual(
      [1, 2],
    );

    await settled(await fired(host, "finder", { key: "cpu:web-1", clear: true }));
    await expect.poll(() => seen.count("finding.cleared")).toEqual({ bus: 1, telemetry: 1 });
    expect(seen.topics.find((event) => event.topic === "finding.cleared")?.payload).toMatchObject({
      finding_key: "cpu:web-1",
      status: "cleared",
      actor_id: "finder",
    });
    // Clearing what is no longer active announces nothing.
    await settled(await fired(host, "finder", { key: "cpu:web-1", clear: true }));

    // A node that lost its claim writes nothing and announces nothing.
    await fired(host, "finder", { key: "mem:web-2", steal: true });
    await vi.waitFor(
      () => expect(host.runningCount("finder") + host.endingCount("finder")).toBe(0),
      { timeout: 10_000 },
    );
    const { rowCount } = await db.pool.query(
      "SELECT 1 FROM cyclium_findings WHERE finding_key = 'mem:web-2'",
    );
    expect(rowCount).toBe(0);
    await seen.bus.drain();
    expect(seen.count("finding.raised")).toEqual({ bus: 2, telemetry: 2 });
    expect(seen.count("finding.cleared")).toEqual({ bus: 1, telemetry: 1 });
  });

  it("expired once per finding with three nodes sweeping, again and again", async () => {
    const seen = recordTopics();
    const claims = new PostgresWorkClaims({ db: db.pool, episodeLeases: "claim_rows" });
    const expiring = await Promise.all(
      ["disk:a", "disk:b"].map(async (findingKey) => {
        const { finding } = await raiseFinding(
          { findingKey, class: "limit_breach", ttlSeconds: 1 },
          db.pool,
        );
        return finding.id;
      }),
    );
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ due: boolean }>(
          "SELECT bool_and(expires_at < now()) AS due FROM cyclium_findings WHERE id = ANY($1)",
          [expiring],
        );
        expect(rows[0]?.due).toBe(true);
      },
      { timeout: 5_000, interval: 50 },
    );
    const sweep = (owner: string) =>
      sweepExpiredFindings(
        {
          claims,
          owner,
          leaseSeconds: 30,
          logger: silentLogger,
          telemetry: seen.telemetry,
          bus: seen.bus,
        },
        db.pool,
      );
    for (let round = 0; round < 3; round++) {
      await Promise.all(["sweeper-a", "sweeper-b", "sweeper-c"].map(sweep));
    }
    await seen.bus.drain();
    expect(seen.count("finding.expired")).toEqual({ bus: 2, telemetry: 2 });
    const ids = seen.topics
      .filter((event) => event.topic === "finding.expired")
      .map((event) => (event.payload as { finding_id: string }).finding_id);
    expect(ids.sort()).toEqual([...expiring].sort());
  });
});
