import { describe, expect, it } from "vitest";
import { fail, type Strategy } from "../actors/index";
import { useHostSuite } from "./testing/host-suite";
import { stepsStrategy, throwingStrategy } from "./testing/index";

const { db, startHost, actor, episode, fired, settled } = useHostSuite();

describe("ActorHost with the local runner", () => {
  it("runs pending -> running -> completed, journaling every step with its usage under the claim", async () => {
    const { host, nodeIdentity } = startHost([actor("counter", stepsStrategy)]);
    const id = await fired(host, "counter", { steps: 3, tokensPerStep: 10 });
    const row = await settled(id);
    expect(row).toMatchObject({
      status: "completed",
      executed_by: nodeIdentity,
      turns_used: 3,
      tokens_used: "30",
      result: { steps: 3 },
    });
    expect(row.started_at!.getTime()).toBeLessThanOrEqual(row.finished_at!.getTime());
    const steps = await db.pool.query(
      "SELECT step_no, outcome, turns, tokens, attempt, node FROM cyclium_episode_steps WHERE episode_id = $1 ORDER BY step_no",
      [id],
    );
    expect(steps.rows).toEqual([
      { step_no: 1, outcome: "continue", turns: 1, tokens: 10, attempt: 1, node: nodeIdentity },
      { step_no: 2, outcome: "continue", turns: 1, tokens: 10, attempt: 1, node: nodeIdentity },
      { step_no: 3, outcome: "done", turns: 1, tokens: 10, attempt: 1, node: nodeIdentity },
    ]);
    const claim = await db.pool.query(
      "SELECT state, owner_node FROM cyclium_work_claims WHERE dedupe_key = $1",
      [`episode:${id}`],
    );
    expect(claim.rows).toEqual([{ state: "done", owner_node: nodeIdentity }]);
  });

  it("never runs more than maxConcurrentEpisodes at once, in arrival order (from the step journal)", async () => {
    const { host } = startHost([actor("pair", stepsStrategy, { maxConcurrentEpisodes: 2 })]);
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) ids.push(await fired(host, "pair", { steps: 3, stepMs: 30 }));
    expect(host.runningCount("pair")).toBeLessThanOrEqual(2);
    expect(host.queuedCount("pair")).toBeGreaterThanOrEqual(7);
    for (const id of ids) expect((await settled(id)).status).toBe("completed");

    // An episode occupies its slot from the start of its first step to the end of its last:
    // inserted_at is when a step was journaled (its end), duration_ms how long it ran. The last
    // step is journaled by the end statement, which commits after the slot freed (pipelined
    // ends): it ends at most its duration after the step before it was journaled.
    const { rows } = await db.pool.query<{ episode_id: string; starts: number; ends: number }>(
      `SELECT episode_id,
              extract(epoch FROM min(inserted_at - make_interval(secs => duration_ms / 1000.0))) * 1000 AS starts,
              extract(epoch FROM max(inserted_at) FILTER (WHERE step_no < 3)) * 1000
                + max(duration_ms) FILTER (WHERE step_no = 3) AS ends
         FROM cyclium_episode_steps WHERE episode_id = ANY($1::uuid[]) GROUP BY episode_id`,
      [ids],
    );
    const edges = rows.flatMap((r) => [
      { at: Number(r.starts), delta: 1 },
      { at: Number(r.ends), delta: -1 },
    ]);
    edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
    let current = 0;
    let max = 0;
    for (const edge of edges) {
      current += edge.delta;
      max = Math.max(max, current);
    }
    expect(max).toBe(2);
    const started = await db.pool.query<{ id: string }>(
      "SELECT id FROM cyclium_episodes WHERE id = ANY($1::uuid[]) ORDER BY started_at, id",
      [ids],
    );
    // Slots are handed out in arrival order, but started_at is written by each episode's own
    // start statement, so two neighbours in line may commit their starts the other way round on
    // a loaded machine (seen in a CI run: 0, 2, 1, 3, ...). No episode starts more than one
    // place away from its place in line; a queue that was not FIFO would break this.
    const displacement = started.rows.map((r, rank) => Math.abs(ids.indexOf(r.id) - rank));
    expect(Math.max(...displacement)).toBeLessThanOrEqual(1);
  });

  it("fails the episode with budget_exceeded when turns, tokens or wall time run out", async () => {
    const { host } = startHost([
      actor("turns", stepsStrategy, {}, { maxTurns: 3 }),
      actor("tokens", stepsStrategy, {}, { maxTokens: 100 }),
      actor("wall", stepsStrategy, {}, { maxWallMs: 300 }),
    ]);
    const turns = await settled(await fired(host, "turns", { steps: 0 }));
    expect(turns).toMatchObject({
      status: "failed",
      error_class: "budget_exceeded",
      turns_used: 3,
    });
    expect(turns.error_message).toContain(
      "turn budget exhausted: 3 of 3 turns used (before step 4)",
    );

    const tokens = await settled(await fired(host, "tokens", { steps: 0, tokensPerStep: 60 }));
    expect(tokens).toMatchObject({
      status: "failed",
      error_class: "budget_exceeded",
      tokens_used: "120",
    });
    expect(tokens.error_message).toContain(
      "token budget exhausted: 120 of 100 tokens used (before step 3)",
    );

    const before = Date.now();
    const wall = await settled(await fired(host, "wall", { steps: 0, stepMs: 60_000 }));
    expect(Date.now() - before).toBeLessThan(5_000);
    expect(wall).toMatchObject({ status: "failed", error_class: "budget_exceeded" });
    expect(wall.error_message).toContain("wall-time budget of 300 ms exhausted during step 1");
  });

  it("stops a strategy that declares no budget at Cyclium's default of 12 turns", async () => {
    const { host } = startHost([actor("unbounded", stepsStrategy, {}, {})]);
    const ended = await settled(await fired(host, "unbounded", { steps: 0 }));
    expect(ended).toMatchObject({
      status: "failed",
      error_class: "budget_exceeded",
      turns_used: 12,
    });
    expect(ended.error_message).toContain(
      "turn budget exhausted: 12 of 12 turns used (before step 13)",
    );
  });

  it("keeps a throwing strategy's error class and message, and a fail result's", async () => {
    const failing: Strategy<unknown, null> = {
      init: () => null,
      step: () => fail("limit_unknown", "no limit configured"),
    };
    const badInit: Strategy<unknown, null> = {
      init: () => {
        throw new TypeError("input.resourceId is required");
      },
      step: () => fail("never", "reached"),
    };
    const { host } = startHost([
      actor("thrower", throwingStrategy),
      actor("failer", failing),
      actor("bad_init", badInit),
    ]);
    const thrown = await settled(await fired(host, "thrower"));
    expect(thrown).toMatchObject({
      status: "failed",
      error_class: "upstream_unavailable",
      error_message: "upstream said no",
    });
    const failed = await settled(await fired(host, "failer"));
    expect(failed).toMatchObject({
      status: "failed",
      error_class: "limit_unknown",
      error_message: "no limit configured",
    });
    const init = await settled(await fired(host, "bad_init"));
    expect(init).toMatchObject({
      status: "failed",
      error_class: "TypeError",
      error_message: "init failed: input.resourceId is required",
    });
  });

  it("fails an episode whose strategy name is not registered with unknown_strategy", async () => {
    const { host } = startHost([actor("misnamed", "no_such_strategy")]);
    const row = await settled(await fired(host, "misnamed"));
    expect(row).toMatchObject({ status: "failed", error_class: "unknown_strategy" });
    expect(row.error_message).toContain(
      'Strategy "no_such_strategy" (actor misnamed, expectation run) is not registered',
    );
    expect(row.error_message).toContain("registered: steps");
  });

  it("dedupes a repeated manual fire with the same idempotency key", async () => {
    const { host } = startHost([actor("once", stepsStrategy)]);
    const request = {
      actorId: "once",
      expectationId: "run",
      triggerType: "manual" as const,
      idempotencyKey: "op-1",
    };
    const first = await host.fire(request);
    expect(first).toHaveProperty("episodeId");
    expect(await host.fire(request)).toEqual({
      kind: "deduped",
      dedupeKey: "manual:once:run:op-1",
    });
    await expect(host.fire({ ...request, actorId: "nobody" })).rejects.toThrow(
      'Actor "nobody" does not run',
    );
  });

  it("defers instead of running when the actor is trigger_only here", async () => {
    const { host, modes, nodeIdentity } = startHost([actor("deferred", stepsStrategy)]);
    await modes.setActorOverride("deferred", "trigger_only");
    const result = await host.fire({
      actorId: "deferred",
      expectationId: "run",
      triggerType: "manual",
    });
    expect(result).toMatchObject({ deferred: true });
    const id = result.kind === "created" ? result.episodeId : "";
    expect((await episode(id)).status).toBe("pending");
    const request = await db.pool.query(
      "SELECT actor_id, expectation_id, status, source_node, source_stack, source_env FROM cyclium_trigger_requests WHERE episode_id = $1",
      [id],
    );
    expect(request.rows).toEqual([
      {
        actor_id: "deferred",
        expectation_id: "run",
        status: "pending",
        source_node: nodeIdentity,
        source_stack: null,
        source_env: null,
      },
    ]);
    await modes.setActorOverride("deferred", "disabled");
    await expect(
      host.fire({ actorId: "deferred", expectationId: "run", triggerType: "manual" }),
    ).rejects.toThrow("is disabled");
  });
});

describe("episodeOverflow", () => {
  const bounded = (overflow: "drop" | "shed_oldest") =>
    actor(`bounded_${overflow}`, stepsStrategy, {
      maxConcurrentEpisodes: 1,
      maxQueuedEpisodes: 1,
      episodeOverflow: overflow,
    });

  it("shed_oldest cancels the oldest queued episode with a reason; drop creates none", async () => {
    const { host } = startHost([bounded("shed_oldest"), bounded("drop")]);
    const long = { steps: 0, stepMs: 50 };
    await fired(host, "bounded_shed_oldest", long);
    const oldest = await fired(host, "bounded_shed_oldest");
    const newest = await fired(host, "bounded_shed_oldest");
    const shed = await settled(oldest);
    expect(shed).toMatchObject({ status: "cancelled", error_class: "shed" });
    expect(shed.error_message).toContain("maxQueuedEpisodes 1");
    expect(host.queuedCount("bounded_shed_oldest")).toBe(1);
    expect((await episode(newest)).status).toBe("pending");

    await fired(host, "bounded_drop", long);
    await fired(host, "bounded_drop");
    // A drop is an expected outcome: a value, not an error.
    await expect(
      host.fire({ actorId: "bounded_drop", expectationId: "run", triggerType: "manual" }),
    ).resolves.toEqual({ kind: "dropped", actorId: "bounded_drop", reason: "queue_full" });
    const rows = await db.pool.query(
      "SELECT 1 FROM cyclium_episodes WHERE actor_id = 'bounded_drop'",
    );
    expect(rows.rowCount).toBe(2);
  });
});
