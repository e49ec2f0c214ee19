import { performance } from "node:perf_hooks";
import type { Queryable } from "../db/index";
import {
  endEpisodes,
  startEpisodes,
  type EndEpisodesOutcome,
  type EpisodeEnd,
  type StartEpisodesOutcome,
} from "../episodes/index";
import { startLeasedEpisodes, type StartLeasedEpisodesOutcome } from "../episodes/lease/index";
import type { LimitRule } from "../limits/index";
import type { Telemetry } from "../telemetry/index";
import { MicroBatcher } from "../batching/micro-batcher";

export interface BatchedEpisodeWritesOptions {
  db: Queryable;
  /** This node: the claims' owner and the episodes' executed_by. */
  nodeIdentity: string;
  leaseSeconds: number;
  telemetry: Telemetry;
  /**
   * Starts take the episode's own lease in its row (startLeasedEpisodes, SPEC section 4) instead
   * of a claim row (startEpisodes): the built-in PostgreSQL claims' `episodeLeasesInRow`.
   */
  inRow: boolean;
}

/** A start's outcome: a claim row's (startEpisodes) or the episode's own lease's. */
export type BatchedStartOutcome = StartEpisodesOutcome | StartLeasedEpisodesOutcome;

interface StartRequest {
  episodeId: string;
  claimKey: string;
  /** Sent before and failed on a transient error (see StartEpisodesOptions). */
  resend?: boolean;
  /** The traceparent of this attempt's run span (see startEpisodes). */
  runTraceparent?: string | null;
  /** Its cluster-wide limits (see startEpisodes). */
  limits?: readonly LimitRule[];
}

/**
 * The runner's two writes per episode that other episodes can share a statement with: the start
 * (claim + running) and the end (journal + status + claim done + request + event). A poller's
 * batch of 24 dispatched episodes starts in the same event-loop turn and, with a short strategy,
 * ends within a few, so each of the two costs ~1 commit per batch instead of 2-3 per episode: on
 * the bench's drain, 0.7 commits per episode instead of 5.7 (docs/benchmarks.md, "Batched writes
 * and prefetch").
 */
export class BatchedEpisodeWrites {
  readonly #o: BatchedEpisodeWritesOptions;
  readonly #starts: MicroBatcher<StartRequest, BatchedStartOutcome>;
  readonly #ends: MicroBatcher<EpisodeEnd, EndEpisodesOutcome>;

  constructor(options: BatchedEpisodeWritesOptions) {
    this.#o = options;
    // Two batches of each in flight: a slot freed while a batch commits sends its start at once
    // instead of waiting a round trip. Each episode is in one batch, and live episodes never
    // share a claim key (the live dedupe index), so batches in flight touch disjoint rows.
    this.#starts = new MicroBatcher({ run: (items) => this.#start(items), maxInFlight: 2 });
    this.#ends = new MicroBatcher({ run: (items) => this.#end(items), maxInFlight: 2 });
  }

  /** Claims and starts a pending episode (see startEpisodes, startLeasedEpisodes). */
  start(request: StartRequest): Promise<BatchedStartOutcome> {
    return this.#starts.add(request);
  }

  /** Writes an episode's end (see endEpisodes). */
  end(end: EpisodeEnd): Promise<EndEpisodesOutcome> {
    return this.#ends.add(end);
  }

  async #start(items: StartRequest[]): Promise<BatchedStartOutcome[]> {
    // One upsert per claim key per statement: a second request for a key (the same episode
    // dispatched twice) is answered `contended`, and the one-episode acquire then finds it busy.
    const keys = new Set<string>();
    const unique = items.filter((item) => !keys.has(item.claimKey) && keys.add(item.claimKey));
    const sent = performance.now();
    const options = {
      owner: this.#o.nodeIdentity,
      leaseSeconds: this.#o.leaseSeconds,
      episodes: unique,
    };
    const outcomes: BatchedStartOutcome[] = this.#o.inRow
      ? await startLeasedEpisodes(options, this.#o.db)
      : await startEpisodes(options, this.#o.db);
    const durationMs = performance.now() - sent;
    const byItem = new Map(unique.map((item, index) => [item, outcomes[index]]));
    return items.map((item): BatchedStartOutcome => {
      const outcome = byItem.get(item) ?? { kind: "contended" };
      if (outcome.kind === "started") {
        this.#o.telemetry.emit(
          "cyclium.work_claims.acquired",
          { count: 1, duration_ms: durationMs },
          { dedupe_key: item.claimKey, owner_node: this.#o.nodeIdentity, attempt: outcome.attempt },
        );
      }
      return outcome;
    });
  }

  async #end(ends: EpisodeEnd[]): Promise<EndEpisodesOutcome[]> {
    const outcomes = await endEpisodes({ node: this.#o.nodeIdentity, ends }, this.#o.db);
    ends.forEach((end, index) => {
      if (end.fence !== null && outcomes[index]?.kind !== "fenced") {
        this.#o.telemetry.emit(
          "cyclium.work_claims.completed",
          { count: 1 },
          { dedupe_key: end.fence.dedupeKey, owner_node: end.fence.owner },
        );
      }
    });
    return outcomes;
  }
}
