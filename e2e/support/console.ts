// Helpers of the console specs: demo data the fires need, mode overrides written as the
// console's modes store writes them, and the worker's reported state.
import type pg from "pg";
import { E2E_WORKER_IDENTITY } from "./processes";

/** A resource for resource_monitor to check (the demo's table; SPEC section 11). */
export async function ensureResource(db: pg.Pool, id: string): Promise<void> {
  await db.query(
    `INSERT INTO resources (id, name, kind, usage, "limit") VALUES ($1, $1, 'database', 40, 100)
     ON CONFLICT (id) DO NOTHING`,
    [id],
  );
}

/** What setModeOverride does (upsert + NOTIFY cyclium_modes), for setup outside the UI. */
export async function setActorOverride(
  db: pg.Pool,
  options: { actorId: string; mode: string; targetNode?: string },
): Promise<void> {
  const target = options.targetNode ?? E2E_WORKER_IDENTITY;
  await db.query(
    `INSERT INTO cyclium_mode_overrides (target_node, actor_id, mode, set_by)
     VALUES ($1, $2, $3, 'e2e') ON CONFLICT (target_node, actor_id)
     DO UPDATE SET mode = EXCLUDED.mode, updated_at = now()`,
    [target, options.actorId, options.mode],
  );
  await db.query("SELECT pg_notify('cyclium_modes', $1)", [target]);
}

export async function clearActorOverride(
  db: pg.Pool,
  options: { actorId: string; targetNode?: string },
): Promise<void> {
  const target = options.targetNode ?? E2E_WORKER_IDENTITY;
  await db.query("DELETE FROM cyclium_mode_overrides WHERE target_node = $1 AND actor_id = $2", [
    target,
    options.actorId,
  ]);
  await db.query("SELECT pg_notify('cyclium_modes', $1)", [target]);
}

/** The per-actor overrides the worker last reported with its heartbeat. */
export async function reportedOverrides(
  db: pg.Pool,
  identity = E2E_WORKER_IDENTITY,
): Promise<Record<string, string>> {
  const { rows } = await db.query<{ overrides: Record<string, string> | null }>(
    "SELECT overrides FROM cyclium_nodes WHERE identity = $1",
    [identity],
  );
  return rows[0]?.overrides ?? {};
}

export async function manualEpisodesSince(
  db: pg.Pool,
  options: { actorId: string; since: Date },
): Promise<{ id: string; status: string }[]> {
  const { rows } = await db.query<{ id: string; status: string }>(
    `SELECT id, status FROM cyclium_episodes
      WHERE actor_id = $1 AND trigger_type = 'manual' AND inserted_at >= $2 ORDER BY inserted_at`,
    [options.actorId, options.since],
  );
  return rows;
}

export async function firingsOf(db: pg.Pool, triggerName: string, env: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM cyclium_trigger_firings WHERE trigger_name = $1 AND env = $2",
    [triggerName, env],
  );
  return rows[0]?.count ?? 0;
}
