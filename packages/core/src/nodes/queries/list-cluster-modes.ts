import type { Queryable } from "../../db/index";
import {
  listConcurrencyOverrides,
  listModeOverrides,
  type ConcurrencyOverride,
  type ModeOverride,
} from "../../modes/index";
import { listLiveNodes, type LiveNode } from "./list-live-nodes";

export interface ClusterModes {
  /** Live nodes with the modes they last reported. */
  nodes: LiveNode[];
  /** Every row of cyclium_mode_overrides: what operators asked for, applied within a second. */
  overrideRows: ModeOverride[];
  /** Every row of cyclium_concurrency_overrides: actor limits set per node (or '*'). */
  limitRows: ConcurrencyOverride[];
}

/**
 * Live nodes with the modes they report, and the stored overrides. Both are shown because they
 * can differ for a moment: a row is applied by its node within ~1 s (NOTIFY) and reported back
 * with the next heartbeat (~5 s).
 */
export async function listClusterModes(options: { db: Queryable }): Promise<ClusterModes> {
  const [nodes, overrideRows, limitRows] = await Promise.all([
    listLiveNodes({ db: options.db }),
    listModeOverrides({ db: options.db }),
    listConcurrencyOverrides({ db: options.db }),
  ]);
  return { nodes, overrideRows, limitRows };
}
