import { countEpisodesByStatus, type TEpisodeStatusCounts } from "./count-episodes-by-status";
import { listLiveNodes, type TLiveNode } from "./list-live-nodes";
import type { TQueryable } from "./queryable";

/** SPEC section 10: a node is live when its heartbeat is at most 30 s old. */
export const LIVE_NODE_WINDOW_SECONDS = 30;

export interface TOverviewStats {
  env: string | null;
  episodes: TEpisodeStatusCounts;
  nodes: TLiveNode[];
  liveWindowSeconds: number;
  generatedAt: string;
}

/** Everything the Overview page shows, read in parallel (two independent, cheap queries). */
export async function getOverviewStats(options: {
  db: TQueryable;
  env: string | null;
}): Promise<TOverviewStats> {
  const [episodes, nodes] = await Promise.all([
    countEpisodesByStatus({ db: options.db, env: options.env }),
    listLiveNodes({ db: options.db, withinSeconds: LIVE_NODE_WINDOW_SECONDS }),
  ]);
  return {
    env: options.env,
    episodes,
    nodes,
    liveWindowSeconds: LIVE_NODE_WINDOW_SECONDS,
    generatedAt: new Date().toISOString(),
  };
}
