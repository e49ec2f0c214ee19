import type { Queryable } from "../../db/index";
import { createEpisode } from "../create-episode";
import type { Episode } from "../episode-row";

/**
 * For tests: a pending episode fired by hand from the console (actor `a` unless told, expectation
 * `run`, no stack or env, no jitter). Throws unless it was created.
 */
export async function createManualEpisode(
  db: Queryable,
  options: { dedupeKey?: string | null; actorId?: string } = {},
): Promise<Episode> {
  const created = await createEpisode(
    {
      actorId: options.actorId ?? "a",
      expectationId: "run",
      triggerType: "manual",
      dedupeKey: options.dedupeKey ?? null,
      sourceNode: "console",
      sourceStack: null,
      sourceEnv: null,
      jitterMs: 0,
    },
    db,
  );
  if (created.kind !== "created") throw new Error(`episode not created: ${created.kind}`);
  return created.episode;
}
