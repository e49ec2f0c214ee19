// A worker process for the multi-process recovery tests: a real Cyclium node (ActorHost, work
// claims with heartbeats, the bus) with the recovery extension, running two test actors. Driven
// by environment variables; reports on stdout as JSON lines. Killed with real signals.
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { defineActor, done, next, type Strategy } from "../../actors/index";
import { createCycliumNode } from "../../nodes/index";
import { silentLogger, Telemetry } from "../../telemetry/index";
import { recoveryExtension } from "../../nodes/recovery-extension";

const env = process.env;
const number = (name: string, fallback: number): number => Number(env[name] ?? fallback);

function report(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...event })}\n`);
}

/** Episodes inside a run on this process right now, to check maxConcurrentEpisodes holds. */
const active = new Set<string>();

interface State {
  done: number;
  steps: number;
  stepMs: number;
}

const trackedSteps: Strategy<unknown, State> = {
  init: (ctx, input) => {
    active.add(ctx.episode.id);
    report({
      event: "run",
      episodeId: ctx.episode.id,
      attempt: ctx.episode.attempt,
      active: active.size,
    });
    const { steps = 10, stepMs = 100 } = (input ?? {}) as Partial<State>;
    return { done: 0, steps, stepMs };
  },
  step: async (state, ctx) => {
    try {
      await sleep(state.stepMs, undefined, { signal: ctx.signal });
    } catch (error) {
      active.delete(ctx.episode.id);
      throw error;
    }
    const progressed = { ...state, done: state.done + 1 };
    if (progressed.done < state.steps) return next(progressed, { turns: 1, tokens: 0 });
    active.delete(ctx.episode.id);
    report({ event: "done", episodeId: ctx.episode.id, attempt: ctx.episode.attempt });
    return done({ steps: progressed.done }, { turns: 1, tokens: 0 });
  },
};

/** Six steps, a checkpoint at step 3 (SPEC 12): a restart resumes with step 4, not init. */
const checkpointed: Strategy<unknown, { done: number; stepMs: number }> = {
  init: (ctx, input) => {
    report({ event: "init", episodeId: ctx.episode.id, attempt: ctx.episode.attempt });
    const { stepMs = 100 } = (input ?? {}) as { stepMs?: number };
    return { done: 0, stepMs };
  },
  step: async (state, ctx) => {
    await sleep(state.stepMs, undefined, { signal: ctx.signal });
    const progressed = { ...state, done: state.done + 1 };
    report({ event: "step", episodeId: ctx.episode.id, stepNo: ctx.stepNo, done: progressed.done });
    if (ctx.stepNo === 3) await ctx.checkpoint("after_step_3", progressed);
    if (progressed.done < 6) return next(progressed);
    report({ event: "done", episodeId: ctx.episode.id, attempt: ctx.episode.attempt });
    return done({ steps: progressed.done });
  },
};

const maxConcurrentEpisodes = number("MAX_CONCURRENT", 4);
// Victims run up to 20 steps: more turns than Cyclium's default budget of 12.
const budget = { maxTurns: 1_000 };
const actors = [
  defineActor({
    identifier: "victim_restart",
    maxConcurrentEpisodes,
    expectations: [
      {
        id: "work",
        strategy: trackedSteps,
        trigger: { manual: true },
        recoveryPolicy: "restart",
        budget,
      },
    ],
  }),
  defineActor({
    identifier: "victim_checkpointed",
    expectations: [
      {
        id: "work",
        strategy: checkpointed,
        trigger: { manual: true },
        recoveryPolicy: "restart",
        budget,
      },
    ],
  }),
  defineActor({
    identifier: "victim_fail",
    maxConcurrentEpisodes,
    expectations: [
      {
        id: "work",
        strategy: trackedSteps,
        trigger: { manual: true },
        recoveryPolicy: "fail",
        budget,
      },
    ],
  }),
];

const databaseUrl = env.DATABASE_URL ?? "";
const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
// As apps/worker does: an idle connection dropped by a database restart is not a crash.
pool.on("error", () => undefined);
const node = await createCycliumNode({
  db: pool,
  databaseUrl,
  kind: "worker",
  mode: "full",
  nodeIdentity: env.NODE_ID ?? `worker-${process.pid}`,
  stack: null,
  env: null,
  workClaims: "postgres",
  leaseSeconds: number("LEASE_SECONDS", 2),
  poller: { enabled: env.POLLER === "on", intervalMs: 200, sourceStack: null },
  queue: {
    localQueueLimit: number("LOCAL_QUEUE_LIMIT", 200),
    reconcileIntervalMs: number("RECONCILE_MS", 200),
    // Just over one 5 s node heartbeat: a killed worker counts as gone soon, a live one never.
    nodeSilenceMs: number("NODE_SILENCE_MS", 7_000),
  },
  actors,
  dynamicActors: false,
  jitterMs: 0,
  telemetryRollups: false,
  logger: silentLogger,
  telemetry: new Telemetry(),
  extensions:
    env.RECOVERY === "on"
      ? [
          recoveryExtension({
            delayMs: number("RECOVERY_DELAY_MS", 0),
            intervalMs: number("RECOVERY_INTERVAL_MS", 200),
            staleAfterMs: number("STALE_AFTER_MS", 500),
          }),
        ]
      : [],
});
await node.start();

const fire = JSON.parse(env.FIRE ?? "[]") as { actorId: string; count: number; input?: unknown }[];
const fired: string[] = [];
for (const { actorId, count, input } of fire) {
  for (let i = 0; i < count; i++) {
    const result = await node.host.fire({
      actorId,
      expectationId: "work",
      triggerType: "manual",
      input,
    });
    if (result.kind === "created") fired.push(result.episodeId);
  }
}
report({ event: "ready", node: node.nodeIdentity, fired });

process.on("SIGTERM", () => {
  void node
    .stop({ graceMs: 0 })
    .then(() => pool.end())
    .then(() => process.exit(0));
});
