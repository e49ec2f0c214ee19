import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { ActorRegistry, defineActor, StrategyRegistry } from "../../actors/index";
import type { Bus } from "../../bus/index";
import { PostgresWorkClaims } from "../../claims/index";
import type { Connectable, Queryable } from "../../db/index";
import { createEpisode, type Episode } from "../../episodes/index";
import { silentLogger, Telemetry, type TelemetryEvent } from "../../telemetry/index";
import { LocalRunner } from "../local-runner";
import { stepsStrategy } from "./test-strategies";

/**
 * A LocalRunner on a worker pool that tests break (terminated backends, a restarted server), with
 * the `steps` strategy and every `cyclium.episode.write_retry` event recorded.
 */
export interface WriteRetryRig {
  runner: LocalRunner;
  node: string;
  retries: TelemetryEvent[];
  /** Pending episodes of the `steps` strategy, created through `harness` (never cut). */
  createEpisodes(count: number, input: { steps: number; stepMs: number }): Promise<Episode[]>;
}

export function createWriteRetryRig(options: {
  worker: Queryable & Connectable;
  harness: Queryable;
  leaseSeconds: number;
  bus?: Bus;
}): WriteRetryRig {
  const node = `retry-node-${randomUUID().slice(0, 8)}`;
  const telemetry = new Telemetry();
  const retries: TelemetryEvent[] = [];
  telemetry.subscribe((event) => retries.push(event), { events: ["cyclium.episode.write_retry"] });
  const actor = defineActor({
    identifier: "retry",
    // Up to 200 steps an episode: more turns than Cyclium's default budget of 12.
    expectations: [
      { id: "run", strategy: "steps", trigger: { manual: true }, budget: { maxTurns: 1_000 } },
    ],
  });
  const runner = new LocalRunner({
    db: options.worker,
    claims: new PostgresWorkClaims({ db: options.worker, telemetry }),
    leaseSeconds: options.leaseSeconds,
    nodeIdentity: node,
    registry: new ActorRegistry({
      actors: [actor],
      strategies: new StrategyRegistry({ steps: stepsStrategy }),
    }),
    ...(options.bus === undefined ? {} : { bus: options.bus }),
    logger: silentLogger,
    telemetry,
    hardStop: new AbortController().signal,
    isDraining: () => false,
  });
  return {
    runner,
    node,
    retries,
    async createEpisodes(count, input) {
      const episodes: Episode[] = [];
      for (let index = 0; index < count; index += 1) {
        const created = await createEpisode(
          {
            actorId: "retry",
            expectationId: "run",
            triggerType: "manual",
            dedupeKey: `manual:retry:run:${randomUUID()}`,
            input,
            status: "pending",
            sourceNode: node,
            sourceStack: null,
            sourceEnv: null,
            jitterMs: 0,
          },
          options.harness,
        );
        if (created.kind !== "created") throw new Error("episode not created");
        episodes.push(created.episode);
      }
      return episodes;
    },
  };
}

/** What the database holds about the rig's episodes after their runs. */
export interface EpisodeOutcomeRow {
  id: string;
  status: string;
  executed_by: string | null;
  turns_used: number;
  claim_attempt: number | null;
  steps: number;
  distinct_steps: number;
  step_attempts: number[];
}

export async function loadOutcomes(db: Queryable, ids: string[]): Promise<EpisodeOutcomeRow[]> {
  const { rows } = await db.query<EpisodeOutcomeRow>(
    `SELECT e.id, e.status, e.executed_by, e.turns_used,
            -- The claim row's attempt, or the episode's own lease's (no claim row then).
            COALESCE((SELECT max(c.attempt) FROM cyclium_work_claims c
                       WHERE c.dedupe_key = e.dedupe_key), e.attempt) AS claim_attempt,
            (SELECT count(*)::int FROM cyclium_episode_steps s WHERE s.episode_id = e.id) AS steps,
            (SELECT count(DISTINCT s.step_no)::int FROM cyclium_episode_steps s
              WHERE s.episode_id = e.id) AS distinct_steps,
            (SELECT coalesce(array_agg(DISTINCT s.attempt), '{}') FROM cyclium_episode_steps s
              WHERE s.episode_id = e.id) AS step_attempts
       FROM cyclium_episodes e WHERE e.id = ANY($1::uuid[]) ORDER BY e.id`,
    [ids],
  );
  return rows;
}

/** Rejects after `ms` instead of letting a test hang on a run that never settles. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  const timeout = new AbortController();
  try {
    return await Promise.race([
      promise,
      sleep(ms, undefined, { signal: timeout.signal }).then(() => {
        throw new Error(`${what} did not settle within ${ms} ms`);
      }),
    ]);
  } finally {
    timeout.abort();
  }
}

/**
 * A worker "pool" whose statements matching `cut` commit and then lose their reply: the statement
 * runs on a connection of its own, that backend is terminated right after the commit (waiting
 * until it is gone), and the caller gets the error the dead connection really raises. That is an
 * ambiguous commit: the write happened, the writer cannot know it.
 */
export function cutAfterCommit(
  pool: pg.Pool,
  harness: Queryable,
  cut: (text: string) => boolean,
): Queryable & Connectable & { cuts: string[] } {
  const cuts: string[] = [];
  return {
    cuts,
    connect: () => pool.connect(),
    async query(text: string, params?: unknown[]) {
      if (!cut(text)) return pool.query(text, params);
      const client = await pool.connect();
      client.on("error", () => undefined);
      try {
        const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        await client.query(text, params);
        cuts.push(text);
        await harness.query("SELECT pg_terminate_backend($1, 5000)", [rows[0]?.pid]);
        const lost = await client.query("SELECT 1").then(
          () => new Error("the connection survived pg_terminate_backend"),
          (error: unknown) => error,
        );
        throw lost;
      } finally {
        client.release(true);
      }
    },
  } as Queryable & Connectable & { cuts: string[] };
}
