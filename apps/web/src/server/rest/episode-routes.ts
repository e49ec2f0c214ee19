import "server-only";
import { getPool } from "../db";
import { findConsoleRuntime } from "../runtime/console-runtime";
import { createEpisodeEndpoints } from "./episode-endpoints";

/** The episode endpoints bound to this process's pool and its deployment's actors. */
export const episodeRoutes = createEpisodeEndpoints({
  getDb: getPool,
  getActors: () => findConsoleRuntime()?.registry.list() ?? [],
});
