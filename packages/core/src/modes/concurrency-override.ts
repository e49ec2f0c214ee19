import { z } from "zod";
import type { ConcurrencyOverrideModel } from "@cyclium/db/models";
import type { RowOf } from "../db/row-of";

/**
 * An actor's `maxConcurrentEpisodes` set by an operator for one node (or '*' for every node): the
 * definition's range, 1..10,000 (the table's CHECK says the same).
 */
export const ZMaxConcurrentEpisodes = z.number().int().min(1).max(10_000);

/** One row of cyclium_concurrency_overrides. */
export interface ConcurrencyOverride {
  id: string;
  targetNode: string;
  actorId: string;
  maxConcurrentEpisodes: number;
  setBy: string | null;
  insertedAt: Date;
  updatedAt: Date;
}

export type ConcurrencyOverrideEntry = Pick<
  ConcurrencyOverride,
  "targetNode" | "actorId" | "maxConcurrentEpisodes"
>;

/** Columns every limit query returns, aliased to this shape. */
export const CONCURRENCY_OVERRIDE_COLUMNS = `id::text AS id, target_node, actor_id,
  max_concurrent_episodes, set_by, inserted_at, updated_at`;

export type ConcurrencyOverrideRow = RowOf<ConcurrencyOverrideModel>;

export function toConcurrencyOverride(row: ConcurrencyOverrideRow): ConcurrencyOverride {
  return {
    id: row.id,
    targetNode: row.target_node,
    actorId: row.actor_id,
    maxConcurrentEpisodes: row.max_concurrent_episodes,
    setBy: row.set_by,
    insertedAt: row.inserted_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The limit rows that concern one node, resolved: its own row for an actor beats the '*' row.
 * Actors without a row keep their definition's limit (not in the map).
 */
export function resolveConcurrencyLimits(
  nodeIdentity: string,
  rows: Iterable<ConcurrencyOverrideEntry>,
): Map<string, number> {
  const cluster = new Map<string, number>();
  const own = new Map<string, number>();
  for (const row of rows) {
    if (row.targetNode === nodeIdentity) own.set(row.actorId, row.maxConcurrentEpisodes);
    else if (row.targetNode === "*") cluster.set(row.actorId, row.maxConcurrentEpisodes);
  }
  return new Map([...cluster, ...own]);
}
