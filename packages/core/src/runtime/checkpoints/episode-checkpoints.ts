import type { AnyStrategy } from "../../actors/index";
import type { ClaimFence } from "../../claims/index";
import type { Queryable } from "../../db/index";
import type { Episode } from "../../episodes/index";
import type { Logger } from "../../telemetry/index";
import { deleteCheckpoints } from "./list-checkpoints";
import { checkpointVersionOf, resolveResume, type ResumePoint } from "./resolve-resume";
import { saveCheckpoint } from "./save-checkpoint";

/**
 * The local runner's view of one run's checkpoints. It costs the hot path nothing for episodes
 * that never checkpoint: the newest checkpoint is only looked up for a restarted run (attempt > 1,
 * the only kind that can have one) and the completion delete only runs when one may exist.
 */
export class EpisodeCheckpoints {
  #mayExist: boolean;
  /** The newest checkpoint this run resumed from or saved (its step number); undefined: none. */
  #newest: number | undefined;

  constructor(
    private readonly episode: Episode,
    private readonly fence: ClaimFence | null,
    private readonly db: Queryable,
  ) {
    this.#mayExist = episode.attempt > 1;
  }

  async resumePoint(
    strategy: AnyStrategy,
    options: { nodeIdentity: string; logger: Logger; afterWait?: boolean },
  ): Promise<ResumePoint | undefined> {
    // A parked episode saved the checkpoint it resumes from, at any attempt.
    if (options.afterWait === true) this.#mayExist = true;
    if (!this.#mayExist) return undefined;
    const point = await resolveResume(
      {
        episodeId: this.episode.id,
        strategy,
        fence: this.fence,
        nodeIdentity: options.nodeIdentity,
        attempt: this.episode.attempt,
        logger: options.logger,
        ...(options.afterWait === true ? { afterWait: true } : {}),
      },
      this.db,
    );
    this.#newest = point?.checkpointNumber;
    return point;
  }

  /**
   * The step the newest checkpoint of this run was taken in: a run resumed from it starts with
   * the next step. Undefined when this run has none (a resume would start from `init`).
   */
  get newest(): number | undefined {
    return this.#newest;
  }

  async save(
    strategy: AnyStrategy,
    phase: string,
    state: unknown,
    stepNo: number,
  ): Promise<boolean> {
    this.#mayExist = true;
    const { saved } = await saveCheckpoint(
      {
        episodeId: this.episode.id,
        fence: this.fence,
        number: stepNo,
        phase,
        schemaVersion: checkpointVersionOf(strategy),
        state,
      },
      this.db,
    );
    if (saved) this.#newest = Math.max(this.#newest ?? stepNo, stepNo);
    return saved;
  }

  /** After the episode completed. Best effort: a leftover checkpoint is never resumed from. */
  async discard(logger: Logger): Promise<void> {
    if (!this.#mayExist) return;
    await deleteCheckpoints(this.episode.id, this.db).catch((err: unknown) =>
      logger.warn({ err, episode_id: this.episode.id }, "could not delete checkpoints"),
    );
  }
}
