/**
 * What an episode started ahead is told when it asks for a slot: `run` (a slot is its own now;
 * also while the node drains, since it has started), `stopping` (its actor may no longer run on
 * this node: its strategy never ran, so the runner puts it back to pending at once, its claim
 * released and a trigger request owning it, for any node where the actor may run; see
 * StartedAheadUnstarts).
 */
export type SlotAnswer = "run" | "stopping";

/**
 * An episode started ahead of a free slot: its claim is taken and its row is `running`, and its
 * strategy waits here until a slot frees (`grant`) or its actor may no longer run here
 * (`interrupt`).
 */
export class SlotGate {
  #answer: SlotAnswer | undefined;
  #wake: ((answer: SlotAnswer) => void) | undefined;

  /** The answer, at once when it is known, else when it comes. */
  wait(): Promise<SlotAnswer> {
    if (this.#answer !== undefined) return Promise.resolve(this.#answer);
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  /** A slot was given to it (whether or not its strategy has asked yet). */
  get granted(): boolean {
    return this.#answer === "run";
  }

  grant(): void {
    this.#settle("run");
  }

  interrupt(): void {
    this.#settle("stopping");
  }

  #settle(answer: SlotAnswer): void {
    if (this.#answer !== undefined) return;
    this.#answer = answer;
    this.#wake?.(answer);
  }
}

/** Weight of the newest sample in the moving averages (about the last 20 samples count). */
const WEIGHT = 0.1;

/**
 * How many of an actor's queued episodes a node starts ahead of a free slot: as many slots as are
 * expected to free while one start statement commits, at most `maxConcurrentEpisodes`.
 *
 * Starting is a commit (claim taken, row marked `running`) before the strategy may run, so a
 * slot that frees waits a start round trip before its next strategy runs. For short strategies
 * that wait is most of the cycle (the bench's drain: the worker sat 62 % idle). An episode
 * started ahead has its commit behind it when a slot frees and runs at once.
 *
 * It is measured, not configured: the moving averages of the start round trip and of the
 * strategies' run time give `limit × start / run` (the slots that free during one start),
 * rounded down. Strategies that run for longer than a start takes get none, so an episode is
 * never held `running` on a busy node for longer than about one start round trip while another
 * node could have run it; nothing is started ahead before both averages have a sample.
 */
export class StartAheadEstimate {
  #startMs: number | undefined;
  #runMs: number | undefined;

  /** A start round trip: from asking to start to the strategy's turn. */
  noteStart(ms: number): void {
    this.#startMs = average(this.#startMs, ms);
  }

  /** A strategy's run: from its slot to its return. */
  noteRun(ms: number): void {
    this.#runMs = average(this.#runMs, ms);
  }

  /** Episodes to keep started ahead for an actor with `limit` slots on this node. */
  aheadFor(limit: number): number {
    if (this.#startMs === undefined || this.#runMs === undefined || limit <= 0) return 0;
    const freedDuringStart = (limit * this.#startMs) / Math.max(this.#runMs, 0.001);
    return Math.min(limit, Math.floor(freedDuringStart));
  }
}

function average(previous: number | undefined, sample: number): number {
  return previous === undefined ? sample : previous + WEIGHT * (sample - previous);
}
