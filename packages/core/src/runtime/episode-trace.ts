import type { Episode } from "../episodes/index";
import {
  extractTraceContext,
  previousRunLink,
  recordError,
  runTraceparent,
  SPAN_ATTRIBUTES,
  SPAN_NAMES,
  SpanKind,
  startSpan,
  withSpan,
  type Context,
  type Span,
} from "../tracing/index";
import type { EpisodeRunResult } from "./episode-run-result";

/**
 * An episode's spans on the node that runs it: the claim's acquire and the run, both children of
 * the context stored with the episode (the fire's trace, through its trigger request), the run
 * linked to the previous attempt's run when the row recorded one (a recovered episode). The run's
 * own traceparent goes into the start statement (`trace_context.run`), so the attempt after this
 * one can link here even if this process is killed.
 */
export class EpisodeTrace {
  readonly #claim: Span;
  readonly #run: Span;
  #claimOpen = true;
  /** The parent of the step spans. */
  readonly context: Context;
  /** This run's traceparent for the start statement; null when nothing is traced. */
  readonly runTraceparent: string | null;

  constructor(episode: Episode, node: string, recovered: boolean) {
    const parent = extractTraceContext(episode.traceContext);
    const attributes = {
      [SPAN_ATTRIBUTES.episodeId]: episode.id,
      [SPAN_ATTRIBUTES.actor]: episode.actorId,
      [SPAN_ATTRIBUTES.expectation]: episode.expectationId,
      [SPAN_ATTRIBUTES.node]: node,
    };
    this.#claim = startSpan(SPAN_NAMES.claim, { parent, attributes });
    const link = previousRunLink(episode.traceContext);
    this.#run = startSpan(SPAN_NAMES.episode, {
      parent,
      kind: SpanKind.CONSUMER,
      attributes: { ...attributes, [SPAN_ATTRIBUTES.recovered]: recovered },
      ...(link === undefined ? {} : { links: [link] }),
    });
    this.context = withSpan(parent, this.#run);
    this.runTraceparent = runTraceparent(this.#run);
  }

  /** The claim is held at `attempt`: the acquire span ends. */
  claimed(attempt: number): void {
    this.#run.setAttribute(SPAN_ATTRIBUTES.attempt, attempt);
    this.#endClaim("acquired", attempt);
  }

  /** The run is over here, with what the runner answers. */
  end(result: EpisodeRunResult): void {
    this.#endClaim(result.kind);
    this.#run.setAttribute("cyclium.episode.outcome", result.kind);
    if (result.kind === "error") recordError(this.#run, result.error);
    this.#run.end();
  }

  #endClaim(outcome: string, attempt?: number): void {
    if (!this.#claimOpen) return;
    this.#claimOpen = false;
    this.#claim.setAttribute(SPAN_ATTRIBUTES.claimOutcome, outcome);
    if (attempt !== undefined) this.#claim.setAttribute(SPAN_ATTRIBUTES.attempt, attempt);
    this.#claim.end();
  }
}
