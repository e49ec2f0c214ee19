import "server-only";
import { getPool } from "../db";
import { createEpisodeEndpoints } from "./episode-endpoints";

/** The episode endpoints bound to this process's pool. */
export const episodeRoutes = createEpisodeEndpoints({ getDb: getPool });
