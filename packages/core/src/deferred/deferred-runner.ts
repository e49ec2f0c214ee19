import { notify } from "../bus/index";
import { withTransaction, type Connectable, type Queryable } from "../db/index";
import {
  createEpisode,
  type CreateEpisodeOptions,
  type CreateEpisodeResult,
  type Episode,
} from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { inSpan, SPAN_ATTRIBUTES, SPAN_NAMES } from "../tracing/index";
import { insertTriggerRequests } from "./insert-trigger-requests";
import { NotifyCoalescer } from "./notify-coalescer";
import {
  TRIGGER_REQUESTS_CHANNEL,
  type TTriggerRequestOpts,
  type TTriggerRequestWakeup,
} from "./trigger-request";

export interface DeferredRunnerOptions {
  /** A pool: the episode and its request are inserted in one transaction. */
  db: Queryable & Connectable;
  nodeIdentity: string;
  stack: string | null;
  env: string | null;
  logger: Logger;
  telemetry: Telemetry;
  /** See NotifyCoalescer; 20 ms by default. */
  notifyWindowMs?: number;
}

/** The episode fields a deferral needs; node scope and status are the runner's. */
export type DeferEpisodeInput = Omit<
  CreateEpisodeOptions,
  | "status"
  | "sourceNode"
  | "sourceStack"
  | "sourceEnv"
  | "jitterMs"
  | "signal"
  | "logger"
  | "telemetry"
>;

/** When and in what order a deferred episode is claimed (SPEC section 16). */
export interface RequestTiming {
  /** Not started before this time (database clock). */
  runAt?: Date | undefined;
  /** Not started before this many ms from now; after runAt when both are given. */
  delayMs?: number | undefined;
  /** MIN_PRIORITY..MAX_PRIORITY, higher first; default 0. */
  priority?: number | undefined;
}

export type DeferResult =
  | { kind: "created"; episode: Episode; requestId: string }
  | Extract<CreateEpisodeResult, { kind: "deduped" }>;

/**
 * The runner of trigger_only nodes (SPEC section 6): creates the episode `pending`, so the console
 * shows it, together with a `cyclium_trigger_requests` row that a full node's poller picks up,
 * then wakes the pollers with a NOTIFY (coalesced over bursts).
 */
export class DeferredRunner {
  readonly #options: DeferredRunnerOptions;
  readonly #coalescer: NotifyCoalescer;
  readonly #wakeup: string;

  constructor(options: DeferredRunnerOptions) {
    this.#options = options;
    const wakeup: TTriggerRequestWakeup = { stack: options.stack, env: options.env };
    this.#wakeup = JSON.stringify(wakeup);
    this.#coalescer = new NotifyCoalescer({
      send: () =>
        notify({
          db: options.db,
          channel: TRIGGER_REQUESTS_CHANNEL,
          payload: JSON.stringify(wakeup),
        }),
      logger: options.logger,
      ...(options.notifyWindowMs === undefined ? {} : { windowMs: options.notifyWindowMs }),
    });
  }

  /**
   * Creates the episode and its request in one transaction: a request never points at a missing
   * episode and a deferred episode never lacks its request. The caller applies the dedupe jitter
   * before calling, so the transaction is not held open during it.
   */
  async defer(
    input: DeferEpisodeInput,
    opts: TTriggerRequestOpts = {},
    timing: RequestTiming = {},
  ): Promise<DeferResult> {
    const { db, nodeIdentity, stack, env, logger, telemetry } = this.#options;
    let notifiedInTransaction = false;
    // The episode and its request are written inside this span, so both rows carry its context
    // and the worker's claim and run continue the trace under it.
    const attributes = {
      [SPAN_ATTRIBUTES.actor]: input.actorId,
      [SPAN_ATTRIBUTES.expectation]: input.expectationId,
      [SPAN_ATTRIBUTES.node]: nodeIdentity,
    };
    const result = await inSpan(SPAN_NAMES.triggerRequest, { attributes }, (span) =>
      withTransaction(db, async (tx): Promise<DeferResult> => {
        const created = await createEpisode(
          {
            ...input,
            status: "pending",
            sourceNode: nodeIdentity,
            sourceStack: stack,
            sourceEnv: env,
            jitterMs: 0,
            logger,
            telemetry,
          },
          tx,
        );
        if (created.kind === "deduped") return created;
        const [requestId] = await this.#insert([{ episode: created.episode, opts, timing }], tx);
        if (requestId === undefined) throw new Error("trigger request insert returned no id");
        // Outside a burst the wake-up rides on this transaction: delivered on commit, with no
        // statement or commit of its own between the request and the poller.
        if (this.#coalescer.takeLeadingEdge()) {
          await notify({ db: tx, channel: TRIGGER_REQUESTS_CHANNEL, payload: this.#wakeup });
          notifiedInTransaction = true;
        }
        span.setAttributes({
          [SPAN_ATTRIBUTES.episodeId]: created.episode.id,
          [SPAN_ATTRIBUTES.requestId]: requestId,
        });
        return { kind: "created", episode: created.episode, requestId };
      }),
    );
    if (result.kind === "created") {
      this.#emitCreated(result.episode, result.requestId);
      if (!notifiedInTransaction) this.#coalescer.wake();
    }
    return result;
  }

  /**
   * Defers episodes that already exist and are pending (a draining full node hands its queue
   * over this way). One statement for the batch.
   */
  async deferExisting(
    entries: readonly { episode: Episode; opts?: TTriggerRequestOpts }[],
  ): Promise<string[]> {
    if (entries.length === 0) return [];
    const ids = await this.#insert(entries, this.#options.db);
    ids.forEach((id, index) => {
      const entry = entries[index];
      if (entry !== undefined) this.#emitCreated(entry.episode, id);
    });
    this.#coalescer.wake();
    return ids;
  }

  /** Sends a pending wake-up now; call before the pool closes. */
  flush(): Promise<void> {
    return this.#coalescer.flush();
  }

  #insert(
    entries: readonly { episode: Episode; opts?: TTriggerRequestOpts; timing?: RequestTiming }[],
    db: Queryable,
  ): Promise<string[]> {
    return insertTriggerRequests(
      {
        sourceNode: this.#options.nodeIdentity,
        requests: entries.map(({ episode, opts, timing }) => ({
          episodeId: episode.id,
          actorId: episode.actorId,
          expectationId: episode.expectationId,
          sourceStack: episode.sourceStack,
          sourceEnv: episode.sourceEnv,
          ...(opts === undefined ? {} : { opts }),
          ...timing,
        })),
      },
      db,
    );
  }

  #emitCreated(episode: Episode, requestId: string): void {
    this.#options.telemetry.emit(
      "cyclium.trigger_request.created",
      { count: 1 },
      { request_id: requestId, episode_id: episode.id, actor_id: episode.actorId },
    );
  }
}
