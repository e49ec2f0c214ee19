import { explainPendingEpisodes, type EpisodeWaitReason } from "../reasons/index";
import { hostname } from "node:os";
import pg from "pg";
import { createBusPublisher } from "../bus/index";
import type { Deployment } from "../deployment/index";
import {
  archiveEpisode,
  cancelEpisode,
  findLiveEpisodeId,
  loadEpisode,
  type Episode,
  type ArchiveEpisodeResult,
  type CancelEpisodeResult,
  type RetryEpisodeResult,
} from "../episodes/index";
import { isCycliumError } from "../errors/index";
import { retryEpisode } from "../retries/index";
import { fireDedupeKey, parseFireRequest } from "../runtime/index";
import { defaultTelemetry, silentLogger, type Logger } from "../telemetry/index";
import { DeferredRunner, type DeferEpisodeInput, type RequestTiming } from "../deferred/index";
import {
  DEFAULT_TENANT,
  fireTrigger,
  pauseTrigger,
  resumeTrigger,
  type WorkflowStarter,
} from "../triggers/index";
import { WorkflowEngine, WorkflowRegistry } from "../workflows/index";
import type {
  ActorIdOf,
  ExpectationIdOf,
  ClientFireOptions,
  ClientFireResult,
  ClientFireTriggerResult,
  TriggerCommandResult,
  TriggerRef,
} from "./client-types";
import { EpisodeResults, type EpisodeResult, type ResultOptions } from "./episode-results";
import { validateFire } from "./validate-fire";
import { sendSignal, type SendSignalResult } from "../waits/index";
import { findExpectation, type ExpectationDefinition } from "../actors/index";

export type ClientConnection = { connectionString: string } | { pool: pg.Pool };

export interface CreateClientOptions<D extends Deployment> {
  /** Types `fire` by its actors and checks each fire against them (ids, input schemas). */
  deployment?: D | undefined;
  /** `source_node` of what the client writes; default `client:{hostname}:{pid}`. */
  nodeIdentity?: string | undefined;
  /** The scope of the episodes it creates: workers polling this stack and env run them. */
  stack?: string | null | undefined;
  env?: string | null | undefined;
  /** Who the operator commands record (retry's `operator:{by}`, a pause's `paused_by`). */
  by?: string | undefined;
  logger?: Logger | undefined;
  /**
   * How `result()` hears that an episode ended: a LISTEN connection opened on the first wait
   * (default), or `false` to poll only (behind PgBouncer in transaction mode, where LISTEN does
   * not hold). With a pool of your own, the LISTEN uses the pool's connection settings.
   */
  listen?: boolean | undefined;
  /** Polling interval of `result()` while it cannot LISTEN; default 1,000 ms. */
  resultPollMs?: number | undefined;
}

export interface CycliumClient<D extends Deployment = Deployment> {
  /**
   * Creates the episode `pending` with its trigger request, in one transaction, as a trigger-only
   * node defers: a full-mode worker picks it up. Throws `invalid_input` (naming the field) for an
   * actor, expectation or input the deployment does not accept.
   */
  fire: <A extends ActorIdOf<D>, E extends ExpectationIdOf<D, A>>(
    options: ClientFireOptions<D, A, E>,
  ) => Promise<ClientFireResult>;
  /** One episode as it is now, from any process; undefined when there is none. */
  get(episodeId: string): Promise<Episode | undefined>;
  /**
   * Waits for an episode to end and gives its result or its failure as a value (`timeout` when
   * `timeoutMs` passes first). Woken by the end's NOTIFY, with polling as the fallback.
   */
  result(episodeId: string, options?: ResultOptions): Promise<EpisodeResult>;
  /**
   * Why a pending episode has not started, as the console says it (scheduled, a retry's backoff,
   * "global limit 5/5, running on ...", "rate limited until ..."); undefined when it is not
   * pending.
   */
  waitReason(episodeId: string): Promise<EpisodeWaitReason | undefined>;
  /**
   * Sends a signal to an episode (SPEC section 17): kept until a `waitFor` of that name consumes
   * it, and a waiting episode resumes at once. With a deployment, name and payload are checked
   * against the expectation's `signals` (`unknown_signal`, `invalid` naming the field); the same
   * `idempotencyKey` twice delivers once (`duplicate`).
   */
  signal(
    episodeId: string,
    name: string,
    payload: unknown,
    options?: { idempotencyKey?: string | undefined },
  ): Promise<SendSignalResult>;
  /** Cancels a pending or running episode wherever it runs (publishes `episode.cancelled`). */
  cancel(
    episodeId: string,
    options?: { reason?: string | undefined },
  ): Promise<CancelEpisodeResult>;
  /** Runs a failed or cancelled episode again as its next attempt. */
  retry(episodeId: string): Promise<RetryEpisodeResult>;
  /** Hides a finished episode and frees its dedupe key. */
  archive(episodeId: string): Promise<ArchiveEpisodeResult>;
  pauseTrigger(trigger: TriggerRef): Promise<TriggerCommandResult<"paused">>;
  resumeTrigger(trigger: TriggerRef): Promise<TriggerCommandResult<"resumed">>;
  /**
   * Fires a trigger now, fanning out as a scheduled fire does: the client starts the workflow
   * instances and defers their first steps; workers' engines advance them from there.
   */
  fireTrigger(
    trigger: TriggerRef & {
      context?: Record<string, unknown> | undefined;
      /** The workflows' first steps start no earlier (database clock), at this priority. */
      runAt?: Date | string | undefined;
      delayMs?: number | undefined;
      priority?: number | undefined;
    },
  ): Promise<ClientFireTriggerResult>;
  /**
   * Sends a pending wake-up, stops listening for results and ends the pool the client made (not
   * one it was given).
   */
  close(): Promise<void>;
}

/**
 * A client for any process (a web handler, a script, a test) to fire, cancel, retry, archive and
 * control triggers without running a node: no LISTEN connection, no timers, only a pool.
 * `createClient(connection, { deployment })` infers the deployment's types, so firing an
 * unknown actor or expectation, or input of the wrong shape, does not compile.
 */
export function createClient<D extends Deployment = Deployment>(
  connection: ClientConnection,
  options: CreateClientOptions<D> = {},
): CycliumClient<D> {
  const ownsPool = !("pool" in connection);
  const pool =
    "pool" in connection
      ? connection.pool
      : new pg.Pool({ connectionString: connection.connectionString, max: 4 });
  // An idle connection lost (a database restart, a terminated backend) is re-emitted by the pool;
  // with no listener that crashed the caller's process. The pool replaces it on the next query.
  if (ownsPool) {
    pool.on("error", (err) =>
      (options.logger ?? silentLogger).warn({ err }, "idle database connection lost"),
    );
  }
  const nodeIdentity = options.nodeIdentity ?? `client:${hostname()}:${process.pid}`;
  const stack = options.stack ?? null;
  const env = options.env ?? null;
  const by = options.by ?? nodeIdentity;
  const logger = options.logger ?? silentLogger;
  const { deployment } = options;
  const deferred = new DeferredRunner({
    db: pool,
    nodeIdentity,
    stack,
    env,
    logger,
    telemetry: defaultTelemetry,
  });

  const results = new EpisodeResults({
    db: pool,
    listenTo: options.listen === false ? undefined : listenConfig(connection),
    pollMs: options.resultPollMs,
    logger,
  });

  const defer = async (
    episode: DeferEpisodeInput,
    timing: RequestTiming = {},
  ): Promise<ClientFireResult> => {
    const deferredResult = await deferred.defer(episode, {}, timing);
    if (deferredResult.kind === "created") {
      const episodeId = deferredResult.episode.id;
      return {
        kind: "created",
        episodeId,
        requestId: deferredResult.requestId,
        episode: deferredResult.episode,
        result: (resultOptions) => results.wait(episodeId, resultOptions),
      };
    }
    const episodeId = await findLiveEpisodeId(deferredResult.dedupeKey, pool);
    return {
      kind: "deduped",
      dedupeKey: deferredResult.dedupeKey,
      episodeId,
      result: (resultOptions) =>
        episodeId === undefined
          ? Promise.resolve({ kind: "not_found", episodeId })
          : results.wait(episodeId, resultOptions),
    };
  };

  // Workflow instances a trigger fire starts: created here, their root steps deferred like any
  // fire (with the workflow dedupe key, so a replayed start dedupes); the workers' engines see
  // the steps' events and advance the instance. The engine is never started: no subscription.
  const engine = new WorkflowEngine({
    db: pool,
    registry: deployment?.workflows ?? new WorkflowRegistry(),
    scope: { stack, env },
    logger,
    startStep: async (request) => {
      const parsed = parseFireRequest(request);
      const result = await defer(
        {
          actorId: parsed.actorId,
          expectationId: parsed.expectationId,
          triggerType: "workflow",
          dedupeKey: fireDedupeKey(parsed, env),
          input: parsed.input ?? {},
          workflowInstanceId: parsed.workflowInstanceId ?? null,
          workflowStep: parsed.workflowStep ?? null,
        },
        // A delayed trigger fire's root steps (later steps carry none).
        { runAt: parsed.runAt, delayMs: parsed.delayMs, priority: parsed.priority },
      );
      return result.kind === "created"
        ? { kind: "created", episodeId: result.episodeId }
        : { kind: "deduped" };
    },
  });
  const startWorkflow: WorkflowStarter = (request) => engine.startWorkflow(request);

  return {
    async fire(fireOptions) {
      const request = validateFire(fireOptions, deployment);
      const parsed = parseFireRequest({ ...request, triggerType: "manual" });
      return defer(
        {
          actorId: parsed.actorId,
          expectationId: parsed.expectationId,
          triggerType: "manual",
          dedupeKey: fireDedupeKey(parsed, env),
          input: parsed.input ?? {},
        },
        request.timing,
      );
    },

    get: (episodeId) => loadEpisode(episodeId, pool),

    result: (episodeId, resultOptions) => results.wait(episodeId, resultOptions),

    waitReason: async (episodeId) =>
      (
        await explainPendingEpisodes({
          db: pool,
          episodeIds: [episodeId],
          actors: deployment?.actors ?? [],
        })
      )[episodeId],
    signal: (episodeId, name, payload, signalOptions = {}) =>
      sendSignal(
        {
          episodeId,
          name,
          payload,
          idempotencyKey: signalOptions.idempotencyKey,
          sentBy: by,
          ...(deployment === undefined
            ? {}
            : {
                expectationOf: (actorId, expectationId) =>
                  findIn(deployment, actorId, expectationId),
              }),
        },
        pool,
      ),

    cancel: (episodeId, cancelOptions = {}) =>
      cancelEpisode(
        {
          episodeId,
          reason: cancelOptions.reason ?? `Cancelled by ${by}.`,
          bus: createBusPublisher({ db: pool, nodeIdentity }),
          logger,
        },
        pool,
      ),

    retry: (episodeId) => retryEpisode({ episodeId, by, sourceNode: nodeIdentity }, pool),

    archive: (episodeId) => archiveEpisode({ episodeId }, pool),

    pauseTrigger: (trigger) =>
      triggerCommand("paused", trigger, (tenantId) =>
        pauseTrigger({ db: pool, tenantId, name: trigger.name, by }),
      ),

    resumeTrigger: (trigger) =>
      triggerCommand("resumed", trigger, (tenantId) =>
        resumeTrigger({ db: pool, tenantId, name: trigger.name }),
      ),

    async fireTrigger(trigger) {
      const tenantId = trigger.tenantId ?? DEFAULT_TENANT;
      const ref = { tenantId, name: trigger.name };
      try {
        const result = await fireTrigger({
          db: pool,
          tenantId,
          name: trigger.name,
          context: trigger.context,
          firedBy: by,
          runAt: trigger.runAt,
          delayMs: trigger.delayMs,
          priority: trigger.priority,
          startWorkflow,
          triggers: deployment?.triggers,
          workflows: deployment?.workflows,
          logger,
        });
        return result.fired > 0
          ? { kind: "fired", ...ref, executions: result.executions }
          : { kind: "deduped", ...ref };
      } catch (error) {
        if (isCycliumError(error, "not_found")) return { kind: "not_found", ...ref };
        if (isCycliumError(error, "conflict")) {
          return { kind: "conflict", ...ref, message: error.message };
        }
        throw error;
      }
    },

    async close() {
      engine.stop();
      await results.close();
      await deferred.flush();
      if (ownsPool) await pool.end();
    },
  };
}

function findIn(
  deployment: Deployment,
  actorId: string,
  expectationId: string,
): ExpectationDefinition | undefined {
  const actor = deployment.actors.find((candidate) => candidate.identifier === actorId);
  return actor === undefined ? undefined : findExpectation(actor, expectationId);
}

/** The LISTEN connection's settings: the client's connection string, or its pool's settings. */
function listenConfig(connection: ClientConnection): pg.ClientConfig {
  return "pool" in connection ? { ...connection.pool.options } : connection;
}

async function triggerCommand<K extends "paused" | "resumed">(
  kind: K,
  trigger: TriggerRef,
  run: (tenantId: string) => Promise<unknown>,
): Promise<TriggerCommandResult<K>> {
  const tenantId = trigger.tenantId ?? DEFAULT_TENANT;
  try {
    await run(tenantId);
    return { kind, tenantId, name: trigger.name };
  } catch (error) {
    if (isCycliumError(error, "not_found"))
      return { kind: "not_found", tenantId, name: trigger.name };
    throw error;
  }
}
