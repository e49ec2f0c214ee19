import { describe, expect, it, vi } from "vitest";
import { done, type Strategy } from "../actors/index";
import type { FencedFindingResult } from "./fenced-findings";
import { useHostSuite } from "./testing/host-suite";

// SPEC 12, "fence before side effects": findings and results land only while the claim is held.
const { db, startHost: startSuiteHost, actor, episode, fired, settled } = useHostSuite();
const results = new Map<string, FencedFindingResult>();
/** Where the run holds its lease: a claim row, or the episode's own row (the default). */
let model: "claim_rows" | "in_row" = "claim_rows";

/** Raises a finding; with `{ steal: true }` another node takes the claim over just before. */
const raising: Strategy<unknown, { steal: boolean }> = {
  init: (_ctx, input) => ({ steal: (input as { steal?: boolean }).steal === true }),
  step: async (state, ctx) => {
    if (state.steal && model === "claim_rows") {
      await ctx.db.query(
        `UPDATE cyclium_work_claims SET owner_node = 'thief', attempt = attempt + 1
          WHERE dedupe_key IN ($1, 'episode:' || $2)`,
        [ctx.episode.dedupeKey ?? "", ctx.episode.id],
      );
    }
    if (state.steal && model === "in_row") {
      // As stealEpisodeLeases leaves the row.
      await ctx.db.query(
        `UPDATE cyclium_episodes SET executed_by = 'thief', attempt = attempt + 1 WHERE id = $1`,
        [ctx.episode.id],
      );
    }
    results.set(
      ctx.episode.id,
      await ctx.raiseFinding({ findingKey: `breach:${ctx.episode.id}`, class: "limit_breach" }),
    );
    return done({ finished: true });
  },
};

describe.each(["claim_rows", "in_row"] as const)("fence before side effects (%s)", (leases) => {
  const startHost = (actors: Parameters<typeof startSuiteHost>[0]) => {
    model = leases;
    return startSuiteHost(actors, { episodeLeases: leases });
  };

  it("persists the finding and the result while the claim is held", async () => {
    const { host } = startHost([actor("raiser", raising)]);
    const id = await fired(host, "raiser", {});
    expect(await settled(id)).toMatchObject({ status: "completed", result: { finished: true } });
    expect(results.get(id)).toMatchObject({ kind: "written", finding: { episodeId: id } });
  });

  it("a lost claim skips the finding and the result and leaves the episode row alone", async () => {
    const { host } = startHost([actor("raiser", raising)]);
    const id = await fired(host, "raiser", { steal: true });
    await vi.waitFor(() => expect(results.get(id)).toBeDefined(), { timeout: 10_000 });
    expect(results.get(id)).toEqual({ kind: "fenced" });
    const findings = await db.pool.query(`SELECT 1 FROM cyclium_findings WHERE finding_key = $1`, [
      `breach:${id}`,
    ]);
    expect(findings.rowCount).toBe(0);
    // The final write is fenced too: still running (the thief's to finish), no result.
    await vi.waitFor(async () => {
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM cyclium_episode_steps WHERE episode_id = $1`,
        [id],
      );
      expect(rows[0]?.n).toBe(0);
      expect(host.runningCount("raiser") + host.endingCount("raiser")).toBe(0);
    });
    expect(await episode(id)).toMatchObject({
      status: "running",
      result: null,
      ...(leases === "in_row" ? { executed_by: "thief" } : {}),
    });
  });
});
