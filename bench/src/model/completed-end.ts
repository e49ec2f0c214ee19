import type { ClaimFence } from "../../../packages/core/src/claims/index";
import type { EpisodeEnd } from "../../../packages/core/src/episodes/index";

/** The end of a drained item: completed at its one zero-length step, under `fence`. */
export function completedEnd(episodeId: string, fence: ClaimFence): EpisodeEnd {
  return {
    episodeId,
    fence,
    status: "completed",
    result: null,
    finalStep: {
      stepNo: 1,
      outcome: "done",
      data: null,
      turns: 0,
      tokens: 0,
      durationMs: 0,
      attempt: fence.attempt,
    },
  };
}
