import { declaresLimit } from "../limits/index";
import { setTimeout as sleep } from "node:timers/promises";
import { findExpectation, type ActorDefinition } from "../actors/index";
import { createEpisode, DEFAULT_CREATE_JITTER_MS, type Episode } from "../episodes/index";
import { CycliumError } from "../errors/index";
import { inSpan, SPAN_ATTRIBUTES, SPAN_NAMES, SpanKind } from "../tracing/index";
import type { ActorHostOptions } from "./actor-host-options";
import { dropsArrival } from "./actor-capacity";
import {
  fireDedupeKey,
  parseFireRequest,
  type FireResult,
  type TFireRequest,
} from "./fire-request";
import type { LifecycleAnnouncements } from "./lifecycle-announcements";
import { retryTransient } from "./write-retry";

/** How long a fire resends its episode insert through a database outage (1-3 s restarts). */
const CREATE_RETRY_MS = 30_000;

/** What a fire needs from the node's actor host. */
export interface FireHost {
  /** The host takes work (it runs: not idle, stopping or stopped). */
  running(): boolean;
  /** The actor, if it runs on this node's stack. */
  hosted(actorId: string): ActorDefinition | undefined;
  /** No room for one more of the actor's episodes here (see actor-capacity.ts). */
  queueFull(actor: ActorDefinition): boolean;
  /** Puts a row this fire created on its actor's queue here: in memory, or in the table. */
  /** `priority`: the fire's, else its expectation's (orders the local queue). */
  place(episode: Episode, priority: number): void;
}

export type FireIntakeOptions = Pick<
  ActorHostOptions,
  | "db"
  | "modes"
  | "nodeIdentity"
  | "stack"
  | "env"
  | "deferred"
  | "jitterMs"
  | "logger"
  | "telemetry"
> & {
  host: FireHost;
  announcements: LifecycleAnnouncements;
  /** The node's hard stop: ends a fire's jitter wait and its insert's resends. */
  signal: AbortSignal;
};

/**
 * How a node takes a fire in: checks it against the actor and its mode here, drops it at a full
 * queue whose policy drops arrivals, waits a triggered fire's jitter, then defers it (trigger_only)
 * or writes its episode (deduplicated, resent through an outage) and hands the row to the host.
 * It also counts the fires between their insert and their place in memory, for the queue's
 * reconcile (queue-backlog.ts).
 */
export class FireIntake {
  readonly #o: FireIntakeOptions;
  /** Fires per actor between their insert and their place in memory (or the backlog). */
  readonly #creating = new Map<string, number>();

  constructor(options: FireIntakeOptions) {
    this.#o = options;
  }

  /** Fires of the actor in flight: their rows may be written and not in memory yet. */
  creating(actorId: string): number {
    return this.#creating.get(actorId) ?? 0;
  }

  /**
   * Creates an episode for an expectation and runs or defers it per the actor's mode here. The
   * console's and REST's fires come through here: its span is the root of the episode's trace.
   */
  fire(request: TFireRequest): Promise<FireResult> {
    const attributes = {
      [SPAN_ATTRIBUTES.actor]: request.actorId,
      [SPAN_ATTRIBUTES.expectation]: request.expectationId,
      [SPAN_ATTRIBUTES.triggerType]: request.triggerType,
      [SPAN_ATTRIBUTES.node]: this.#o.nodeIdentity,
    };
    return inSpan(SPAN_NAMES.fire, { attributes, kind: SpanKind.PRODUCER }, async (span) => {
      const result = await this.#fire(request);
      if (result.kind === "created") span.setAttribute(SPAN_ATTRIBUTES.episodeId, result.episodeId);
      return result;
    });
  }

  async #fire(request: TFireRequest): Promise<FireResult> {
    const req = parseFireRequest(request);
    const { nodeIdentity, stack, env, db, host, announcements, logger, telemetry } = this.#o;
    if (!host.running())
      throw new CycliumError("shutdown", `Node ${nodeIdentity} is not accepting work.`);
    const actor = host.hosted(req.actorId);
    if (actor === undefined) {
      throw new CycliumError(
        "not_found",
        `Actor "${req.actorId}" does not run on node ${nodeIdentity}.`,
      );
    }
    const expectation = findExpectation(actor, req.expectationId);
    if (expectation === undefined) {
      throw new CycliumError(
        "not_found",
        `Actor "${actor.identifier}" has no expectation "${req.expectationId}".`,
      );
    }
    const mode = this.#o.modes.effectiveMode(actor.identifier);
    if (mode === "disabled") {
      throw new CycliumError(
        "conflict",
        `Actor "${actor.identifier}" is disabled on node ${nodeIdentity}.`,
      );
    }
    if (mode === "full" && host.queueFull(actor) && dropsArrival(actor)) {
      logger.info(
        {
          actor_id: actor.identifier,
          queued: actor.maxQueuedEpisodes,
          policy: actor.episodeOverflow,
          node: nodeIdentity,
        },
        "fire dropped: every slot is busy and the actor's queue is full",
      );
      announcements.overflowed(actor);
      announcements.dropped({
        actorId: actor.identifier,
        expectationId: req.expectationId,
        triggerType: req.triggerType,
      });
      return { kind: "dropped", actorId: actor.identifier, reason: "queue_full" };
    }
    // Only triggered fires race other nodes; a manual fire comes from one caller.
    const jitterMs =
      req.triggerType === "manual" ? 0 : (this.#o.jitterMs ?? DEFAULT_CREATE_JITTER_MS);
    if (jitterMs > 0) await sleep(Math.random() * jitterMs, undefined, { signal: this.#o.signal });
    const episode = {
      actorId: actor.identifier,
      expectationId: req.expectationId,
      triggerType: req.triggerType,
      dedupeKey: fireDedupeKey(req, env),
      input: req.input ?? {},
      workflowInstanceId: req.workflowInstanceId ?? null,
      workflowStep: req.workflowStep ?? null,
    };
    // A run at a later time waits on the cluster's deferred queue, whatever the mode here: the
    // queue's run_at is what keeps every node from starting it early (SPEC section 16).
    const delayed = req.runAt !== undefined || (req.delayMs ?? 0) > 0;
    // So does an episode under a cluster-wide limit: a refused start leaves its request pending
    // for whichever node the limit lets start it, where a local queue would hold it here.
    const limited = declaresLimit(actor) || declaresLimit(expectation);
    if (mode === "trigger_only" || delayed || limited) {
      if (this.#o.deferred === undefined) throw new Error("deferring needs a DeferredRunner");
      const timing = {
        runAt: req.runAt,
        delayMs: req.delayMs,
        priority: req.priority ?? expectation.priority,
      };
      const deferred = await this.#o.deferred.defer(episode, {}, timing);
      if (deferred.kind === "deduped") return { kind: "deduped", dedupeKey: deferred.dedupeKey };
      announcements.triggered(deferred.episode);
      return { kind: "created", episodeId: deferred.episode.id, deferred: true };
    }
    // A deduplicated insert is resent after a transient error (a database restart between the
    // event and its episode lost 4 of 120 events in the fault suite): ON CONFLICT makes a resend
    // after an ambiguous commit answer "deduped", and the row it did commit names this node's
    // queue, so the reconcile runs it. A fire without a dedupe key is not resent: it could create
    // a second episode.
    // Counted until the row is in memory or noted as spilled: the queue reconcile must not take
    // a row this fire has written but not queued yet for a spilled one (a phantom spill sends
    // later fires to the table, where shed_oldest cannot shed them).
    this.#countCreating(actor.identifier, 1);
    try {
      const firstTry = Date.now();
      const created = await retryTransient(
        () =>
          createEpisode(
            {
              ...episode,
              status: "pending",
              queuedBy: nodeIdentity,
              sourceNode: nodeIdentity,
              sourceStack: stack,
              sourceEnv: env,
              jitterMs: 0,
              logger,
              telemetry,
            },
            db,
          ),
        {
          write: "create",
          mayRetry: () =>
            episode.dedupeKey !== null && host.running() && Date.now() - firstTry < CREATE_RETRY_MS,
          signal: this.#o.signal,
          telemetry,
          logger,
          meta: { actor_id: actor.identifier, expectation_id: req.expectationId },
        },
      );
      if (created.kind === "deduped") return { kind: "deduped", dedupeKey: created.dedupeKey };
      announcements.triggered(created.episode);
      host.place(created.episode, req.priority ?? expectation.priority ?? 0);
      return { kind: "created", episodeId: created.episode.id, deferred: false };
    } finally {
      this.#countCreating(actor.identifier, -1);
    }
  }

  #countCreating(actorId: string, delta: number): void {
    const next = (this.#creating.get(actorId) ?? 0) + delta;
    if (next > 0) this.#creating.set(actorId, next);
    else this.#creating.delete(actorId);
  }
}
