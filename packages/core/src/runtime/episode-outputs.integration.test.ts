import { describe, expect, it, vi } from "vitest";
import { done, type Strategy } from "../actors/index";
import { claimKeyOf } from "../claims/index";
import { listEpisodeOutputs, writeOutput, type WriteOutputResult } from "../outputs/index";
import { useHostSuite } from "./testing/host-suite";

// Issue 20, the output router: ctx.output writes once per key, fenced by the claim's attempt.
const { db, startHost: startSuiteHost, actor, settled, fired } = useHostSuite();
const results = new Map<string, Record<string, WriteOutputResult>>();
/** Where the run holds its lease: a claim row, or the episode's own row (the default). */
let model: "claim_rows" | "in_row" = "claim_rows";

/** Writes `report:{id}` and a derived output; with `{ steal: true }` a thief takes the claim. */
const writing: Strategy<unknown, { steal: boolean }> = {
  init: (_ctx, input) => ({ steal: (input as { steal?: boolean }).steal === true }),
  step: async (state, ctx) => {
    const key = `report:${ctx.episode.id}`;
    const seen: Record<string, WriteOutputResult> = {};
    seen.first = await ctx.output(key, { by: "attempt 1" });
    seen.derived = await ctx.output({ derived: true });
    if (state.steal) {
      const claimKey = claimKeyOf(ctx.episode);
      await ctx.db.query(
        model === "claim_rows"
          ? `UPDATE cyclium_work_claims SET owner_node = 'thief', attempt = attempt + 1
              WHERE dedupe_key = $1`
          : // As stealEpisodeLeases leaves the row.
            `UPDATE cyclium_episodes SET executed_by = 'thief', attempt = attempt + 1
              WHERE id = $1`,
        [model === "claim_rows" ? claimKey : ctx.episode.id],
      );
      seen.stale = await ctx.output(key, { by: "zombie" });
      // The re-run after the steal: attempt 2 (the thief's) writes the same key.
      seen.rerun = await writeOutput(
        {
          outputKey: key,
          episode: ctx.episode,
          attempt: 2,
          value: { by: "attempt 2" },
          fence: {
            dedupeKey: claimKey,
            owner: "thief",
            attempt: 2,
            ...(model === "in_row" ? { episodeId: ctx.episode.id } : {}),
          },
        },
        ctx.db,
      );
      seen.staleNew = await ctx.output(`${key}:new`, 1);
    } else {
      seen.again = await ctx.output(key, { by: "again" });
    }
    results.set(ctx.episode.id, seen);
    return done({});
  },
};

describe.each(["claim_rows", "in_row"] as const)("ctx.output (%s)", (leases) => {
  const startHost = (actors: Parameters<typeof startSuiteHost>[0]) => {
    model = leases;
    return startSuiteHost(actors, { episodeLeases: leases });
  };

  it("writes once per key: a second write of the key finds the first", async () => {
    const { host } = startHost([actor("writer", writing)]);
    const id = await fired(host, "writer", {});
    expect(await settled(id)).toMatchObject({ status: "completed" });
    const seen = results.get(id);
    expect(seen?.first).toMatchObject({ kind: "written", output: { attempt: 1, env: null } });
    // A manual fire without idempotency key has no dedupe key: the id is the key.
    expect(seen?.derived).toMatchObject({
      kind: "written",
      output: { outputKey: `episode:${id}` },
    });
    expect(seen?.again).toMatchObject({ kind: "existed", output: { value: { by: "attempt 1" } } });
    const outputs = await listEpisodeOutputs({ episodeId: id }, db.pool);
    expect(outputs.map((o) => o.outputKey)).toEqual([`report:${id}`, `episode:${id}`]);
  });

  it("a re-run after a steal finds attempt 1's output; the stale attempt's writes are refused", async () => {
    const { host } = startHost([actor("writer", writing)]);
    const id = await fired(host, "writer", { steal: true });
    const seen = await settledResults(id);
    expect(seen.stale).toEqual({ kind: "fenced" });
    expect(seen.staleNew).toEqual({ kind: "fenced" });
    expect(seen.rerun).toMatchObject({
      kind: "existed",
      output: { attempt: 1, value: { by: "attempt 1" } },
    });
    const { rows } = await db.pool.query<{ output_key: string }>(
      `SELECT output_key FROM cyclium_episode_outputs WHERE output_key LIKE $1`,
      [`report:${id}%`],
    );
    expect(rows).toEqual([{ output_key: `report:${id}` }]);
  });
});

function settledResults(id: string): Promise<Record<string, WriteOutputResult>> {
  return vi.waitFor(
    () => {
      const seen = results.get(id);
      if (seen === undefined) throw new Error("not yet");
      return seen;
    },
    { timeout: 10_000 },
  );
}
