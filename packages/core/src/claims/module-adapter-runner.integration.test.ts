import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActorRegistry, defineActor, done, StrategyRegistry, type Strategy } from "../actors/index";
import { createEpisode } from "../episodes/index";
import { LocalRunner } from "../runtime/local-runner";
import { silentLogger, Telemetry } from "../telemetry/index";
import { loadWorkClaims } from "./load-work-claims";
import type { WorkClaims } from "./work-claims";

// Issue 18 point 5: a third-party adapter used to be bypassed or to run unfenced. Loaded by
// module path, the example adapter must see the episode's whole claim life cycle, and the
// runner's fence-before-side-effects check must go through its `holds`.
const EXAMPLE = fileURLToPath(new URL("./testing/example-table-work-claims.ts", import.meta.url));
const telemetry = new Telemetry();

let db: TestDatabase;
let claims: WorkClaims;
/** What each run's strategy saw from ctx.holdsClaim(), before and after the claim was stolen. */
const seen: { before: boolean; after: boolean }[] = [];
let stealDuringStep = false;

const checksItsClaim: Strategy<unknown, null> = {
  init: () => null,
  step: async (_state, ctx) => {
    const before = await ctx.holdsClaim();
    if (stealDuringStep) {
      // The node stalled past its lease and another node took the claim over.
      await db.pool.query(
        "UPDATE example_work_claims SET lease_until = now() - interval '1 second' WHERE dedupe_key = $1",
        [`episode:${ctx.episode.id}`],
      );
      const stolen = await claims.acquire({
        dedupeKey: `episode:${ctx.episode.id}`,
        owner: "thief",
        leaseSeconds: 60,
      });
      expect(stolen).toMatchObject({ ok: true, stolen: true });
    }
    seen.push({ before, after: await ctx.holdsClaim() });
    return done({ ok: true });
  },
};

beforeAll(async () => {
  db = await createTestDatabase();
  claims = await loadWorkClaims({ setting: EXAMPLE, db: db.pool, telemetry, logger: silentLogger });
});

afterAll(async () => {
  await db.drop();
});

async function runOne(runner: LocalRunner, label: string) {
  const created = await createEpisode(
    {
      actorId: "a",
      expectationId: "run",
      triggerType: "manual",
      dedupeKey: null,
      status: "pending",
      sourceNode: "n1",
      sourceStack: null,
      sourceEnv: null,
      jitterMs: 0,
      logger: silentLogger,
      telemetry,
    },
    db.pool,
  );
  if (created.kind !== "created") throw new Error(`episode ${label} not created`);
  // The runner claims `episode:{id}` for an episode without a dedupe key.
  const key = `episode:${created.episode.id}`;
  return { key, result: await runner.run(created.episode) };
}

describe("a claim adapter loaded from a module", () => {
  it("runs episodes through the adapter and fences side effects with its holds", async () => {
    const runner = new LocalRunner({
      db: db.pool,
      claims,
      leaseSeconds: 30,
      nodeIdentity: "n1",
      registry: new ActorRegistry({
        actors: [
          defineActor({
            identifier: "a",
            expectations: [{ id: "run", strategy: "checks", trigger: { manual: true } }],
          }),
        ],
        strategies: new StrategyRegistry({ checks: checksItsClaim }),
      }),
      logger: silentLogger,
      telemetry,
      hardStop: new AbortController().signal,
      isDraining: () => false,
    });

    const { key, result } = await runOne(runner, "first");
    expect(result.kind).toBe("completed");
    expect(seen.at(-1)).toEqual({ before: true, after: true });
    // The adapter's store has the claim, released; cyclium_work_claims was never used.
    const { rows } = await db.pool.query(
      "SELECT state, owner_node, attempt FROM example_work_claims WHERE dedupe_key = $1",
      [key],
    );
    expect(rows).toEqual([{ state: "done", owner_node: "n1", attempt: 1 }]);
    const builtIn = await db.pool.query("SELECT 1 FROM cyclium_work_claims");
    expect(builtIn.rowCount).toBe(0);

    // A zombie: its claim is stolen mid-step, and holdsClaim says so before any side effect.
    stealDuringStep = true;
    const zombie = await runOne(runner, "stolen");
    expect(seen.at(-1)).toEqual({ before: true, after: false });
    const { rows: after } = await db.pool.query(
      "SELECT state, owner_node, attempt FROM example_work_claims WHERE dedupe_key = $1",
      [zombie.key],
    );
    // The zombie's release was refused: the thief still holds attempt 2.
    expect(after).toEqual([{ state: "claimed", owner_node: "thief", attempt: 2 }]);
  });
});
