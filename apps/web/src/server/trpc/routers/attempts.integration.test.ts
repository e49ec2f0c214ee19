import {
  ActorRegistry,
  StrategyRegistry,
  sweepOrphanedEpisodes,
  pruneFinishedEpisodes,
  defineActor,
  done,
} from "@cyclium/core/console";
import { seedStaleEpisodes, createHostFixture, throwingStrategy } from "@cyclium/core/testing";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../../auth/testing/auth-test-kit";
import { setConsoleRuntime, type TConsoleRuntime } from "../../runtime/console-runtime";
import { createCaller } from "../root-router";

// Issue 14 item 3 through createCaller on a real database: every attempt's error is kept across
// a failure, an operator retry and a recovery (real runs on a core host and real sweeps), and a
// retry with edited input is checked against the expectation's schema from the deployment.
type TIssue = { path: string; message: string };

let database: TestDatabase;
let users: TTestUsers;
const fixture = createHostFixture(() => database.pool);

const ZTypedInput = z.object({
  resourceId: z.string().min(1),
  threshold: z.number().int().min(1).max(100).default(80),
});
const typed = defineActor({
  identifier: "typed",
  expectations: [
    {
      id: "check",
      strategy: { init: () => null, step: () => done() },
      trigger: { manual: true },
      input: ZTypedInput,
    },
  ],
});
const registry = new ActorRegistry({ strategies: new StrategyRegistry({}), actors: [typed] });

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  setConsoleRuntime({ nodeIdentity: "web-test", registry } as unknown as TConsoleRuntime);
});

afterAll(async () => {
  setConsoleRuntime(null);
  await fixture.stopAll();
  await database?.drop();
});

const viewer = () => createCaller(testContext(database.pool, users.viewer));
const operator = () => createCaller(testContext(database.pool, users.operator));
const sweeper = () => ({ db: database.pool, node: "sweeper-1", scope: { stack: null, env: null } });

/** Makes a pending (retried) episode look like a run whose node died ten minutes ago. */
async function orphan(id: string): Promise<void> {
  await database.pool.query(
    `UPDATE cyclium_episodes
        SET status = 'running', started_at = now() - interval '10 minutes',
            updated_at = now() - interval '10 minutes', executed_by = 'dead-node'
      WHERE id = $1`,
    [id],
  );
  // Its journal too: the sweep measures silence from the newest step.
  await database.pool.query(
    `UPDATE cyclium_episode_steps SET inserted_at = now() - interval '10 minutes'
      WHERE episode_id = $1`,
    [id],
  );
}

async function failedEpisode(input: unknown): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, input, error_class, error_message, finished_at)
     VALUES ('typed', 'check', 'failed', 'manual', $1::jsonb, 'ZodError', 'bad input', now())
     RETURNING id`,
    [JSON.stringify(input)],
  );
  return rows[0]!.id;
}

describe("attempts.list", () => {
  it("keeps each attempt's error across a failure, an operator retry and an orphaning", async () => {
    const { host, nodeIdentity } = fixture.startHost([fixture.actor("flaky", throwingStrategy)]);
    const id = await fixture.fired(host, "flaky");
    await fixture.settled(id);
    // No runner from here on: attempt 2 is orphaned by hand, not run.
    await fixture.stopAll();

    const first = await viewer().attempts.list({ id });
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      attempt: 1,
      outcome: "failed",
      errorClass: "upstream_unavailable",
      errorMessage: "upstream said no",
      node: nodeIdentity,
    });
    // The strategy's own stack, what the operator needs to find the line that threw.
    expect(first[0]?.errorStack).toContain("upstream said no");
    expect(first[0]?.errorStack).toContain("test-strategies");
    expect(typeof first[0]?.insertedAt).toBe("string");

    // The retry clears the episode's error for its next run; the attempt's error stays.
    await operator().episodes.retry({ id });
    const detail = await viewer().episodes.detail({ id });
    expect(detail).toMatchObject({ status: "pending", attempt: 2, errorClass: null });
    expect(await viewer().attempts.list({ id })).toHaveLength(1);

    // Attempt 2's node dies mid-run and the sweep fails it (policy fail): a second entry.
    await orphan(id);
    const swept = await sweepOrphanedEpisodes(sweeper(), { resolvePolicy: () => "fail" });
    expect(swept.failed).toBe(1);
    const both = await viewer().attempts.list({ id });
    expect(both.map((a) => [a.attempt, a.outcome, a.errorClass, a.node])).toEqual([
      [1, "failed", "upstream_unavailable", nodeIdentity],
      [2, "orphaned", "orphaned", "dead-node"],
    ]);
    expect(both[1]?.errorMessage).toContain("recovery policy is fail");
    expect(both[1]?.errorStack).toBeNull();
  });

  it("records the orphaned attempt when recovery restarts the episode", async () => {
    const [id] = await seedStaleEpisodes(
      { count: 1, actorId: "gone", dedupePrefix: null },
      database.pool,
    );
    const swept = await sweepOrphanedEpisodes(sweeper(), { resolvePolicy: () => "restart" });
    expect(swept.restarted).toBe(1);
    const attempts = await viewer().attempts.list({ id: id! });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: "orphaned", node: "dead-node" });
    expect(attempts[0]?.errorMessage).toContain("ran it again as attempt 2");
    expect(await viewer().episodes.detail({ id: id! })).toMatchObject({ attempt: 2 });
  });

  it("lists nothing for an episode that never failed, and refuses a malformed id", async () => {
    const id = await failedEpisode({ resourceId: "x" });
    expect(await viewer().attempts.list({ id })).toEqual([]);
    await expect(viewer().attempts.list({ id: "not-a-uuid" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("goes with its episode when retention prunes it", async () => {
    const [id] = await seedStaleEpisodes(
      { count: 1, actorId: "pruned", dedupePrefix: null },
      database.pool,
    );
    await sweepOrphanedEpisodes(sweeper(), { resolvePolicy: () => "fail" });
    expect(await viewer().attempts.list({ id: id! })).toHaveLength(1);
    await database.pool.query(
      "UPDATE cyclium_episodes SET finished_at = now() - interval '40 days' WHERE id = $1",
      [id],
    );
    const pruned = await pruneFinishedEpisodes(
      { actorId: "pruned", olderThanMs: 30 * 86_400_000, limit: 10 },
      database.pool,
    );
    expect(pruned.episodes).toBe(1);
    const { rows } = await database.pool.query(
      "SELECT 1 FROM cyclium_episode_attempts WHERE episode_id = $1",
      [id],
    );
    expect(rows).toHaveLength(0);
  });
});

describe("attempts.retryWithInput", () => {
  it("refuses an input the expectation's schema refuses, with field issues, changing nothing", async () => {
    const id = await failedEpisode({ resourceId: "" });
    const error = await operator()
      .attempts.retryWithInput({ id, input: { resourceId: "", threshold: 500 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    expect((error as TRPCError).message).toContain("resourceId");
    const cause = (error as TRPCError).cause as { details?: { issues?: TIssue[] } };
    expect(cause.details?.issues?.map((issue) => issue.path)).toEqual(["resourceId", "threshold"]);
    expect(cause.details?.issues?.every((issue) => issue.message.length > 0)).toBe(true);
    const detail = await viewer().episodes.detail({ id });
    expect(detail).toMatchObject({ status: "failed", attempt: 1, input: { resourceId: "" } });
    const audit = await auditRows(database.pool, "episodes.retry_with_input");
    expect(audit.at(-1)).toMatchObject({ outcome: "error", target: id });
  });

  it("stores the schema's parsed input and runs the episode again as its next attempt", async () => {
    const id = await failedEpisode({ resourceId: "" });
    const answer = await operator().attempts.retryWithInput({ id, input: { resourceId: "db-1" } });
    expect(answer).toEqual({ id, status: "pending", attempt: 2 });
    const detail = await viewer().episodes.detail({ id });
    // Defaults applied, as a fire through the client stores them.
    expect(detail?.input).toEqual({ resourceId: "db-1", threshold: 80 });
    expect(detail?.triggerRequests).toHaveLength(1);
    const audit = await auditRows(database.pool, "episodes.retry_with_input");
    expect(audit.at(-1)).toMatchObject({ outcome: "ok", target: id });
  });

  it("answers conflict for an episode that is not failed or cancelled, and a viewer is refused", async () => {
    const id = await failedEpisode({ resourceId: "a" });
    await database.pool.query("UPDATE cyclium_episodes SET status = 'completed' WHERE id = $1", [
      id,
    ]);
    await expect(
      operator().attempts.retryWithInput({ id, input: { resourceId: "b" } }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      viewer().attempts.retryWithInput({ id, input: { resourceId: "b" } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("actors.inputSchemas and fire", () => {
  it("describes each expectation's input as JSON Schema with an example that passes it", async () => {
    const [schema] = await viewer().actors.inputSchemas();
    expect(schema).toMatchObject({ actorId: "typed", expectationId: "check", note: null });
    expect(schema?.jsonSchema).toMatchObject({
      type: "object",
      properties: { resourceId: { type: "string", minLength: 1 }, threshold: { default: 80 } },
      required: ["resourceId"],
    });
    expect(schema?.example).toEqual({ resourceId: "x", threshold: 80 });
    expect(ZTypedInput.safeParse(schema?.example).success).toBe(true);
  });

  it("refuses a fire whose input the schema refuses, with field issues", async () => {
    const error = await operator()
      .actors.fire({
        actorId: "typed",
        expectationId: "check",
        idempotencyKey: "fire-typed-invalid-1",
        input: { resourceId: 7 },
      })
      .catch((caught: unknown) => caught);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    const cause = (error as TRPCError).cause as { details?: { issues?: TIssue[] } };
    expect(cause.details?.issues?.map((issue) => issue.path)).toEqual(["resourceId"]);
  });
});
