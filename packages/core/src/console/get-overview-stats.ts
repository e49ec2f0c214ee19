import type { Queryable } from "../db/index";
import { countEpisodesByStatus, type EpisodeStatusCounts } from "./episodes/index";
import { LIVE_NODE_WINDOW_SECONDS, listLiveNodes, type LiveNode } from "../nodes/queries/index";

export interface OverviewStats {
  env: string | null;
  episodes: EpisodeStatusCounts;
  nodes: LiveNode[];
  liveWindowSeconds: number;
  generatedAt: Date;
}

/** Everything the Overview page shows, read in parallel (two independent, cheap queries). */
export async function getOverviewStats(options: {
  db: Queryable;
  env: string | null;
}): Promise<OverviewStats> {
  const [episodes, nodes] = await Promise.all([
    countEpisodesByStatus({ db: options.db, env: options.env }),
    listLiveNodes({ db: options.db, withinSeconds: LIVE_NODE_WINDOW_SECONDS }),
  ]);
  return {
    env: options.env,
    episodes,
    nodes,
    liveWindowSeconds: LIVE_NODE_WINDOW_SECONDS,
    generatedAt: new Date(),
  };
}
